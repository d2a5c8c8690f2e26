// The client's engine (ky's one engine class): its options and parts loaded once, the day cache read by
// every endpoint, one shared request per answer (flights.ts) fetched, decoded, priced and kept for the day
// by the one rule (answer-reading.ts), the stops of a refresh's Cancel, and the counters. FdqClient
// (client.ts) adds one method per endpoint over it.
import { json, recordsAnswerOf } from "./answers";
import { keptForDay } from "./answer-reading";
import type { CacheValue } from "./cache-codec";
import { wholeOf, type DataKey } from "./call-keys";
import { CallTally, type CallHealth, type CountedResult } from "./call-tally";
import { buildClientParts, type ClientParts } from "./client-setup";
import { FdqError, NotCachedError, QuotaExhaustedError, rememberedError } from "./errors";
import { Flights } from "./flights";
import { priceOf } from "./pricing";
import type { RequestKey } from "./request-key";
import type { Counters } from "./transport";
import type { ApiResult, CallOptions, ClientOptions, ClientStats } from "./types";
import { checkTicker } from "./validate";

export class ClientEngine {
  protected readonly counters: Counters = {
    requestsSent: 0,
    redirects: 0,
    unitsSpent: 0,
    cacheHits: 0,
    coalescedCalls: 0,
    retries: 0,
    failures: {},
  };
  protected readonly flights = new Flights(() => this.counters.coalescedCalls++);
  /** The public methods' calls, pending and settled by source or error class (call-tally.ts). */
  protected readonly calls = new CallTally();
  protected parts: ClientParts | undefined;
  private partsLoad: Promise<ClientParts> | undefined;
  private readonly loadOptions: (() => Promise<ClientOptions>) | undefined;
  /** Signals whose abort stops every request not yet sent (a refresh's Cancel), with the error it fails with. */
  private readonly stops = new Map<AbortSignal, () => FdqError>();

  /**
   * With options, a ready client. With a function answering options (e.g. after reading the saved settings),
   * a client usable at once whose calls wait for that answer; a rejected answer fails the waiting calls and
   * is asked again by the next call.
   */
  constructor(options: ClientOptions | (() => Promise<ClientOptions>)) {
    if (typeof options === "function") this.loadOptions = options;
    else this.parts = buildClientParts(options, this.counters, this.stopped);
  }

  /**
   * Resolves once the client knows its options and has loaded its saved cache, so `plan` can answer;
   * rejects as a call would (NotConfiguredError while a lazily configured client has no key). Sends nothing.
   */
  async ready(): Promise<void> {
    await this.partsReady();
  }

  /** The parts once the options are known and the saved cache is loaded. */
  protected async partsReady(): Promise<ClientParts> {
    let parts = this.parts;
    if (!parts) {
      const load = (this.partsLoad ??= this.loadOptions!().then(
        (o) => (this.parts ??= buildClientParts(o, this.counters, this.stopped)),
      ));
      try {
        parts = await load;
      } catch (error) {
        if (this.partsLoad === load) this.partsLoad = undefined;
        throw error;
      }
    }
    await parts.cache.ready;
    return parts;
  }

  /** Forgets every cached answer, or those about one ticker (or sector/industry id). */
  invalidate(ticker?: string): void {
    const t = ticker === undefined ? undefined : checkTicker(ticker);
    this.parts?.cache.invalidate(t);
    this.parts?.resolutions.invalidate(t, this.parts.cache.today());
  }

  /**
   * Once `signal` aborts, every request not yet sent (queued, or asked later) fails at once with `error()`
   * without being sent; requests in flight finish. Until the answered release is called.
   */
  stopRequestsOn(signal: AbortSignal, error: () => FdqError): () => void {
    this.stops.set(signal, error);
    return () => void this.stops.delete(signal);
  }

  private readonly stopped = (): FdqError | undefined => {
    for (const [signal, error] of this.stops) if (signal.aborted) return error();
    return undefined;
  };

  stats(): ClientStats {
    const limiter = this.parts?.transport.limiter;
    return {
      ...this.counters,
      failures: { ...this.counters.failures },
      inFlight: limiter?.inFlight ?? 0,
      queued: limiter?.queued ?? 0,
      maxInFlight: limiter?.maxInFlight ?? 0,
      cacheEntries: this.parts?.cache.size ?? 0,
    };
  }

  /** The current round of calls: pending, answered from the cache, fetched, joined, failed by error class. */
  callHealth(): CallHealth {
    return this.calls.read();
  }

  /**
   * A public method's call, counted from now until it settles (call-tally.ts). A cache-only call (a formula's
   * value preview while the user types) belongs to no calculation and is not counted.
   */
  protected counted<T extends CountedResult>(options: CallOptions | undefined, work: Promise<T>): Promise<T> {
    return options?.cacheOnly ? work : this.calls.count(work);
  }

  /** Writes the cache to storage now (writes are otherwise batched). */
  async flush(): Promise<void> {
    const e = this.parts;
    await Promise.all([e?.cache.flush(), e?.ledger.flush(), e?.resolutions.flush()]);
  }

