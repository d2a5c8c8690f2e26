// Today's answer of a request: the day cache (day-cache.ts), else the one request in flight for it, else a new
// one through the transport, all shared by the one coalescer (coalescer.ts); the answer is kept by the day's
// rule (keptForDay), priced and counted in the ledger. Which request a datapoint call asks is chosen here, where
// the cache and the requests in flight are known: a dataset's whole answer in the cache serves every datapoint
// of it; else the billing decides (per-request: the whole dataset after the window, so siblings join it;
// per-datapoint: the names of one recalculation gather, and share the whole request when they ask all of it).
// Every endpoint of a cell's path reads its answers here; nothing here calls back into the layers above.
import { keptForDay } from "./answer-reading";
import type { CacheValue, RecordsAnswer } from "./cache-codec";
import { Coalescer } from "./coalescer";
import type { DayCache } from "./day-cache";
import {
  DataPointNotFoundError,
  FdqError,
  NotCachedError,
  QuotaExhaustedError,
  rememberedError,
} from "./errors";
import { asksWholeDataset } from "./planner";
import { priceOf, type BillingModel, type PricingOptions } from "./pricing";
import {
  dataKey,
  wholeDataKey,
  wholeOf,
  type DataKey,
  type DatapointTarget,
  type RequestKey,
} from "./request-key";
import type { Counters, Transport } from "./transport";
import type { CallOptions } from "./types";
import type { UsageLedger } from "./usage-ledger";

/**
 * The requests that can answer a datapoint call: its dataset's whole one where the spec documents one, and
 * its own (built only when asked: a cell served by a cached whole answer never needs it).
 */
export class DatapointKeys {
  readonly whole: DataKey | undefined;
  private own: DataKey | undefined;

  constructor(private readonly t: DatapointTarget) {
    this.whole = t.dataset.allDatapointsMode ? wholeDataKey(t) : undefined;
  }

  get name(): string {
    return this.t.name;
  }

  get ticker(): string {
    return this.t.ticker;
  }

  get single(): DataKey {
    return (this.own ??= dataKey(this.t, this.t.name));
  }
}

/**
 * The key a datapoint call asks alone: under `per-request` billing the whole dataset where there is one
 * (one unit that fills the cache for the siblings a worksheet asks next); under `per-datapoint` its own (the
 * names of one recalculation then join into the whole request when they are all of it).
 */
export function aloneKey(keys: DatapointKeys, billing: BillingModel): DataKey {
  return keys.whole && billing === "per-request" ? keys.whole : keys.single;
}

/** An answer and where it came from. */
export interface Answered {
  readonly value: CacheValue;
  readonly source: "cache" | "network";
  /** Joined a request another call had started or scheduled. */
  readonly joined: boolean;
}

/** A datapoint call's answer: the request that answered it, its records and the datapoint's index in them. */
export interface DatapointAnswered extends Answered {
  readonly key: DataKey;
  readonly value: RecordsAnswer;
  readonly index: number;
}

export interface DayAnswersOptions {
  cache: DayCache;
  transport: Transport;
  ledger: UsageLedger;
  pricing: PricingOptions;
  counters: Counters;
  /** How long the first of a recalculation's calls waits for the others (the coalescing window). */
  windowMs: number;
}

export class DayAnswers {
  /** The one coalescer of the path: requests in flight, per-datapoint batches, latest-period searches. */
  readonly coalescer = new Coalescer();

  constructor(private readonly o: DayAnswersOptions) {}

  get cache(): DayCache {
    return this.o.cache;
  }

  get pricing(): PricingOptions {
    return this.o.pricing;
  }

  get windowMs(): number {
    return this.o.windowMs;
  }

  /** The current refresh day. */
  today(): string {
    return this.o.cache.today();
  }

  /** The full URL of `key`'s request. */
  url(key: RequestKey): string {
    return this.o.transport.url(key);
  }

  /**
   * The day's cached answer of `key` (counted as a hit), undefined when there is none; a remembered "does
   * not exist" answer is thrown.
   */
  cached(key: RequestKey): CacheValue | undefined {
    const cached = this.o.cache.get(key);
    if (cached === undefined) return undefined;
    if (cached.kind === "missing") {
      const error = rememberedError(cached.error, cached.message, cached.status);
      if (!error) return undefined;
      this.o.counters.cacheHits++;
      throw error;
    }
    this.o.counters.cacheHits++;
    return cached;
  }

  /** Whether today's cache answers `key`: its own entry, or for a datapoint the whole dataset's. */
  isCached(key: RequestKey): boolean {
    const cache = this.o.cache;
    if (!cache.loaded) return false;
    if (cache.peek(key) !== undefined) return true;
    const whole = wholeOf(key);
    return whole !== undefined && cache.peek(whole) !== undefined;
  }

  /** Whether a request for `key` is scheduled or running today. */
  inFlight(key: RequestKey): boolean {
    return this.coalescer.has(key.inFlightKey(this.today()));
  }

  /**
   * Today's answer of `key`: the cache's, else the request in flight for it, else a new one started after
   * `windowMs`. A cache-only call refuses instead of joining or starting anything, with the price of `key`.
   */
  answer(key: RequestKey, options: CallOptions | undefined, windowMs = 0): Promise<Answered> {
    try {
      const value = this.cached(key);
      if (value) return Promise.resolve({ value, source: "cache", joined: false });
    } catch (error) {
      return Promise.reject(error);
    }
    return this.fetched(key, options, windowMs);
  }

