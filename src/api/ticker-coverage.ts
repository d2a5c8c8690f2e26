// Whether a data call's ticker is one the service covers: a layer of the cell's path, between the call and the
// day's answers. The service answers an unknown ticker as it answers a period without data ("The requested data
// was not found."), so a "not found" data answer alone cannot say which. The rule (docs/quota-and-billing.md, "A
// ticker FDQ does not cover"):
//   - before the first data request of a ticker whose coverage is not known today, the coverage LIST of its type
//     is asked (/coverage/stock, or /coverage/inactive for an inactive stock's colon form "ENRN:1"): one request
//     per type and refresh day, shared by every ticker and kept by the day cache like any answer (FDQ.COVERAGE
//     of that type then costs nothing more that day). A ticker it does not list fails with UncoveredTickerError
//     without a data request; a relative period of it (FY0, FQ0, LTM) starts no search. A share class is listed
//     when a class of its root is (share-class.ts: the service answers every class with the primary's data);
//   - a ticker known to have data today (an answer with records today, a latest period ever found, its coverage
//     record today) needs no list;
//   - a cache-only call (a formula's value preview) never asks the list: it reads it where today's cache has it;
//   - where the list cannot be had (network, throttle, the refresh window, a plan that refuses it), the data
//     request is sent anyway and the list is not kept; a refusal that will not pass (not a network or throttle
//     failure) is not asked again that day. The after-the-fact rule then applies: a data answer "not found" asks
//     the ticker's single-security coverage record (/coverage/stock/:ticker), once per ticker and day, after
//     the ticker's data requests in flight have settled without data (a SERIES asks its years at once), and the
//     latest-period search asks it where its walk reaches the period the data is expected at (period-resolver.ts).
import { coverageListed } from "./answer-reading";
import type { CacheValue } from "./cache-codec";
import type { DayAnswers } from "./day-answers";
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
  type ErrorHints,
} from "./errors";
import type { PeriodResolutions } from "./period-resolutions";
import { priceOf } from "./pricing";
import { RequestKey } from "./request-key";
import type { CallOptions } from "./types";

/** An inactive stock's ticker: <last_used_ticker>:<n> (spec fact 6). */
export const isInactiveTicker = (ticker: string): boolean => /:\d+$/.test(ticker);

/** The coverage type a data call's ticker is looked up as. */
export const coveredAs = (ticker: string): CoveredAs => (isInactiveTicker(ticker) ? "inactive" : "stock");

/** The single-security coverage request that says whether the service covers `ticker`. */
export const coverageKeyOf = (ticker: string): RequestKey => RequestKey.security(coveredAs(ticker), ticker);

/** The coverage list that lists `ticker` when the service covers it. */
export const coverageListOf = (ticker: string): RequestKey => RequestKey.coverage(coveredAs(ticker));

/** Failures that pass: the question is asked again next time. */
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

export interface TickerCoverageOptions {
  answers: DayAnswers;
  resolutions: PeriodResolutions;
  hints: ErrorHints;
  /** Whether the coverage list is asked before a data request (ClientOptions.coverageCheck "list"). */
  useList: boolean;
}

