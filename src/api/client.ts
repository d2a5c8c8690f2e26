// FdqClient: one method per endpoint group. Every call checks its arguments, answers from the refresh-day
// cache when it can, and otherwise shares one request with every other caller of the same answer.
// Single-datapoint calls of datasets with all-datapoints mode always become (or join) the request for the
// whole dataset of that ticker and period, even a call that is alone in its window: the answer costs about
// the same as one datapoint and fills the cache for the siblings that a worksheet almost always asks next.
import { RecordsAnswer, type CacheValue } from "./cache-codec";
import type { CacheStamp } from "./day-cache";
import {
  decodeCoverageList,
  decodeDatapointRecords,
  decodeMetadata,
  decodeMetadataList,
  decodeRatings,
  decodeSector,
  decodeSecurity,
  toValue,
} from "./decode";
import { buildEngine, datapointRel, datasetRel, delay, freeze, recordDefaults, type Engine } from "./engine";
import { DataNotFoundError, DataPointNotFoundError, FdqError, NotConfiguredError } from "./errors";
import { rememberedError, withHints } from "./response-errors";
import type { Counters } from "./transport";
import type {
  ApiResult,
  ClientOptions,
  ClientStats,
  CoverageItem,
  DatapointPlan,
  DatapointRecord,
  DatapointRequest,
  DatapointResult,
  DatasetRequest,
  DatasetResult,
  MetadataRecord,
  RatingsRecord,
  SectorRecord,
  SectorRequest,
  SectorResult,
  SecurityRecord,
  Source,
} from "./types";
import {
  checkDatapointRequest,
  checkName,
  checkSecurityType,
  checkSectorRequest,
  checkTicker,
  type DatapointTarget,
  checkWholeDatasetRequest,
  type DatasetTarget,
} from "./validate";

interface DatasetPayload {
  records: readonly DatapointRecord[];
  values: readonly (number | string)[];
  byName: ReadonlyMap<string, number>;
}

interface RecordPayload {
  record: DatapointRecord;
  value: number | string;
}

export class FdqClient {
  private readonly counters: Counters = {
    requestsSent: 0,
    cacheHits: 0,
    coalescedCalls: 0,
    retries: 0,
    failures: {},
  };
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private engine: Engine | undefined;
  private engineLoad: Promise<Engine> | undefined;
  private readonly loadOptions: (() => Promise<ClientOptions>) | undefined;

  /**
   * With options, a ready client. With a function answering options (e.g. after reading the saved settings),
   * a client usable at once whose calls wait for that answer; a rejected answer fails the waiting calls and
   * is asked again by the next call.
   */
  constructor(options: ClientOptions | (() => Promise<ClientOptions>)) {
    if (typeof options === "function") this.loadOptions = options;
    else this.engine = buildEngine(options, this.counters);
  }

  /**
   * Resolves once the client knows its options and has loaded its saved cache, so `planDatapoint` can answer;
   * rejects as a call would (NotConfiguredError while a lazily configured client has no key). Sends nothing.
   */
  async ready(): Promise<void> {
    await this.engineReady();
  }

  /** The engine once its options are known and its saved cache is loaded. */
  private async engineReady(): Promise<Engine> {
    let engine = this.engine;
    if (!engine) {
      const load = (this.engineLoad ??= this.loadOptions!().then(
        (o) => (this.engine ??= buildEngine(o, this.counters)),
      ));
      try {
        engine = await load;
      } catch (error) {
        if (this.engineLoad === load) this.engineLoad = undefined;
        throw error;
      }
    }
    await engine.cache.ready;
    return engine;
  }

