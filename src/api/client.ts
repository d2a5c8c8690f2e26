// FdqClient: one method per endpoint group. Every call checks its arguments, names its request by one
// RequestKey, answers from the refresh-day cache when it can, and otherwise shares one request with every
// other caller of the same answer. Which request a datapoint call makes depends on the billing model
// (src/api/planner.ts): under per-datapoint billing it asks its own datapoint unless the cells of the same
// recalculation ask the whole dataset; under per-request billing it asks the whole dataset of its ticker
// and period (one unit that fills the cache for the siblings a worksheet asks next).
import { json, recordsAnswerOf } from "./answers";
import type { CacheValue, RecordsAnswer } from "./cache-codec";
import { buildClientParts, type ClientParts } from "./client-setup";
import {
  decodeCoverageList,
  decodeMetadata,
  decodeMetadataList,
  decodeRatings,
  decodeSector,
  decodeSecurity,
  toValue,
} from "./decode";
import { DEFAULTS } from "./defaults";
import { DataPointNotFoundError, FdqError, NotConfiguredError, QuotaExhaustedError } from "./errors";
import { dataKey, keyOfRequest, wholeOf, type DataKey } from "./call-keys";
import { Flights } from "./flights";
import type { PeriodResolver } from "./period-resolver";
import { estimateRequests, withResolution, type RequestEstimate } from "./planner";
import { priceOf } from "./pricing";
import type { UsageReport } from "./usage-ledger";
import {
  plannedRequest,
  relativeDataset,
  relativeDatapoint,
  resolutionCost,
  resolverFor,
} from "./relative-requests";
import { RequestKey } from "./request-key";
import { rememberedError } from "./errors";
import type { Counters } from "./transport";
import type {
  ApiResult,
  ClientOptions,
  ClientStats,
  CoverageItem,
  DatapointRequest,
  DatapointResult,
  DatasetRequest,
  DatasetResult,
  FdqRequest,
  MetadataRecord,
  RatingsRecord,
  RequestPlan,
  SectorRecord,
  SectorRequest,
  SectorResult,
  SecurityRecord,
} from "./types";
import {
  checkDatapointRequest,
  checkName,
  checkSecurityType,
  isRelativeCall,
  checkSectorRequest,
  checkTicker,
  checkWholeDatasetRequest,
} from "./validate";

