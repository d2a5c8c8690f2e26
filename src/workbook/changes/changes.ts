// The change report of a refresh: every refreshed FDQ cell's value before and after, compared, each change with
// its kind and relative size, sorted by size, and written as JSON or CSV. Host-neutral (no Office, no Node):
// the task pane builds it from the values it read before and after a refresh, and `fdq refresh --changes`
// from the workbook's cached values and the values it writes.
//
// Kinds:
//   restated      a period's value changed (the period itself did not move)
//   new period    the formula's resolved period moved (FY0 rolled to the next year): see `periodMoved`
//   new value     the cell was an error or empty and now has a value
//   now an error  the cell had a value or was empty, and now shows an error (an error that became another
//                 error is not listed: it was no number before either)
// Two numbers that agree to the precision a number keeps (15 significant digits, as Excel keeps them; the
// service's datavalue carries more digits than a double holds) are not a change.
import { isErrorCode } from "../model";

/** An Excel error value as the workbook shows it ("#N/A"). */
export interface ErrorValue {
  readonly error: string;
}

/** A cell's value: a number, text, a boolean, empty (null), or an error. */
export type ReportValue = number | string | boolean | null | ErrorValue;

export type ChangeKind = "restated" | "new period" | "new value" | "now an error";

/** Every kind, in the order reports count them. */
export const CHANGE_KINDS: readonly ChangeKind[] = ["restated", "new period", "new value", "now an error"];

/** One refreshed FDQ cell: where it is, its formula, and its value before and after the refresh. */
export interface CellObservation {
  readonly sheet: string;
  /** "B2" (no sheet). */
  readonly cell: string;
  readonly formula: string;
  readonly old: ReportValue;
  readonly new: ReportValue;
  /**
   * The period the formula resolved to before and after the refresh ("FY2024", "Q3 FY2025"), when the caller
   * knows it: a relative period (FY0, FQ0, LTM) resolves anew each refresh day.
   */
  readonly period?: { readonly before?: string; readonly after?: string };
}

export interface Change {
  readonly sheet: string;
  readonly cell: string;
  readonly formula: string;
  readonly old: ReportValue;
  readonly new: ReportValue;
  readonly kind: ChangeKind;
  /** (new - old) / |old| for two numbers with old != 0; null otherwise. */
  readonly relativeChange: number | null;
  /** The resolved period after the refresh, when known. */
  readonly period?: string;
}

/** Significant digits a number is compared to: what Excel keeps of a double. */
export const SIGNIFICANT_DIGITS = 15;

/** Whether `value` is an error value. */
export const isError = (value: ReportValue): value is ErrorValue =>
  typeof value === "object" && value !== null;

/**
 * A value as a host reads it: Office.js gives error values as text ("#N/A"), which become ErrorValues; an
 * empty cell ("" or undefined) becomes null.
 */
export function reportValue(value: unknown): ReportValue {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "object" && typeof (value as { error?: unknown }).error === "string") {
    return { error: (value as { error: string }).error };
  }
  const text = String(value);
  return isErrorCode(text) ? { error: text } : text;
}

/** Whether two numbers agree to SIGNIFICANT_DIGITS significant digits. */
export function sameNumber(a: number, b: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= scale * 10 ** (1 - SIGNIFICANT_DIGITS) * 0.5;
}

/** Whether two reported values are the same: numbers to 15 significant digits, errors by code, the rest exactly. */
export function sameValue(a: ReportValue, b: ReportValue): boolean {
  if (typeof a === "number" && typeof b === "number") return sameNumber(a, b);
  if (isError(a) || isError(b)) return isError(a) && isError(b) && a.error === b.error;
  return a === b;
}

/**
 * The hook for relative periods: whether the period a formula resolved to moved between the two refreshes.
 * Unknown on either side (a fixed period, or a caller that does not resolve periods) is not a move.
 */
export function periodMoved(before: string | undefined, after: string | undefined): boolean {
  return before !== undefined && after !== undefined && before !== after;
}