  /** One datapoint of a ticker for a fiscal year, quarter or TTM period. */
  async datapoint(req: DatapointRequest): Promise<DatapointResult> {
    const t = checkDatapointRequest(req);
    const e = this.engine?.cache.loaded ? this.engine : await this.engineReady();
    const day = e.cache.today();
    const all = t.dataset.allDatapointsMode;
    // The request (and the cache entry) is the whole dataset's answer, or in single mode the datapoint's.
    const rel = all ? datasetRel(t) : datapointRel(t, t.name);
    const cached = e.cache.get(rel);
    const hit = cached && this.fromCache(cached, all ? t.name : undefined);
    if (hit) return this.datapointResult(e, hit, "cache", day, rel);
    if (all) {
      const payload = await this.shared(day, rel, () => this.fetchDataset(e, t), e.windowMs);
      const index = payload.byName.get(t.name);
      if (index === undefined) throw this.failed(e, rel, new DataPointNotFoundError());
      const found = { record: payload.records[index]!, value: payload.values[index]! };
      return this.datapointResult(e, found, "network", day, rel);
    }
    const payload = await this.shared(day, rel, () => this.fetchDatapoint(e, t, rel));
    return this.datapointResult(e, payload, "network", day, rel);
  }

  /** Every datapoint of a dataset for a ticker and period, in the answer's (catalog) order. */
  async dataset(req: DatasetRequest): Promise<DatasetResult> {
    const t = checkWholeDatasetRequest(req);
    const e = await this.engineReady();
    const refreshDay = e.cache.today();
    const rel = datasetRel(t);
    const url = e.transport.url(rel);
    const group = e.cache.get(rel);
    if (group?.kind === "missing") this.fromCache(group);
    if (group?.kind === "records") {
      this.counters.cacheHits++;
      return { records: group.records(), values: group.values(), source: "cache", refreshDay, url };
    }
    const payload = await this.shared(refreshDay, rel, () => this.fetchDataset(e, t));
    return { records: [...payload.records], values: [...payload.values], source: "network", refreshDay, url };
  }

  /** Metadata of one datapoint name (always asked of the service: the catalog is cut off in places). */
  async datapointInfo(name: string): Promise<ApiResult<MetadataRecord>> {
    const n = checkName(name);
    const rel = `datapoint/${encodeURIComponent(n)}`;
    return this.cachedJson<MetadataRecord>(rel) ?? this.cachedData(rel, decodeMetadata);
  }

  async datapointList(): Promise<ApiResult<MetadataRecord[]>> {
    return this.cachedJson<MetadataRecord[]>("datapoint") ?? this.cachedData("datapoint", decodeMetadataList);
  }

  async coverageList(type: string): Promise<ApiResult<CoverageItem[]>> {
    const rel = `coverage/${checkSecurityType(type)}`;
    return this.cachedJson<CoverageItem[]>(rel) ?? this.cachedData(rel, decodeCoverageList);
  }

  async security(type: string, ticker: string): Promise<ApiResult<SecurityRecord>> {
    const rel = `coverage/${checkSecurityType(type)}/${encodeURIComponent(checkTicker(ticker))}`;
    return this.cachedJson<SecurityRecord>(rel) ?? this.cachedData(rel, decodeSecurity);
  }

  /** A sector or industry datapoint; CATEGORY_TYPE and MODEL_DATE stay text. */
  async sector(req: SectorRequest): Promise<SectorResult> {
    const t = checkSectorRequest(req);
    const prior = t.priorYear === undefined ? "" : `&prior_year=${t.priorYear}`;
    const rel = `sector/${encodeURIComponent(t.id)}?datapoint=${encodeURIComponent(t.name)}${prior}`;
    const { data, ...meta } =
      this.cachedJson<SectorRecord>(rel) ??
      (await this.cachedData(rel, (results) => decodeSector(results, t.name)));
    return { ...meta, record: data, value: t.entry.text ? data.datavalue : toValue(data.datavalue) };
  }

  async ratings(ticker: string): Promise<ApiResult<RatingsRecord>> {
    const n = checkTicker(ticker);
    const rel = `ratings/component/${encodeURIComponent(n)}`;
    return (
      this.cachedJson<RatingsRecord>(rel) ?? this.cachedData(rel, (results) => decodeRatings(results, n))
    );
  }