  /**
   * Today's answer of a question a layer asks on its calls' behalf (the coverage list before their data): as
   * `answer`, but a call that joins it in flight is not counted as a coalesced call (its own request may be).
   */
  asked(key: RequestKey): Promise<Answered> {
    const cached = this.o.cache.get(key);
    if (cached?.kind === "missing") {
      const error = rememberedError(cached.error, cached.message, cached.status);
      if (error) return Promise.reject(error);
    } else if (cached) return Promise.resolve({ value: cached, source: "cache", joined: false });
    return this.fetched(key, undefined, 0, false);
  }

  /** The answer of a request the cache does not hold: joined, or sent once after `windowMs`. */
  private async fetched(
    key: RequestKey,
    options: CallOptions | undefined,
    windowMs = 0,
    countJoin = true,
  ): Promise<Answered> {
    if (options?.cacheOnly) throw new NotCachedError({ units: priceOf(key, this.o.pricing) });
    const claim = this.coalescer.claim<CacheValue>(key.inFlightKey(this.today()), undefined, windowMs);
    if (claim.joined) {
      if (countJoin) this.o.counters.coalescedCalls++;
      return { value: await claim.promise, source: "network", joined: true };
    }
    if (windowMs > 0) await claim.gathered();
    return { value: await claim.settle(this.send(key)), source: "network", joined: false };
  }

  /** The cached answer of a datapoint call, without a promise: the whole dataset's first, then its own. */
  cachedDatapoint(keys: DatapointKeys): DatapointAnswered | undefined {
    const whole = keys.whole;
    const wholeCached = whole && this.cached(whole);
    if (whole && wholeCached) return this.found(whole, wholeCached, keys.name, "cache", false);
    const own = this.cached(keys.single);
    return own && this.found(keys.single, own, keys.name, "cache", false);
  }

  /**
   * A datapoint call's answer: cached, or asked by the request the billing and the recalculation choose. A
   * cache-only call is refused with the price of the request it would ask alone.
   */
  async datapoint(keys: DatapointKeys, options: CallOptions | undefined): Promise<DatapointAnswered> {
    const cached = this.cachedDatapoint(keys);
    if (cached) return cached;
    if (options?.cacheOnly)
      throw new NotCachedError({ units: priceOf(aloneKey(keys, this.o.pricing.billing), this.o.pricing) });
    const whole = keys.whole;
    let key: DataKey = keys.single;
    let windowMs = 0;
    if (whole && this.o.pricing.billing === "per-request") [key, windowMs] = [whole, this.o.windowMs];
    else if (whole && this.inFlight(whole)) key = whole;
    else if (whole) {
      key = await this.gathered(keys, whole);
      // A whole answer asked by another cell may have arrived during the window: it serves this one too.
      const arrived = key === whole ? undefined : this.cached(whole);
      if (arrived) return this.found(whole, arrived, keys.name, "cache", false);
    }
    const { value, source, joined } = await this.fetched(key, options, windowMs);
    return this.found(key, value, keys.name, source, joined);
  }

  /**
   * Per-datapoint billing: the calls of one recalculation asking the same dataset, ticker and period gather for
   * the window; they share the whole dataset's request when together they ask every name of it (the same
   * units, one request) or when the whole is asked meanwhile, and otherwise each asks its own datapoint.
   */
  private async gathered(keys: DatapointKeys, whole: DataKey): Promise<DataKey> {
    const claim = this.coalescer.claim<ReadonlySet<string>, string>(
      `batch ${whole.inFlightKey(this.today())}`,
      keys.name,
      this.o.windowMs,
    );
    const names = claim.joined ? await claim.promise : await claim.settle(this.namesOf(claim.gathered()));
    // A whole request started meanwhile (an FDQ.DATASET cell of the same recalculation) answers it too.
    if (this.inFlight(whole)) return whole;
    return asksWholeDataset(whole.fields.dataset, names) ? whole : keys.single;
  }

  private async namesOf(gathered: Promise<readonly string[]>): Promise<ReadonlySet<string>> {
    return new Set(await gathered);
  }

  /** The datapoint `name` in a records answer; a whole answer without it says the datapoint does not exist. */
  private found(
    key: DataKey,
    value: CacheValue,
    name: string,
    source: "cache" | "network",
    joined: boolean,
  ): DatapointAnswered {
    const records = value as RecordsAnswer;
    const index = key.fields.datapoint === undefined ? records.indexOf(name) : 0;
    if (index < 0 || index >= records.size) {
      const error = new DataPointNotFoundError();
      this.o.transport.countFailure(this.url(key), error);
      throw error;
    }
    return { key, value: records, index, source, joined };
  }

  /** GET + read + keep what the day keeps (keptForDay: answers and "does not exist"; never a transient). */
  private async send(key: RequestKey): Promise<CacheValue> {
    const { cache, ledger } = this.o;
    const stamp = cache.stamp();
    try {
      const value = await this.o.transport.get(key);
      cache.set(key, value, stamp);
      const units = priceOf(key, this.o.pricing, value.kind === "records" ? value.size : undefined);
      this.o.counters.unitsSpent += units;
      ledger.record(key, units);
      return value;
    } catch (error) {
      // The whole account stops at once: queued and later requests fail without being sent.
      if (error instanceof QuotaExhaustedError) ledger.markExhausted();
      if (error instanceof FdqError && keptForDay({ error })) {
        cache.set(
          key,
          { kind: "missing", error: error.name, message: error.message, status: error.status },
          stamp,
        );
      }
      throw error;
    }
  }
}