export class FdqClient {
  private readonly counters: Counters = {
    requestsSent: 0,
    redirects: 0,
    unitsSpent: 0,
    cacheHits: 0,
    coalescedCalls: 0,
    retries: 0,
    failures: {},
  };
  private readonly flights = new Flights(() => this.counters.coalescedCalls++);
  private parts: ClientParts | undefined;
  private partsLoad: Promise<ClientParts> | undefined;
  private readonly loadOptions: (() => Promise<ClientOptions>) | undefined;
  /** Signals whose abort stops every request not yet sent (a refresh's Cancel), with the error it fails with. */
  private readonly stops = new Map<AbortSignal, () => FdqError>();
  private resolverOf: { parts: ClientParts; resolver: PeriodResolver } | undefined;

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
  private async partsReady(): Promise<ClientParts> {
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

  /** One datapoint of a ticker for a fiscal year, quarter or TTM period, or a relative period (FY0...). */
  async datapoint(req: DatapointRequest): Promise<DatapointResult> {
    if (isRelativeCall(req))
      return relativeDatapoint(this.resolver(await this.partsReady()), req, (r) => this.datapoint(r));
    const t = checkDatapointRequest(req);
    // A loaded cache needs no await: a worksheet of cached cells then costs no extra promise per cell.
    const e = this.parts?.cache.loaded ? this.parts : await this.partsReady();
    const refreshDay = e.cache.today();
    const all = t.dataset.allDatapointsMode;
    const whole = dataKey(t);
    let key: DataKey = whole;
    // A whole-dataset answer in the cache serves every datapoint of it, whatever the billing.
    let cached = all ? this.cachedValue(e, whole) : undefined;
    let windowMs = 0;
    if (!cached) {
      const single = dataKey(t, t.name);
      cached = this.cachedValue(e, single);
      if (cached) key = single;
      else if (!all) key = single;
      else if (e.pricing.billing === "per-request") windowMs = e.windowMs;
      else if (!this.flights.has(whole, refreshDay)) {
        key = await this.flights.choose(t.name, whole, single, refreshDay, e.windowMs);
        // A whole answer asked by another cell may have arrived during the window: it serves this one too.
        const arrived = key === whole ? undefined : this.cachedValue(e, whole);
        if (arrived) [key, cached] = [whole, arrived];
      }
    }
    const answer = (cached ??
      (await this.flights.share(
        key,
        refreshDay,
        () => this.fetchRecords(e, key, t.name),
        windowMs,
      ))) as RecordsAnswer;
    const i = key.fields.datapoint === undefined ? answer.indexOf(t.name) : 0;
    // A whole-dataset answer without the name says the datapoint does not exist (from the cache too).
    if (i < 0 || i >= answer.size) throw this.failed(e, key, new DataPointNotFoundError());
    const source = cached ? "cache" : "network";
    return {
      value: answer.value(i),
      record: answer.record(i),
      source,
      refreshDay,
      url: e.transport.url(key),
    };
  }

  /** Every datapoint of a dataset for a ticker and period, in the answer's (catalog) order. */
  async dataset(req: DatasetRequest): Promise<DatasetResult> {
    if (isRelativeCall(req))
      return relativeDataset(this.resolver(await this.partsReady()), req, (r) => this.dataset(r));
    const t = checkWholeDatasetRequest(req);
    const key = dataKey(t);
    const e = await this.partsReady();
    const refreshDay = e.cache.today();
    const cached = this.cachedValue(e, key);
    const answer = (cached ??
      (await this.flights.share(key, refreshDay, () => this.fetchRecords(e, key)))) as RecordsAnswer;
    const source = cached ? "cache" : "network";
    return {
      records: answer.records(),
      values: answer.values(),
      source,
      refreshDay,
      url: e.transport.url(key),
    };
  }

  /** Metadata of one datapoint name (always asked of the service: the catalog is cut off in places). */
  async datapointInfo(name: string): Promise<ApiResult<MetadataRecord>> {
    return this.data(RequestKey.metadata(checkName(name)), decodeMetadata);
  }

  async datapointList(): Promise<ApiResult<MetadataRecord[]>> {
    return this.data(RequestKey.metadata(), decodeMetadataList);
  }

  async coverageList(type: string): Promise<ApiResult<CoverageItem[]>> {
    return this.data(RequestKey.coverage(checkSecurityType(type)), decodeCoverageList);
  }

  async security(type: string, ticker: string): Promise<ApiResult<SecurityRecord>> {
    const n = checkTicker(ticker);
    return this.data(RequestKey.security(checkSecurityType(type), n), (results) =>
      decodeSecurity(results, n),
    );
  }

  /** A sector or industry datapoint; CATEGORY_TYPE and MODEL_DATE stay text. */
  async sector(req: SectorRequest): Promise<SectorResult> {
    const t = checkSectorRequest(req);
    const key = RequestKey.sector(t.id, t.name, t.priorYear);
    const { data, ...meta } = await this.data<SectorRecord>(key, (results) =>
      decodeSector(results, t.name, t.id),
    );
    return { ...meta, record: data, value: t.entry.text ? data.datavalue : toValue(data.datavalue) };
  }

  async ratings(ticker: string): Promise<ApiResult<RatingsRecord>> {
    const n = checkTicker(ticker);
    return this.data(RequestKey.ratings(n), (results) => decodeRatings(results, n));
  }

  /**
   * The key of the request a call's request makes (checked as the call checks it: throws its
   * InvalidArgumentError or DataPointNotFoundError). Needs no settings.
   */
  keyOf(request: FdqRequest): RequestKey {
    const fixed = plannedRequest(this.parts && this.resolver(this.parts), request);
    return keyOfRequest(fixed, this.parts?.pricing.billing ?? DEFAULTS.billing);
  }

  /**
   * What the call's request would send and whether the cache answers it now; throws as the call would, and
   * NotConfiguredError before the client knows its settings (await `ready()` first). Sends nothing.
   */
  plan(request: FdqRequest): RequestPlan {
    const key = this.keyOf(request);
    const e = this.parts;
    if (!e) throw new NotConfiguredError();
    e.cache.today();
    const whole = wholeOf(key);
    const fetchedOn = e.cache.fetchedOn(key) ?? (whole ? e.cache.fetchedOn(whole) : undefined);
    return {
      key,
      url: e.transport.url(key),
      cached: this.isCached(e, key),
      units: priceOf(key, e.pricing),
      policy: e.policy,
      fetchedOn,
    };
  }

  /**
   * The distinct requests a set of calls' requests makes under the billing model (single datapoints of one
   * dataset become its whole request when they ask every name), which of them today's cache answers, and
   * the units the others cost. Throws as `plan` does.
   */
  estimate(requests: readonly FdqRequest[]): RequestEstimate {
    const e = this.parts;
    if (!e) throw new NotConfiguredError();
    e.cache.today();
    const keys = requests.map((r) => this.keyOf(r));
    const estimate = estimateRequests(keys, e.pricing, (key) => this.isCached(e, key), wholeOf);
    return withResolution(estimate, resolutionCost(this.resolver(e), requests));
  }

  /** This month's units by day and by dataset, whether the quota is spent, and when it resets. */
  async usage(): Promise<UsageReport> {
    const e = await this.partsReady();
    await e.ledger.ready;
    return e.ledger.report();
  }

  /** The user says the plan was raised: requests are sent again after a "Limit Exceeded". */
  async planRaised(): Promise<void> {
    const e = await this.partsReady();
    await e.ledger.ready;
    e.ledger.clearExhausted();
    await e.ledger.flush();
  }

  /** Whether today's cache answers `key`: its own entry, or for a datapoint the whole dataset's. */
  private isCached(e: ClientParts, key: RequestKey): boolean {
    if (!e.cache.loaded) return false;
    if (e.cache.peek(key) !== undefined) return true;
    const whole = wholeOf(key);
    return whole !== undefined && e.cache.peek(whole) !== undefined;
  }

  /** Forgets every cached answer, or those about one ticker (or sector/industry id). */
  invalidate(ticker?: string): void {
    const t = ticker === undefined ? undefined : checkTicker(ticker);
    this.parts?.cache.invalidate(t);
    this.parts?.resolutions.invalidate(t, this.parts.cache.today());
  }

  /** The latest-period search of these parts, asking through this client's own calls. */
  private resolver(e: ClientParts): PeriodResolver {
    if (this.resolverOf?.parts !== e) this.resolverOf = { parts: e, resolver: resolverFor(e, this) };
    return this.resolverOf.resolver;
  }

  /**
   * Forgets today's answers of these requests (and of the whole datasets that would answer them), so their
   * next calls ask the service: the refresh of some cells. Other answers stay.
   */
  forget(requests: readonly FdqRequest[]): void {
    const keys = requests.flatMap((r) => {
      const key = this.keyOf(r);
      const whole = wholeOf(key);
      return whole ? [key, whole] : [key];
    });
    this.parts?.cache.forget(keys);
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

  /**
   * The read path of the endpoints other than data: the cached answer without an await once the saved cache
   * is loaded (a worksheet of cached cells then costs one promise per call), else fetched, decoded and cached.
   */
  private data<T>(key: RequestKey, decode: (results: unknown) => T): ApiResult<T> | Promise<ApiResult<T>> {
    const e = this.parts;
    const cached = e?.cache.loaded ? this.cachedValue(e, key) : undefined;
    if (e && cached) return this.apiResult<T>(e, key, cached, "cache", e.cache.today());
    return this.fetchData(key, decode);
  }

  private async fetchData<T>(key: RequestKey, decode: (results: unknown) => T): Promise<ApiResult<T>> {
    const e = await this.partsReady();
    const refreshDay = e.cache.today();
    const cached = this.cachedValue(e, key);
    if (cached) return this.apiResult<T>(e, key, cached, "cache", refreshDay);
    const value = await this.flights.share(key, refreshDay, () =>
      this.request(e, key, (results) => json(decode(results))),
    );
    return this.apiResult<T>(e, key, value, "network", refreshDay);
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
  private cachedValue(e: ClientParts, key: RequestKey): CacheValue | undefined {
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

  /** GET + decode + store; remembers "does not exist" answers for the day; transient failures never. */
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
      e.cache.set(key, value, stamp);
      const units = priceOf(key, e.pricing, value.kind === "records" ? value.size : undefined);
      this.counters.unitsSpent += units;
      e.ledger.record(key, units);
      return value;
    } catch (error) {
      // The whole account stops at once: queued and later requests fail without being sent.
      if (error instanceof QuotaExhaustedError) e.ledger.markExhausted();
      if (error instanceof FdqError && error.remembered) {
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
  private failed(e: ClientParts, key: RequestKey, error: FdqError): FdqError {
    e.transport.countFailure(e.transport.url(key), error);
    return error;
  }

  /** The datapoint records of a data request: the whole dataset, or the one datapoint `name`. */
  private fetchRecords(e: ClientParts, key: DataKey, name?: string): Promise<CacheValue> {
    return this.request(e, key, (results) => recordsAnswerOf(results, key, name));
  }
}