  /** Flushes and releases timers; the client should not be used afterwards. */
  async close(): Promise<void> {
    const e = this.parts;
    await Promise.all([e?.cache.close(), e?.ledger.flush(), e?.resolutions.flush()]);
  }

  /** Whether today's cache answers `key`: its own entry, or for a datapoint the whole dataset's. */
  protected isCached(e: ClientParts, key: RequestKey): boolean {
    if (!e.cache.loaded) return false;
    if (e.cache.peek(key) !== undefined) return true;
    const whole = wholeOf(key);
    return whole !== undefined && e.cache.peek(whole) !== undefined;
  }

  /**
   * The read path of the endpoints other than data: the cached answer without an await once the saved cache
   * is loaded (a worksheet of cached cells then costs one promise per call), else fetched, decoded and cached.
   */
  protected data<T>(
    key: RequestKey,
    decode: (results: unknown) => T,
    options: CallOptions | undefined,
  ): ApiResult<T> | Promise<ApiResult<T>> {
    const e = this.parts;
    const cached = e?.cache.loaded ? this.cachedValue(e, key) : undefined;
    if (e && cached) return this.apiResult<T>(e, key, cached, "cache", e.cache.today());
    return this.fetchData(key, decode, options);
  }

  private async fetchData<T>(
    key: RequestKey,
    decode: (results: unknown) => T,
    options: CallOptions | undefined,
  ): Promise<ApiResult<T>> {
    const e = await this.partsReady();
    const refreshDay = e.cache.today();
    const cached = this.cachedValue(e, key);
    if (cached) return this.apiResult<T>(e, key, cached, "cache", refreshDay);
    const joined = this.flights.has(key, refreshDay);
    const value = await this.share(e, key, refreshDay, options, () =>
      this.request(e, key, (results) => json(decode(results))),
    );
    const result = this.apiResult<T>(e, key, value, "network", refreshDay);
    if (joined) result.joined = true;
    return result;
  }

  /**
   * The one place a call not answered by the cache gets its answer: it joins the request for `key` in flight
   * today or starts one (`send`, after `windowMs`). A cache-only call refuses here instead, before it joins
   * or starts anything, with the price of `key`.
   */
  protected share(
    e: ClientParts,
    key: RequestKey,
    refreshDay: string,
    options: CallOptions | undefined,
    send: () => Promise<CacheValue>,
    windowMs = 0,
  ): Promise<CacheValue> {
    if (options?.cacheOnly) return Promise.reject(new NotCachedError({ units: priceOf(key, e.pricing) }));
    return this.flights.share(key, refreshDay, send, windowMs);
  }

  private apiResult<T>(
    e: ClientParts,
    key: RequestKey,
    value: CacheValue,
    source: "cache" | "network",
    refreshDay: string,
  ): ApiResult<T> {
    return { data: (value as { data: T }).data, source, refreshDay, url: e.transport.url(key) };
  }

  /**
   * The day's cached answer of `key` (counted as a hit), undefined when there is none; a remembered "does
   * not exist" answer is thrown. Every endpoint reads the cache through here.
   */
  protected cachedValue(e: ClientParts, key: RequestKey): CacheValue | undefined {
    const cached = e.cache.get(key);
    if (cached === undefined) return undefined;
    if (cached.kind === "missing") {
      const error = rememberedError(cached.error, cached.message, cached.status);
      if (!error) return undefined;
      this.counters.cacheHits++;
      throw error;
    }
    this.counters.cacheHits++;
    return cached;
  }

  /** GET + decode + store what the day keeps (keptForDay: answers and "does not exist"; never a transient). */
  private async request(
    e: ClientParts,
    key: RequestKey,
    decode: (results: unknown) => CacheValue,
  ): Promise<CacheValue> {
    const stamp = e.cache.stamp();
    try {
      // The transport counts its own failures; an answer that decodes to an error is counted here.
      const results = await e.transport.get(key);
      let value: CacheValue;
      try {
        value = decode(results);
      } catch (error) {
        throw error instanceof FdqError ? this.failed(e, key, error.withHints(e.hints)) : error;
      }
      if (keptForDay({ results })) e.cache.set(key, value, stamp);
      const units = priceOf(key, e.pricing, value.kind === "records" ? value.size : undefined);
      this.counters.unitsSpent += units;
      e.ledger.record(key, units);
      return value;
    } catch (error) {
      // The whole account stops at once: queued and later requests fail without being sent.
      if (error instanceof QuotaExhaustedError) e.ledger.markExhausted();
      if (error instanceof FdqError && keptForDay({ error })) {
        e.cache.set(
          key,
          { kind: "missing", error: error.name, message: error.message, status: error.status },
          stamp,
        );
      }
      throw error;
    }
  }

  /** Counts a call's final error that the transport did not see (a decoded answer), and answers it. */
  protected failed(e: ClientParts, key: RequestKey, error: FdqError): FdqError {
    e.transport.countFailure(e.transport.url(key), error);
    return error;
  }

  /** The datapoint records of a data request: the whole dataset, or the one datapoint `name`. */
  protected fetchRecords(e: ClientParts, key: DataKey, name?: string): Promise<CacheValue> {
    return this.request(e, key, (results) => recordsAnswerOf(results, key, name));
  }
}
