// The pane's health view of a recalculation: the request module's counts of the shared client's calls
// (FdqClient.callHealth, src/api/call-tally.ts) in words, the moment they all settled, and "retry the failed
// ones". The counts come from the client, not from the cells: a cell's formula may make several calls
// (FDQ.SERIES one per year), and a call's source is known only where it is answered.
import { isRetryableFailure, type CallHealth } from "../../api";
import type { WorkbookAccess } from "../office/workbook";
import { isErrorValue } from "./excel-error";

/** How often the pane reads the counts while a call is pending, and while none is. */
export const HEALTH_POLL_MS = { pending: 300, idle: 1000 } as const;

/** A failure's error class in the user's words. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  NetworkError: "could not reach the service",
  TimeoutError: "timed out",
  ServiceUnavailableError: "service unavailable (5xx)",
  ServiceRefreshingError: "the service's daily refresh window",
  RateLimitedError: "throttled (429)",
  QuotaExhaustedError: "monthly quota used up",
  DataPointNotFoundError: "does not exist",
  SectorDataPointNotFoundError: "does not exist",
  DataNotFoundError: "does not exist",
  RatingNotFoundError: "does not exist",
  UncoveredTickerError: "ticker not covered",
  InvalidArgumentError: "bad argument",
  InvalidSecurityTypeError: "bad argument",
  InvalidPriorYearError: "bad argument",
  UnauthorizedError: "API key refused",
  NotInPortfolioError: "not in the key's portfolio",
  NotConfiguredError: "no API key saved",
  BadResponseError: "unreadable answer",
  ServiceError: "service error",
};

export interface FailureLine {
  /** The error class, e.g. "NetworkError". */
  readonly reason: string;
  readonly words: string;
  readonly count: number;
  readonly retryable: boolean;
}

export interface HealthView {
  /** idle: no call yet; running: calls pending; settled: every call of the round settled. */
  readonly state: "idle" | "running" | "settled";
  readonly pending: number;
  readonly cached: number;
  readonly fetched: number;
  readonly joined: number;
  readonly failed: number;
  /** Failures by reason, the most frequent first. */
  readonly failures: readonly FailureLine[];
  /** Failed calls worth asking again (network, timeout, 5xx, refresh window, throttling). */
  readonly retryable: number;
  /** One sentence: what is happening, or when it settled and how long the round took. */
  readonly summary: string;
  /** When the round settled (ms since the epoch); undefined unless settled. */
  readonly settledAt?: number;
}

const plural = (n: number, one: string, many: string): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The time of day (24-hour, local) of a timestamp, e.g. "14:03:07". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** The counts of a round in the pane's words. `health` undefined: no client yet (no API key saved). */
export function healthView(health: CallHealth | undefined): HealthView {
  const h = health ?? { round: 0, pending: 0, cached: 0, fetched: 0, joined: 0, failed: {} };
  const failures = Object.entries(h.failed)
    .map(([reason, count]) => ({
      reason,
      words: REASON_WORDS[reason] ?? reason,
      count,
      retryable: isRetryableFailure(reason),
    }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  const failed = failures.reduce((n, f) => n + f.count, 0);
  const retryable = failures.reduce((n, f) => n + (f.retryable ? f.count : 0), 0);
  const settled = h.round > 0 && h.pending === 0 && h.settledAt !== undefined;
  const state = h.pending > 0 ? "running" : settled ? "settled" : "idle";
  const done = h.cached + h.fetched + h.joined + failed;
  const summary =
    state === "running"
      ? `Calculating: ${plural(h.pending, "FDQ call", "FDQ calls")} pending, ${done.toLocaleString("en-US")} settled.`
      : state === "settled"
        ? `Settled at ${clockTime(h.settledAt!)}: all ${plural(done, "FDQ call", "FDQ calls")} answered or failed` +
          (h.startedAt === undefined ? "." : ` in ${((h.settledAt! - h.startedAt) / 1000).toFixed(1)} s.`)
        : "No FDQ call since the pane opened.";
  return {
    state,
    pending: h.pending,
    cached: h.cached,
    fetched: h.fetched,
    joined: h.joined,
    failed,
    failures,
    retryable,
    summary,
    ...(state === "settled" ? { settledAt: h.settledAt } : {}),
  };
}

/** Whether the pane offers "Retry the failed ones": retryable failures and nothing pending. */
export const offersRetry = (view: HealthView): boolean => view.state === "settled" && view.retryable > 0;

/**
 * "Retry the failed ones": enters again the formula of every FDQ cell showing an error, so Excel runs those
 * cells (and their dependents) and nothing else; nothing cached is forgotten (a transient failure was never
 * cached). A call that failed for a lasting reason is answered again without a request (a "does not exist"
 * answer is remembered for the day, a bad argument is checked before any request, a spent quota stops the
 * request before it is sent), so only the transient failures ask the service again. Answers how many cells.
 */
export async function retryFailedCells(
  workbook: Pick<WorkbookAccess, "fdqCells" | "reenterFormulas">,
): Promise<number> {
  const inError = (await workbook.fdqCells()).filter((c) => isErrorValue(c.value)).map((c) => c.address);
  return inError.length === 0 ? 0 : workbook.reenterFormulas(inError);
}
