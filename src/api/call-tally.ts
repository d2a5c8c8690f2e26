// The client's calls as the task pane's health view counts them: one call per public method call of
// FdqClient (a cell's FDQ.DATAPOINT is one; an FDQ.SERIES of ten years is ten; the probes of a relative
// period's search and a "not found" answer's coverage question are part of their call), pending from the
// method's start until it settles, then answered from the cache, fetched, joined to a request another call
// had started, or failed by error class. Counted here, where the answer's source is known, rather than at
// the functions' boundary, which sees only values. The hot path is a few integer increments: no allocation
// per call (the settle handlers are bound once) and one clock read per round's start and end.
import type { FdqErrorName } from "./errors";

/**
 * Failures worth asking again: the service or the way to it failed for now (network, timeout, 5xx, the
 * daily refresh window, throttling). A quota refusal, a "does not exist" answer and a bad argument fail the
 * same way when asked again, and are not listed.
 */
export const RETRYABLE_FAILURES: ReadonlySet<string> = new Set<FdqErrorName>([
  "NetworkError",
  "TimeoutError",
  "ServiceUnavailableError",
  "ServiceRefreshingError",
  "RateLimitedError",
]);

/** Whether a failure's error class (its `name`) is worth asking again. */
export const isRetryableFailure = (errorName: string): boolean => RETRYABLE_FAILURES.has(errorName);

/** A call that started after the last one settled at least this long ago begins a new round. */
export const ROUND_QUIET_MS = 1000;

/** The calls of the current round (one recalculation's burst of calls), as `FdqClient.callHealth()` reads them. */
export interface CallHealth {
  /** Grows by one with each new round, so a reader tells a new recalculation from the one it showed. */
  readonly round: number;
  /** Calls started and not yet settled. */
  readonly pending: number;
  /** Calls answered from today's cache, with no request. */
  readonly cached: number;
  /** Calls answered by a request they started. */
  readonly fetched: number;
  /** Calls answered by a request another call had already started or scheduled. */
  readonly joined: number;
  /** Calls that failed, by error class name (e.g. NetworkError); a failure that is not ours is "Error". */
  readonly failed: Readonly<Record<string, number>>;
  /** When the round's first call started (ms since the epoch); undefined before any call. */
  readonly startedAt?: number;
  /** When the round's last pending call settled; undefined while a call is pending or before any call. */
  readonly settledAt?: number;
}

/** A settled call's result as the client's methods answer it. */
export interface CountedResult {
  readonly source: "cache" | "network";
  readonly joined?: boolean;
}

export class CallTally {
  private round = 0;
  private pending = 0;
  private cached = 0;
  private fetched = 0;
  private joined = 0;
  private failed: Record<string, number> = {};
  private startedAt: number | undefined;
  private settledAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts `work` as one call from now until it settles; answers it unchanged. */
  count<T extends CountedResult>(work: Promise<T>): Promise<T> {
    if (this.pending++ === 0) this.begin();
    return work.then(this.answered, this.failedWith) as Promise<T>;
  }

  /** The current round's counts (a copy). */
  read(): CallHealth {
    return {
      round: this.round,
      pending: this.pending,
      cached: this.cached,
      fetched: this.fetched,
      joined: this.joined,
      failed: { ...this.failed },
      ...(this.startedAt === undefined ? {} : { startedAt: this.startedAt }),
      ...(this.settledAt === undefined ? {} : { settledAt: this.settledAt }),
    };
  }

  /** No call was pending: a new round unless the last one settled a moment ago (the same recalculation). */
  private begin(): void {
    const now = this.now();
    if (this.settledAt === undefined || now - this.settledAt >= ROUND_QUIET_MS) {
      this.round++;
      this.cached = this.fetched = this.joined = 0;
      this.failed = {};
      this.startedAt = now;
    }
    this.settledAt = undefined;
  }

  private settle(): void {
    if (--this.pending === 0) this.settledAt = this.now();
  }

  private readonly answered = (result: CountedResult): CountedResult => {
    if (result.source === "cache") this.cached++;
    else if (result.joined) this.joined++;
    else this.fetched++;
    this.settle();
    return result;
  };

  private readonly failedWith = (error: unknown): never => {
    const name = error instanceof Error ? error.name : "Error";
    this.failed[name] = (this.failed[name] ?? 0) + 1;
    this.settle();
    throw error;
  };
}