  /**
   * What `datapoint(req)` would request and whether the cache answers it now; throws as `datapoint` would,
   * and NotConfiguredError before the client knows its settings (await `ready()` first).
   */
  planDatapoint(req: DatapointRequest): DatapointPlan {
    const t = checkDatapointRequest(req);
    const e = this.engine;
    if (!e) throw new NotConfiguredError();
    e.cache.today();
    const rel = datapointRel(t, t.name);
    const requested = t.dataset.allDatapointsMode ? datasetRel(t) : rel;
    // A cached whole-dataset answer also answers a name it lacks (DataPointNotFound, from the cache).
    const cached = e.cache.loaded && e.cache.peek(requested) !== undefined;
    return { url: e.transport.url(requested), cached, key: `${e.scope}/${rel}` };
  }

  /** What `dataset(req)` would request and whether the cache answers it now; throws as `dataset` would. */
  planDataset(req: DatasetRequest): DatapointPlan {
    const t = checkWholeDatasetRequest(req);
    const e = this.engine;
    if (!e) throw new NotConfiguredError();
    e.cache.today();
    const rel = datasetRel(t);
    const cached = e.cache.loaded && e.cache.peek(rel) !== undefined;
    return { url: e.transport.url(rel), cached, key: `${e.scope}/${rel}` };
  }

  /** Forgets every cached answer, or those about one ticker (or sector/industry id). */
  invalidate(ticker?: string): void {
    this.engine?.cache.invalidate(ticker === undefined ? undefined : checkTicker(ticker));
  }

  stats(): ClientStats {
    const limiter = this.engine?.transport.limiter;
    return {
      ...this.counters,
      failures: { ...this.counters.failures },
      inFlight: limiter?.inFlight ?? 0,
      queued: limiter?.queued ?? 0,
      maxInFlight: limiter?.maxInFlight ?? 0,
      cacheEntries: this.engine?.cache.size ?? 0,
    };
  }

  /** Writes the cache to storage now (writes are otherwise batched). */
  async flush(): Promise<void> {
    await this.engine?.cache.flush();
  }

  /** Flushes and releases timers; the client should not be used afterwards. */
  async close(): Promise<void> {
    await this.engine?.cache.close();
  }

  /**
   * A cached record (counted as a hit), a thrown remembered error, or undefined for an unusable entry.
   * `name` picks the datapoint of a whole-dataset answer (one that lacks it says it does not exist); without
   * it the entry is a single-datapoint answer.
   */
  private fromCache(value: CacheValue, name?: string): RecordPayload | undefined {
    if (value.kind === "records") {
      const i = name === undefined ? 0 : value.indexOf(name);
      if (i < 0 || i >= value.size) return this.fromCache(MISSING_DATAPOINT);
      this.counters.cacheHits++;
      return { record: value.record(i), value: value.value(i) };
    }
    if (value.kind === "missing") {
      const error = rememberedError(value.error, value.message, value.status);
      if (error) {
        this.counters.cacheHits++;
        throw error;
      }
    }
    return undefined;
  }

  private datapointResult(
    e: Engine,
    found: RecordPayload,
    source: Source,
    refreshDay: string,
    requested: string,
  ): DatapointResult {
    return { value: found.value, record: found.record, source, refreshDay, url: e.transport.url(requested) };
  }

  /**
   * Joins the request already scheduled or running for `rel` on the refresh day `day`, or starts one (after
   * `windowMs`). A call made after the day's boundary never joins a request started before it: that answer
   * belongs to the previous day.
   */
  private shared<T>(day: string, rel: string, run: () => Promise<T>, windowMs = 0): Promise<T> {
    const key = `${day} ${rel}`;
    const existing = this.inFlight.get(key);
    if (existing) {
      this.counters.coalescedCalls++;
      return existing as Promise<T>;
    }
    const started = (windowMs > 0 ? delay(windowMs).then(run) : run()).finally(() =>
      this.inFlight.delete(key),
    );
    this.inFlight.set(key, started);
    return started;
  }

