// M1's staleness rule: whether a cell's value on a refresh day is one the refresh policy allows. The rule is
// the bench's own statement of the policies (docs/quota-and-billing.md), not the request module's code, so that M1
// checks the client instead of agreeing with it by construction:
// - strict: every value is the service's answer of that refresh day;
// - saver (keepDays): the same, except that a closed period (fiscal year Y is closed from 1 January of Y+2)
//   of a datapoint not flagged (SP) may show the answer of an earlier refresh day at most keepDays days old.
// A value that is neither today's answer nor an allowed kept one is stale beyond the policy: a kept value
// older than keepDays, an (SP) or open-period value not fetched that day, or a value the service never gave.
import type { CellFetch } from "./workloads";

export type PolicyUnderTest =
  { readonly kind: "strict" } | { readonly kind: "saver"; readonly keepDays: number };

/** The service's answer for one cell on one refresh day (YYYY-MM-DD), as compared (see `valueKey`). */
export interface DayAnswer {
  readonly day: string;
  readonly value: string;
}

/** fresh: today's answer; kept: an earlier answer the policy allows; beyond: anything else. */
export type Staleness = "fresh" | "kept" | "beyond";

const DAY_MS = 86_400_000;

/** Whole days from refresh day `from` to refresh day `to`. */
export function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The catalog flags the datapoint (SP): it moves with the share price every day. */
export function isSpCell(cell: CellFetch): boolean {
  return (
    cell.kind === "datapoint" && cell.dataset.datapoints.some((p) => p.name === cell.name && p.sp === true)
  );
}

/** Fiscal year `year` is closed on refresh day `day` once the calendar year after it has ended. */
export function isClosedYear(year: number, day: string): boolean {
  return year <= Number(day.slice(0, 4)) - 2;
}

/** Whether the policy lets `cell` show an earlier day's answer on `day`. */
export function mayBeKept(cell: CellFetch, day: string, policy: PolicyUnderTest): boolean {
  return (
    policy.kind === "saver" &&
    cell.kind === "datapoint" &&
    !isSpCell(cell) &&
    isClosedYear(cell.period.year, day)
  );
}

/**
 * Classifies the value a client showed for `cell` on `day`. `answers` are the service's answers for the cell
 * on every refresh day so far, in order, the last one `day`'s.
 */
export function staleness(
  cell: CellFetch,
  day: string,
  value: string,
  answers: readonly DayAnswer[],
  policy: PolicyUnderTest,
): Staleness {
  const today = answers[answers.length - 1];
  if (!today || today.day !== day) throw new Error(`No answer of the service for ${day}`);
  if (value === today.value) return "fresh";
  if (!mayBeKept(cell, day, policy) || policy.kind !== "saver") return "beyond";
  const kept = answers.some((a) => {
    const age = daysFrom(a.day, day);
    return age > 0 && age <= policy.keepDays && a.value === value;
  });
  return kept ? "kept" : "beyond";
}

/** A cell's outcome as compared: `n 1.5`, `s text`, or `#error #N/A` (an error's message is not compared). */
export function valueKey(
  outcome: { ok: true; value: unknown } | { ok: false; error: { error: string } },
): string {
  if (!outcome.ok) return `#error ${outcome.error.error}`;
  const v = outcome.value;
  if (typeof v === "number") return `n ${v}`;
  if (typeof v === "string") return `s ${v}`;
  return `j ${JSON.stringify(v)}`;
}
