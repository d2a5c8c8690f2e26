// Whether a data call's ticker is one the service covers, asked only when it matters. The service answers an
// unknown ticker as it answers a period without data ("The requested data was not found."), so a "not found"
// data answer alone cannot say which. The rule (docs/quota-and-billing.md, "A ticker FDQ does not cover"):
//   - a data request is never preceded by a coverage request: a covered ticker's answers cost what they cost;
//   - a data answer "not found" (DataNotFound) of a ticker asks its single-security coverage record
//     (/coverage/stock/:ticker, /coverage/inactive/:ticker for an inactive stock's colon form), once per
//     ticker and refresh day, through the client's own call (so the day cache keeps the answer, "not found"
//     included, and every other caller joins the one request), unless the ticker is known to have data: a
//     data answer with records today, a latest period ever found, a coverage record today;
//   - it waits first for the ticker's data requests still in flight (a SERIES asks its years at once), until one
//     of them brings records (the coverage request is then needless) or all have settled;
//   - the latest-period search (FY0, FQ0, LTM) asks it where its walk reaches the period the ticker's data is
//     expected at (period-resolver.ts) with nothing found yet, not at the empty periods above it that a
//     covered ticker's search passes too;
//   - a ticker whose coverage answer is "not found" fails with UncoveredTickerError, and for the rest of the
//     refresh day every data call of it fails so at once, with no request.
import type { ClientParts } from "./client-setup";
import {
  DataNotFoundError,
  NetworkError,
  NotCachedError,
  QuotaExhaustedError,
  RateLimitedError,
  ServiceRefreshingError,
  ServiceUnavailableError,
  TimeoutError,
  UncoveredTickerError,
  type CoveredAs,
} from "./errors";
import { isInactiveTicker } from "./period-resolver";
import { RequestKey } from "./request-key";
import type { CallOptions } from "./types";

/** The coverage type a data call's ticker is looked up as. */
export const coveredAs = (ticker: string): CoveredAs => (isInactiveTicker(ticker) ? "inactive" : "stock");

/** The coverage request that says whether the service covers `ticker`. */
export const coverageKeyOf = (ticker: string): RequestKey => RequestKey.security(coveredAs(ticker), ticker);

/** The client's call that asks a coverage record (FdqClient.security: cached, coalesced, counted). */
export type AskCoverage = (type: CoveredAs, ticker: string, options?: CallOptions) => Promise<unknown>;

/** Failures that pass: the coverage is asked again at the next "not found". */
const isPassing = (error: unknown): boolean =>
  [
    NetworkError,
    TimeoutError,
    RateLimitedError,
    ServiceUnavailableError,
    ServiceRefreshingError,
    QuotaExhaustedError,
  ].some((cls) => error instanceof cls);

interface Pending {
  count: number;
  /** Settles when one of the ticker's requests brings data, or when the last one has settled. */
  readonly wake: Promise<void>;
  readonly fire: () => void;
}