/** The kind of a change from `old` to `now`, or undefined when it is no change. */
export function classify(
  old: ReportValue,
  now: ReportValue,
  period?: CellObservation["period"],
): ChangeKind | undefined {
  if (sameValue(old, now)) return undefined;
  const wasValue = old !== null && !isError(old);
  if (isError(now)) return isError(old) ? undefined : "now an error";
  if (now === null) return wasValue ? "restated" : undefined;
  if (!wasValue) return "new value";
  return periodMoved(period?.before, period?.after) ? "new period" : "restated";
}

/** (new - old) / |old| for two numbers with old != 0, else null. */
export function relativeChange(old: ReportValue, now: ReportValue): number | null {
  if (typeof old !== "number" || typeof now !== "number" || old === 0) return null;
  return (now - old) / Math.abs(old);
}

/** How big a change is, for sorting: |relative change|, a number from 0 as infinitely big, others last. */
function sizeOf(change: Change): number {
  if (change.relativeChange !== null) return Math.abs(change.relativeChange);
  return typeof change.old === "number" && typeof change.new === "number" ? Infinity : -1;
}

/** Changes sorted by size, biggest first; equal sizes keep their order (sheet by sheet, as read). */
export function sortChanges(changes: readonly Change[]): Change[] {
  return changes
    .map((change, i) => ({ change, i, size: sizeOf(change) }))
    .sort((a, b) => b.size - a.size || a.i - b.i)
    .map((x) => x.change);
}

/** The changes among `cells`, sorted by size. */
export function compareCells(cells: readonly CellObservation[]): Change[] {
  const changes: Change[] = [];
  for (const c of cells) {
    const kind = classify(c.old, c.new, c.period);
    if (!kind) continue;
    const period = c.period?.after;
    changes.push({
      sheet: c.sheet,
      cell: c.cell,
      formula: c.formula,
      old: c.old,
      new: c.new,
      kind,
      relativeChange: relativeChange(c.old, c.new),
      ...(period === undefined ? {} : { period }),
    });
  }
  return sortChanges(changes);
}

export type KindCounts = Readonly<Record<ChangeKind, number>>;

export function countByKind(changes: readonly Change[]): KindCounts {
  const counts: Record<ChangeKind, number> = {
    restated: 0,
    "new period": 0,
    "new value": 0,
    "now an error": 0,
  };
  for (const c of changes) counts[c.kind]++;
  return counts;
}

/** A value as the report writes it: an error as Excel shows it ("#N/A"), empty as null. */
export function plainValue(value: ReportValue): number | string | boolean | null {
  return isError(value) ? value.error : value;
}

/** The report as JSON: an array of { sheet, cell, formula, old, new, kind, relativeChange, period? }. */
export function changesToJson(changes: readonly Change[]): string {
  return JSON.stringify(
    changes.map((c) => ({ ...c, old: plainValue(c.old), new: plainValue(c.new) })),
    null,
    2,
  );
}

export const CSV_COLUMNS = [
  "sheet",
  "cell",
  "formula",
  "old",
  "new",
  "kind",
  "relativeChange",
  "period",
] as const;

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would read as a formula (=, +, -, @, tab, carriage return
 * first) gets a leading apostrophe, so opening the report runs nothing: formulas and service text among them.
 */
export function csvField(value: number | string | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string")
    return typeof value === "boolean" ? (value ? "TRUE" : "FALSE") : String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The report as CSV with a header row, CRLF line ends (RFC 4180). */
export function changesToCsv(changes: readonly Change[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const c of changes) {
    lines.push(
      [c.sheet, c.cell, c.formula, plainValue(c.old), plainValue(c.new), c.kind, c.relativeChange, c.period]
        .map(csvField)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/** JSON or CSV by the file name's extension (".csv", any case, is CSV; anything else JSON). */
export function serializeChanges(changes: readonly Change[], fileName: string): string {
  return /\.csv$/i.test(fileName) ? changesToCsv(changes) : changesToJson(changes);
}

/** "+12.5%", "-0.3%", or "" when there is no relative change. */
export function percentText(change: number | null): string {
  if (change === null) return "";
  const pct = change * 100;
  const digits = Math.abs(pct) >= 10 ? 0 : Math.abs(pct) >= 1 ? 1 : 2;
  return `${pct > 0 ? "+" : ""}${pct.toFixed(digits)}%`;
}