  /** GET + decode, remembering "does not exist" answers for the day; transient failures are never cached. */
  private async request<T>(
    e: Engine,
    rel: string,
    decode: (results: unknown) => T,
  ): Promise<{ data: T; stamp: CacheStamp }> {
    const stamp = e.cache.stamp();
    try {
      // The transport counts its own failures; an answer that decodes to an error is counted here.
      const results = await e.transport.get(rel);
      try {
        return { data: decode(results), stamp };
      } catch (error) {
        throw error instanceof FdqError ? this.failed(e, rel, withHints(error, e.hints)) : error;
      }
    } catch (error) {
      if (error instanceof FdqError && error.remembered) {
        e.cache.set(
          rel,
          { kind: "missing", error: error.name, message: error.message, status: error.status },
          stamp,
        );
      }
      throw error;
    }
  }

  /** Counts a call's final error that the transport did not see (a decoded answer), and answers it. */
  private failed(e: Engine, rel: string, error: FdqError): FdqError {
    e.transport.countFailure(e.transport.url(rel), error);
    return error;
  }

  private async fetchDataset(e: Engine, t: DatasetTarget): Promise<DatasetPayload> {
    const rel = datasetRel(t);
    const { data: records, stamp } = await this.request(e, rel, (results) => {
      const list = decodeDatapointRecords(results, recordDefaults(t));
      if (list.length === 0) throw new DataNotFoundError();
      return freeze(list);
    });
    const values = records.map((r) => toValue(r.datavalue));
    e.cache.set(rel, RecordsAnswer.fromRecords(records, values, toValue), stamp);
    return { records, values, byName: new Map(records.map((r, i) => [r.datapoint, i])) };
  }

  private async fetchDatapoint(e: Engine, t: DatapointTarget, rel: string): Promise<RecordPayload> {
    const { data: record, stamp } = await this.request(e, rel, (results) => {
      const list = decodeDatapointRecords(results, recordDefaults(t));
      const found = list.find((r) => r.datapoint === t.name) ?? list[0];
      if (!found) throw new DataNotFoundError();
      return freeze(found);
    });
    const found = { record, value: toValue(record.datavalue) };
    e.cache.set(rel, RecordsAnswer.fromRecords([record], [found.value], toValue), stamp);
    return found;
  }

  /**
   * The cached answer for `rel`, without an await, once the saved cache is loaded (a worksheet of cached
   * cells then costs one promise per call); undefined when cachedData must answer (not loaded, or not cached).
   */
  private cachedJson<T>(rel: string): ApiResult<T> | undefined {
    const e = this.engine;
    if (!e?.cache.loaded) return undefined;
    const refreshDay = e.cache.today();
    const cached = e.cache.get(rel);
    if (cached?.kind !== "json") return undefined;
    this.counters.cacheHits++;
    return { data: cached.data as T, source: "cache", refreshDay, url: e.transport.url(rel) };
  }

  private async cachedData<T>(rel: string, decode: (results: unknown) => T): Promise<ApiResult<T>> {
    // A loaded engine needs no await: a worksheet of cached cells then costs no extra promise per call.
    const e = this.engine?.cache.loaded ? this.engine : await this.engineReady();
    const refreshDay = e.cache.today();
    const url = e.transport.url(rel);
    const cached = e.cache.get(rel);
    if (cached?.kind === "json") {
      this.counters.cacheHits++;
      return { data: cached.data as T, source: "cache", refreshDay, url };
    }
    if (cached) this.fromCache(cached);
    const data = await this.shared(refreshDay, rel, async () => {
      const { data: fresh, stamp } = await this.request(e, rel, (results) => freeze(decode(results)));
      e.cache.set(rel, { kind: "json", data: fresh }, stamp);
      return fresh;
    });
    return { data, source: "network", refreshDay, url };
  }
}

const MISSING_DATAPOINT: CacheValue = {
  kind: "missing",
  error: "DataPointNotFoundError",
  message: new DataPointNotFoundError().message,
  status: 404,
};