export class TickerCoverage {
  /** Tickers known today to have data; reset when the refresh day changes. */
  private covered = new Set<string>();
  /** Tickers whose coverage request got no usable answer today; reset with `covered`. */
  private untold = new Set<string>();
  private coveredOn = "";
  /** Data requests in flight per ticker, and a promise settled when one brings data or the last settles. */
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly ask: AskCoverage) {}

  /** The error of a ticker the day cache knows the service does not cover; undefined otherwise. */
  knownUncovered(e: ClientParts, ticker: string, status?: number): UncoveredTickerError | undefined {
    const answer = e.cache.peek(coverageKeyOf(ticker));
    if (answer?.kind !== "missing" || answer.error !== "DataNotFoundError") return undefined;
    return new UncoveredTickerError({ ticker, coveredAs: coveredAs(ticker), hints: e.hints, status });
  }

  /**
   * Sends a data request of `ticker` (`send`) unless the ticker is known not to be covered today (then fails
   * without a request), counting it as in flight until it settles.
   */
  send<T>(e: ClientParts, ticker: string, send: () => Promise<T>): Promise<T> {
    const refused = this.knownUncovered(e, ticker);
    if (refused) return Promise.reject(refused);
    let p = this.pending.get(ticker);
    if (!p) {
      let fire!: () => void;
      const wake = new Promise<void>((resolve) => (fire = resolve));
      p = { count: 0, wake, fire };
      this.pending.set(ticker, p);
    }
    const entry = p;
    entry.count++;
    return send().then(
      (answer) => {
        // An answer with data: the ticker is covered, and whoever waits to know can stop waiting.
        this.markCovered(e, ticker);
        this.settled(ticker, entry);
        entry.fire();
        return answer;
      },
      (error: unknown) => {
        this.settled(ticker, entry);
        throw error;
      },
    );
  }

  private settled(ticker: string, entry: Pending): void {
    if (--entry.count > 0) return;
    if (this.pending.get(ticker) === entry) this.pending.delete(ticker);
    entry.fire();
  }

  /**
   * What a data call of `ticker` fails with after its answer was `error`: UncoveredTickerError when the
   * answer was "not found" and the service does not cover the ticker; `error` itself otherwise (also when
   * the coverage request fails for another reason: the data's own answer is then the truest one). A
   * cache-only call's refusal is the uncovered error where today's cache knows it (what the call would answer
   * without a request); its coverage question is asked cache-only (options), so it too is refused, not sent.
   */
  async explain(e: ClientParts, ticker: string, error: unknown, options?: CallOptions): Promise<unknown> {
    if (error instanceof NotCachedError) return this.knownUncovered(e, ticker) ?? error;
    if (!(error instanceof DataNotFoundError)) return error;
    return (await this.verdict(e, ticker, error.status, options)) ?? error;
  }

  /**
   * UncoveredTickerError when the service does not cover `ticker`, undefined when it does or cannot say:
   * known without a request where it can be, else asked once (the coverage record, which the day keeps).
   */
  async verdict(
    e: ClientParts,
    ticker: string,
    status?: number,
    options?: CallOptions,
  ): Promise<UncoveredTickerError | undefined> {
    const known = this.knownUncovered(e, ticker, status);
    if (known) return known;
    if (this.hasData(e, ticker)) return undefined;
    await this.pending.get(ticker)?.wake;
    if (this.hasData(e, ticker)) return undefined;
    if (this.untold.has(ticker)) return undefined;
    try {
      await this.ask(coveredAs(ticker), ticker, options);
      this.markCovered(e, ticker);
      return undefined;
    } catch (coverage) {
      if (coverage instanceof NotCachedError) throw coverage;
      if (coverage instanceof DataNotFoundError)
        return new UncoveredTickerError({ ticker, coveredAs: coveredAs(ticker), hints: e.hints, status });
      // An answer that is no answer (a relay without the coverage endpoint, a malformed record) is not asked
      // again today; a passing failure (network, throttle, outage) is.
      if (!isPassing(coverage)) this.untold.add(ticker);
      return undefined;
    }
  }

  /** Forgets what is known of one ticker, or of all (the cache was invalidated). */
  forget(ticker?: string): void {
    for (const known of [this.covered, this.untold]) {
      if (ticker === undefined) known.clear();
      else known.delete(ticker);
    }
  }

  /** Whether the service is known to have data of `ticker`, without asking it. */
  private hasData(e: ClientParts, ticker: string): boolean {
    if (this.today(e).has(ticker)) return true;
    const found =
      e.cache.peek(coverageKeyOf(ticker))?.kind === "json" ||
      e.resolutions.foundAny(ticker) ||
      e.cache.hasRecordsOf(ticker);
    if (found) this.covered.add(ticker);
    return found;
  }

  /** An answer with data of `ticker` arrived: a set add, never a scan (it runs once per answer). */
  private markCovered(e: ClientParts, ticker: string): void {
    this.today(e).add(ticker);
  }

  /** Today's set of covered tickers (both sets start afresh on a new refresh day). */
  private today(e: ClientParts): Set<string> {
    const day = e.cache.today();
    if (this.coveredOn !== day) [this.covered, this.untold, this.coveredOn] = [new Set(), new Set(), day];
    return this.covered;
  }
}