export class TickerCoverage {
  /** Tickers known today to have data; reset when the refresh day changes. */
  private covered = new Set<string>();
  /** Tickers whose single coverage record got no usable answer today. */
  private untold = new Set<string>();
  /** Coverage lists refused today by a failure that does not pass (not asked again that day). */
  private unlisted = new Set<CoveredAs>();
  private coveredOn = "";
  /** Data requests in flight per ticker (the after-the-fact rule waits for them). */
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly o: TickerCoverageOptions) {}

  /**
   * Before a data request of `ticker`: its UncoveredTickerError when today's coverage list does not list it,
   * else undefined (covered, or the list cannot be had). Without a promise whenever nothing is asked; asks the
   * list (one request per type and day, shared) when the ticker's coverage is not known today.
   */
  check(
    ticker: string,
    options?: CallOptions,
  ): UncoveredTickerError | undefined | Promise<UncoveredTickerError | undefined> {
    if (this.today().has(ticker)) return undefined;
    const listed = this.listed(ticker);
    if (listed !== undefined) return listed ? this.markCovered(ticker) : this.uncovered(ticker);
    if (this.hasData(ticker)) return undefined;
    const known = this.knownUncovered(ticker);
    if (known || !this.o.useList || options?.cacheOnly || this.unlisted.has(coveredAs(ticker))) return known;
    return this.askList(ticker);
  }

  /** Whether `ticker` is known to be covered or not today, without asking. */
  knownToday(ticker: string): boolean {
    return this.today().has(ticker) || this.listed(ticker) !== undefined || this.hasData(ticker);
  }

  /**
   * The coverage list of `ticker`'s type where the list rule applies today (not refused today), asked or not:
   * what a refresh that drops today's cache asks again.
   */
  listOf(ticker: string): RequestKey | undefined {
    this.today();
    return this.o.useList && !this.unlisted.has(coveredAs(ticker)) ? coverageListOf(ticker) : undefined;
  }

  /** The coverage list a data call of `ticker` would ask first (its coverage not known today), if any. */
  listToAsk(ticker: string): RequestKey | undefined {
    if (!this.o.useList || this.knownToday(ticker) || this.knownUncovered(ticker)) return undefined;
    return this.unlisted.has(coveredAs(ticker)) ? undefined : coverageListOf(ticker);
  }

  /**
   * A cache-only data call's refusal, priced as entering the call would spend: with the coverage list its
   * ticker would ask first, a cost the calls of one recalculation share (NotCachedError.joined counts it once).
   * The list then decides the rest (a ticker it does not list spends the list alone): the price is "at most".
   */
  priced(ticker: string, refusal: NotCachedError): NotCachedError {
    const list = this.listToAsk(ticker);
    return list
      ? refusal.with({ id: list.path, units: priceOf(list, this.o.answers.pricing) }, "list")
      : refusal;
  }

  private async askList(ticker: string): Promise<UncoveredTickerError | undefined> {
    const type = coveredAs(ticker);
    try {
      const { value } = await this.o.answers.asked(coverageListOf(ticker));
      const listed = coverageListed(value, ticker);
      if (listed === undefined) {
        this.unlisted.add(type); // an empty list says nothing: the after-the-fact rule applies today
        return undefined;
      }
      return listed ? this.markCovered(ticker) : this.uncovered(ticker);
    } catch (error) {
      if (!isPassing(error)) this.unlisted.add(type);
      return undefined;
    }
  }

  /** Whether today's cached coverage list lists `ticker`; undefined when the list is not in today's cache. */
  private listed(ticker: string): boolean | undefined {
    const list: CacheValue | undefined = this.o.answers.cache.peek(coverageListOf(ticker));
    return list?.kind === "json" ? coverageListed(list, ticker) : undefined;
  }

  private uncovered(ticker: string, status?: number): UncoveredTickerError {
    return new UncoveredTickerError({ ticker, coveredAs: coveredAs(ticker), hints: this.o.hints, status });
  }

  /** The error of a ticker today's cache knows the service does not cover (its list or its record); else undefined. */
  knownUncovered(ticker: string, status?: number): UncoveredTickerError | undefined {
    if (this.listed(ticker) === false) return this.uncovered(ticker, status);
    const answer = this.o.answers.cache.peek(coverageKeyOf(ticker));
    if (answer?.kind !== "missing" || answer.error !== "DataNotFoundError") return undefined;
    return this.uncovered(ticker, status);
  }

  /** A data request of `ticker` in flight until it settles; an answer with data marks the ticker covered. */
  track<T>(ticker: string, request: Promise<T>): Promise<T> {
    let p = this.pending.get(ticker);
    if (!p) {
      let fire!: () => void;
      const wake = new Promise<void>((resolve) => (fire = resolve));
      p = { count: 0, wake, fire };
      this.pending.set(ticker, p);
    }
    const entry = p;
    entry.count++;
    return request.then(
      (answer) => {
        // An answer with data: the ticker is covered, and whoever waits to know can stop waiting.
        this.markCovered(ticker);
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
   * answer was "not found" and the service does not cover the ticker; `error` itself otherwise. Where today's
   * list lists the ticker the data's own answer stands; without the list, the after-the-fact rule asks the
   * ticker's coverage record (verdict). A cache-only call's refusal is the uncovered error where today's cache
   * knows it.
   */
  async explain(ticker: string, error: unknown, options?: CallOptions): Promise<unknown> {
    if (error instanceof NotCachedError) return this.knownUncovered(ticker) ?? this.priced(ticker, error);
    if (!(error instanceof DataNotFoundError)) return error;
    return (await this.verdict(ticker, error.status, options)) ?? error;
  }

  /**
   * UncoveredTickerError when the service does not cover `ticker`, undefined when it does or cannot say:
   * from today's list where it is known, else from what is known without a request, else its coverage record
   * asked once (which the day keeps).
   */
  async verdict(
    ticker: string,
    status?: number,
    options?: CallOptions,
  ): Promise<UncoveredTickerError | undefined> {
    const listed = this.listed(ticker);
    if (listed !== undefined) return listed ? undefined : this.uncovered(ticker, status);
    const known = this.knownUncovered(ticker, status);
    if (known) return known;
    if (this.hasData(ticker)) return undefined;
    await this.pending.get(ticker)?.wake;
    if (this.hasData(ticker)) return undefined;
    if (this.untold.has(ticker)) return undefined;
    try {
      await this.o.answers.answer(coverageKeyOf(ticker), options);
      this.markCovered(ticker);
      return undefined;
    } catch (coverage) {
      if (coverage instanceof NotCachedError) throw coverage;
      if (coverage instanceof DataNotFoundError) return this.uncovered(ticker, status);
      // An answer that is no answer (a relay without the coverage endpoint, a malformed record) is not asked
      // again today; a passing failure (network, throttle, outage) is.
      if (!isPassing(coverage)) this.untold.add(ticker);
      return undefined;
    }
  }

  /**
   * The cached coverage answers a refresh of `tickers`' cells asks again: the record of one found not
   * covered, and the list that does not list one.
   */
  refreshed(tickers: Iterable<string>): RequestKey[] {
    const keys = new Map<string, RequestKey>();
    for (const ticker of tickers) {
      if (this.listed(ticker) === false) keys.set(coveredAs(ticker), coverageListOf(ticker));
      const record = coverageKeyOf(ticker);
      if (this.o.answers.cache.peek(record)?.kind === "missing") keys.set(record.path, record);
    }
    return [...keys.values()];
  }

  /** Forgets what is known of one ticker, or of all (the cache was invalidated). */
  forget(ticker?: string): void {
    for (const known of [this.covered, this.untold]) {
      if (ticker === undefined) known.clear();
      else known.delete(ticker);
    }
    if (ticker === undefined) this.unlisted.clear();
  }

  /** Whether the service is known to have data of `ticker`, without asking it. */
  private hasData(ticker: string): boolean {
    const cache = this.o.answers.cache;
    const found =
      cache.peek(coverageKeyOf(ticker))?.kind === "json" ||
      this.o.resolutions.foundAny(ticker) ||
      cache.hasRecordsOf(ticker);
    if (found) this.covered.add(ticker);
    return found;
  }

  /** An answer with data of `ticker` arrived, or its list lists it: a set add, never a scan. */
  private markCovered(ticker: string): undefined {
    this.today().add(ticker);
    return undefined;
  }

  /** Today's set of covered tickers (every set starts afresh on a new refresh day). */
  private today(): Set<string> {
    const day = this.o.answers.today();
    if (this.coveredOn !== day)
      [this.covered, this.untold, this.unlisted, this.coveredOn] = [new Set(), new Set(), new Set(), day];
    return this.covered;
  }
}
