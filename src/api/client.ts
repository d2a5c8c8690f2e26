// FdqClient: the one entry of the request module, one method per endpoint group (openai-node's resources). A
// call runs down the layers of the path once, each below the one before and none calling back up
// (docs/architecture.md, "The path of a cell's request"):
//   1. call-requests.ts: the arguments checked and turned into the call's request(s), a relative period's
//      search named;
//   2. period-resolver.ts: a relative period's latest period, searched once per ticker and kind;
//   3. ticker-coverage.ts: a ticker the service does not cover fails before any data request;
//   4. day-answers.ts: the day cache, else the one request in flight, else a new one (the one coalescer);
//   5. transport.ts: the GET under the limiter, retries and the upstream policy, its answer read once
//      (answer-reading.ts).
// Which request a datapoint call makes depends on the billing model (src/api/planner.ts): under per-datapoint
// billing it asks its own datapoint unless the cells of the same recalculation ask the whole dataset; under
// per-request billing it asks the whole dataset of its ticker and period (one unit that fills the cache for
// the siblings a worksheet asks next). Each public method's call is counted once, from its start until it
// settles (call-tally.ts): what a call asks inside (a period search, a coverage question) is asked of the layers
// below, so it is part of that call and never counted again.
import type { CacheValue } from "./cache-codec";
import {
  asksLatest,
  checkDatapointRequest,
  checkRelativeRequest,
  checkTicker,
  checkWholeDatasetRequest,
  datapointKeys,
  datapointListKey,
  fixedCall,
  isRelativeCall,
  keyOfCall,
  keyOfRequest,
  periodOf,
  plannedRequest,
  probeOf,
  resolutionCost,
  resolvedOf,
  searchKind,
  searchOf,
  sectorCall,
  type RelativeTarget,
} from "./call-requests";
import { CallTally, type CallHealth, type CountedResult } from "./call-tally";
import { buildClientParts, type ClientParts } from "./client-setup";
import { toValue } from "./decode";
import { DEFAULTS } from "./defaults";
import { DataPointNotFoundError, NotCachedError, NotConfiguredError, type FdqError } from "./errors";
import { findDatapoint, type Dataset } from "../catalog";
import { nearestNames, orList } from "../catalog/nearest";
import type { Latest } from "./period-resolver";
import type { PreviousValue } from "./previous-day";
import {
  estimateRequests,
  withListCondition,
  withResolution,
  type Cost,
  type RequestEstimate,
} from "./planner";
import { priceOf } from "./pricing";
import { dataKey, RequestKey, wholeOf, type DatapointTarget } from "./request-key";
import type { Counters } from "./transport";
import type { DatapointAnswered, DatapointKeys } from "./day-answers";
import type {
  ApiResult,
  CallOptions,
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
import type { UsageReport } from "./usage-ledger";

/**
 * The service's DataPointNotFound for a name a cut-off catalog could not rule out, with the dataset's nearest
 * listed names when there are any ("Did you mean ACCOUNTS_PAYABLE?").
 */
function withNearestNames(error: DataPointNotFoundError, dataset: Dataset, name: string): FdqError {
  // A listed name missing from an answer is the answer's fault, not a misspelling.
  if (findDatapoint(dataset, name)) return error;
  const near = nearestNames(
    name,
    dataset.datapoints.map((d) => d.name),
  );
  if (near.length === 0) return error;
  return new DataPointNotFoundError({
    ...error.options,
    serviceMessage: undefined,
    message: `${error.message} Did you mean ${orList(near)}?`,
  });
}

/** A relative call's period, once known: the fixed call to make and what the result says was resolved. */
interface Resolved<C> {
  readonly call: C;
  readonly resolved: DatapointResult["resolved"];
}

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
  /** The public methods' calls, pending and settled by source or error class (call-tally.ts). */
  private readonly calls = new CallTally();
  private parts: ClientParts | undefined;
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

  /** Forgets every cached answer, or those about one ticker (or sector/industry id), and its coverage. */
  invalidate(ticker?: string): void {
    const t = ticker === undefined ? undefined : checkTicker(ticker);
    const parts = this.parts;
    parts?.cache.invalidate(t);
    parts?.resolutions.invalidate(t, parts.cache.today());
    parts?.coverage.forget(t);
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
  private counted<T extends CountedResult>(options: CallOptions | undefined, work: Promise<T>): Promise<T> {
    return options?.cacheOnly ? work : this.calls.count(work);
  }

  /** Writes the cache to storage now (writes are otherwise batched). */
  async flush(): Promise<void> {
    const e = this.parts;
    await Promise.all([e?.cache.flush(), e?.ledger.flush(), e?.resolutions.flush(), e?.dayBefore.flush()]);
  }

  /** Flushes and releases timers; the client should not be used afterwards. */
  async close(): Promise<void> {
    const e = this.parts;
    await Promise.all([e?.cache.close(), e?.ledger.flush(), e?.resolutions.flush(), e?.dayBefore.flush()]);
  }

  /**
   * The value datapoint `name` had in the answer of the request at `url` (a result's `url`) on the previous
   * refresh day, as the service sent it, when the day cache kept it at the day turn (previous-day.ts). Sends
   * nothing; undefined before the saved cache is loaded, and for any other URL.
   */
  previousValue(url: string, name: string): PreviousValue | undefined {
    const p = this.parts;
    if (!p?.cache.loaded) return undefined;
    const root = `${p.baseUrl}/`;
    const key = url.startsWith(root) ? RequestKey.parse(url.slice(root.length)) : undefined;
    return key && p.dayBefore.get(key, name, p.cache.today());
  }

  /**
   * One datapoint of a ticker for a fiscal year, quarter or TTM period, or a relative period (FY0...).
   * `options.cacheOnly`: see CallOptions.
   */
  datapoint(req: DatapointRequest, options?: CallOptions): Promise<DatapointResult> {
    const p = this.parts;
    const work =
      p?.cache.loaded && !isRelativeCall(req)
        ? this.loadedDatapoint(p, req, options)
        : this.datapointCall(req, options);
    return this.counted(options, work);
  }

  private async datapointCall(req: DatapointRequest, options?: CallOptions): Promise<DatapointResult> {
    if (!isRelativeCall(req)) return this.fixedDatapoint(req, options);
    const { call, resolved } = await this.resolve(req, { kind: "datapoint", request: req }, options);
    return { ...(await this.fixedDatapoint(call, options)), resolved };
  }

  /** A datapoint call of a fixed period: the cache, else the ticker's coverage, then the request. */
  private async fixedDatapoint(req: DatapointRequest, options?: CallOptions): Promise<DatapointResult> {
    const t = checkDatapointRequest(req);
    const p = this.parts?.cache.loaded ? this.parts : await this.partsReady();
    return this.targetDatapoint(p, t, options);
  }

  /** A fixed-period datapoint call once the saved cache is loaded (see targetDatapoint). */
  private loadedDatapoint(
    p: ClientParts,
    req: DatapointRequest,
    options: CallOptions | undefined,
  ): Promise<DatapointResult> {
    let t: DatapointTarget;
    try {
      t = checkDatapointRequest(req);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.targetDatapoint(p, t, options);
  }

  /**
   * A checked datapoint call with the saved cache loaded. A cell today's cache answers settles with no async
   * frame of its own (a worksheet of cached cells is most of a recalculation's calls): the same steps as the
   * request's path, in the same order, each error rejecting the answered promise as the path rejects it.
   */
  private targetDatapoint(
    p: ClientParts,
    t: DatapointTarget,
    options: CallOptions | undefined,
  ): Promise<DatapointResult> {
    try {
      const refreshDay = p.cache.today();
      const keys = datapointKeys(t);
      const got = p.answers.cachedDatapoint(keys);
      if (got) return Promise.resolve(this.datapointResult(p, got, refreshDay));
      return this.askedDatapoint(p, t, keys, refreshDay, options);
    } catch (error) {
      return this.failedDatapoint(p, t, error, options);
    }
  }

  /** A datapoint call the cache does not answer: the ticker's coverage, then the request. */
  private async askedDatapoint(
    p: ClientParts,
    t: DatapointTarget,
    keys: DatapointKeys,
    refreshDay: string,
    options: CallOptions | undefined,
  ): Promise<DatapointResult> {
    try {
      await this.covered(p, t.ticker, options);
      const got = await p.coverage.track(t.ticker, p.answers.datapoint(keys, options));
      return this.datapointResult(p, got, refreshDay);
    } catch (error) {
      return this.failedDatapoint(p, t, error, options);
    }
  }

  /** A datapoint call's error as the user reads it: the nearest names of a missing one, the ticker's coverage. */
  private async failedDatapoint(
    p: ClientParts,
    t: DatapointTarget,
    error: unknown,
    options: CallOptions | undefined,
  ): Promise<never> {
    if (error instanceof DataPointNotFoundError) throw withNearestNames(error, t.dataset, t.name);
    throw await p.coverage.explain(t.ticker, error, options);
  }

  private datapointResult(p: ClientParts, got: DatapointAnswered, refreshDay: string): DatapointResult {
    const result: DatapointResult = {
      value: got.value.value(got.index),
      record: got.value.record(got.index),
      source: got.source,
      refreshDay,
      url: p.answers.url(got.key),
    };
    if (got.joined) result.joined = true;
    return result;
  }

  /** Every datapoint of a dataset for a ticker and period, in the answer's (catalog) order. */
  dataset(req: DatasetRequest, options?: CallOptions): Promise<DatasetResult> {
    return this.counted(options, this.datasetCall(req, options));
  }

  private async datasetCall(req: DatasetRequest, options?: CallOptions): Promise<DatasetResult> {
    if (!isRelativeCall(req)) return this.fixedDataset(req, options);
    const { call, resolved } = await this.resolve(req, { kind: "dataset", request: req }, options);
    return { ...(await this.fixedDataset(call, options)), resolved };
  }

  /** A whole-dataset call of a fixed period. */
  private async fixedDataset(req: DatasetRequest, options?: CallOptions): Promise<DatasetResult> {
    const key = dataKey(checkWholeDatasetRequest(req));
    const ticker = key.fields.ticker;
    const p = await this.partsReady();
    try {
      const refreshDay = p.cache.today();
      if (!p.answers.isCached(key)) await this.covered(p, ticker, options);
      const got = await p.coverage.track(ticker, p.answers.answer(key, options));
      const answer = got.value as CacheValue & { kind: "records" };
      const result: DatasetResult = {
        records: answer.records(),
        values: answer.values(),
        source: got.source,
        refreshDay,
        url: p.answers.url(key),
      };
      if (got.joined) result.joined = true;
      return result;
    } catch (error) {
      throw await p.coverage.explain(ticker, error, options);
    }
  }

  /** Throws the UncoveredTickerError of a ticker the service does not cover (ticker-coverage.ts). */
  private async covered(p: ClientParts, ticker: string, options: CallOptions | undefined): Promise<void> {
    const checked = p.coverage.check(ticker, options);
    const uncovered = checked instanceof Promise ? await checked : checked;
    if (uncovered) throw uncovered;
  }

  /**
   * A relative call's period: its ticker's coverage first (an uncovered ticker starts no search), then the
   * latest period of its kind, known today or searched once. A cache-only call is refused where the latest
   * period is not known today, priced as `estimate` prices the call (the search and its own request).
   */
  private async resolve<C extends DatapointRequest | DatasetRequest>(
    req: C,
    request: FdqRequest,
    options: CallOptions | undefined,
  ): Promise<Resolved<C>> {
    const p = await this.partsReady();
    const t: RelativeTarget = checkRelativeRequest(req)!;
    const kind = searchKind(t);
    if (!p.resolver.known(t.ticker, kind)) await this.covered(p, t.ticker, options);
    let found: Latest;
    try {
      found = await p.resolver.latest(t.ticker, kind, probeOf(t), asksLatest(t), options);
    } catch (error) {
      throw error instanceof NotCachedError ? p.coverage.priced(t.ticker, this.refusal(request)) : error;
    }
    const { latest, resolvedOn } = found;
    const at = periodOf(t, latest);
    return { call: fixedCall(req, at), resolved: resolvedOf(t, at, resolvedOn) };
  }

  /** A cache-only relative call's refusal: priced as `estimate` prices the call (its coverage list aside). */
  private refusal(request: FdqRequest): NotCachedError {
    const { units, resolution } = this.estimateOf([request], false);
    const id = searchOf(request);
    return new NotCachedError({
      units,
      ...(resolution && id !== undefined && { shared: [{ id, units: resolution.units }] }),
    });
  }

  /** Metadata of one datapoint name (always asked of the service: the catalog is cut off in places). */
  datapointInfo(name: string, options?: CallOptions): Promise<ApiResult<MetadataRecord>> {
    return this.counted(
      options,
      this.data(() => keyOfCall({ kind: "info", name }), options),
    );
  }

  datapointList(options?: CallOptions): Promise<ApiResult<MetadataRecord[]>> {
    return this.counted(options, this.data(datapointListKey, options));
  }

  coverageList(type: string, options?: CallOptions): Promise<ApiResult<CoverageItem[]>> {
    return this.counted(
      options,
      this.data(() => keyOfCall({ kind: "coverage", type }), options),
    );
  }

  security(type: string, ticker: string, options?: CallOptions): Promise<ApiResult<SecurityRecord>> {
    return this.counted(
      options,
      this.data(() => keyOfCall({ kind: "security", type, ticker }), options),
    );
  }

  /** A sector or industry datapoint; CATEGORY_TYPE and MODEL_DATE stay text. */
  sector(req: SectorRequest, options?: CallOptions): Promise<SectorResult> {
    return this.counted(options, this.sectorCall(req, options));
  }

  private async sectorCall(req: SectorRequest, options?: CallOptions): Promise<SectorResult> {
    const { key, target: t } = sectorCall(req);
    const { data, ...meta } = await this.data<SectorRecord>(() => key, options);
    return { ...meta, record: data, value: t.entry.text ? data.datavalue : toValue(data.datavalue) };
  }

  ratings(ticker: string, options?: CallOptions): Promise<ApiResult<RatingsRecord>> {
    return this.counted(
      options,
      this.data(() => keyOfCall({ kind: "ratings", ticker }), options),
    );
  }

  /**
   * The read path of the endpoints other than data: the call's key (`keyOf`, whose argument errors reject the
   * call), then today's answer; no await for the parts once the saved cache is loaded.
   */
  private async data<T>(keyOf: () => RequestKey, options: CallOptions | undefined): Promise<ApiResult<T>> {
    const key = keyOf();
    const p = this.parts?.cache.loaded ? this.parts : await this.partsReady();
    const refreshDay = p.cache.today();
    const got = await p.answers.answer(key, options);
    const result: ApiResult<T> = {
      data: (got.value as { data: T }).data,
      source: got.source,
      refreshDay,
      url: p.answers.url(key),
    };
    if (got.joined) result.joined = true;
    return result;
  }

  /**
   * The key of the request a call's request makes (checked as the call checks it: throws its
   * InvalidArgumentError or DataPointNotFoundError). Needs no settings.
   */
  keyOf(request: FdqRequest): RequestKey {
    const fixed = plannedRequest(this.parts?.resolver, request);
    return keyOfRequest(fixed, this.parts?.pricing.billing ?? DEFAULTS.billing);
  }

  /**
   * What the call's request would send and whether the cache answers it now; throws as the call would, and
   * NotConfiguredError before the client knows its settings (await `ready()` first). Sends nothing.
   */
  plan(request: FdqRequest): RequestPlan {
    const key = this.keyOf(request);
    const p = this.parts;
    if (!p) throw new NotConfiguredError();
    p.cache.today();
    const whole = wholeOf(key);
    const fetchedOn = p.cache.fetchedOn(key) ?? (whole ? p.cache.fetchedOn(whole) : undefined);
    return {
      key,
      url: p.answers.url(key),
      cached: p.answers.isCached(key),
      units: priceOf(key, p.pricing),
      policy: p.policy,
      fetchedOn,
    };
  }

  /**
   * The distinct requests a set of calls' requests makes under the billing model (single datapoints of one
   * dataset become its whole request when they ask every name), which of them today's cache answers, and
   * the units the others cost. Under the list rule the data calls' coverage lists are among them (one per
   * type, ticker-coverage.ts): needed when a data call not cached today has a ticker whose coverage is not
   * known today, else counted as cached (a refresh that drops today's cache asks it again). A data call of a
   * ticker today's cache knows is not covered makes no request (its cell fails at once, also after a refresh:
   * the day's list says the same again). While the list is needed, the requests of the tickers it will tell
   * about are marked `ifListed` (docs/quota-and-billing.md: an estimate sends nothing, not even the list, so
   * it states the upper bound and this part of it). Throws as `plan` does.
   */
  estimate(requests: readonly FdqRequest[]): RequestEstimate {
    return this.estimateOf(requests, true);
  }

  /** `estimate`, with or without the coverage lists (a value preview's price names the call's own requests). */
  private estimateOf(requests: readonly FdqRequest[], lists: boolean): RequestEstimate {
    const p = this.parts;
    if (!p) throw new NotConfiguredError();
    p.cache.today();
    const tickerOf = (key: RequestKey): string | undefined =>
      key.fields.endpoint === "data" ? key.fields.ticker : undefined;
    const calls = requests.map((request) => ({ request, key: this.keyOf(request) }));
    const own = new Set(calls.map((c) => c.key.path));
    /** The data calls' coverage lists, and whether one of them asks it first. */
    const listed = new Map<string, { key: RequestKey; asked: boolean }>();
    for (const { key } of lists ? calls : []) {
      const ticker = tickerOf(key);
      if (ticker === undefined) continue;
      const list = p.coverage.listOf(ticker);
      if (!list) continue;
      const asked = !p.answers.isCached(key) && p.coverage.listToAsk(ticker) !== undefined;
      const entry = listed.get(list.path) ?? { key: list, asked: false };
      entry.asked ||= asked;
      listed.set(list.path, entry);
    }
    const isCached = (key: RequestKey): boolean => {
      const list = listed.get(key.path);
      if (list?.asked) return false;
      return p.answers.isCached(key) || (list !== undefined && !own.has(key.path));
    };
    // A ticker known not covered today sends no data request and starts no search.
    const sent = calls.filter(({ key }) => {
      const ticker = tickerOf(key);
      return ticker === undefined || p.coverage.knownUncovered(ticker) === undefined;
    });
    const added = [...listed.values()].map((l) => l.key);
    const estimate = withResolution(
      estimateRequests([...sent.map((c) => c.key), ...added], p.pricing, isCached, wholeOf),
      resolutionCost(
        p.resolver,
        sent.map((c) => c.request),
      ),
    );
    // The tickers whose coverage the list asked first will tell (the list is needed: a data call of one asks it).
    const told = new Set<string>();
    for (const { key } of sent) {
      const ticker = tickerOf(key);
      if (ticker === undefined || p.coverage.knownToday(ticker)) continue;
      const list = p.coverage.listOf(ticker);
      if (list && listed.get(list.path)?.asked) told.add(ticker);
    }
    const searches = new Map<string, Cost>();
    for (const ticker of told) {
      const search = resolutionCost(
        p.resolver,
        sent.filter((c) => tickerOf(c.key) === ticker).map((c) => c.request),
      );
      searches.set(ticker, { requests: search.requests, units: search.units });
    }
    return withListCondition(estimate, searches, tickerOf);
  }

  /**
   * What today's cache knows of `ticker`'s coverage: false when the service does not cover it (the day's list
   * does not list it, or its coverage record was "not found"; its data calls then fail at once, with no
   * request), true when it is known covered, undefined when nothing is known yet. Sends nothing.
   */
  coveredToday(ticker: string): boolean | undefined {
    const coverage = this.parts?.coverage;
    if (!coverage) return undefined;
    if (coverage.knownUncovered(ticker)) return false;
    return coverage.knownToday(ticker) ? true : undefined;
  }

  /**
   * Forgets today's answers of these requests (and of the whole datasets that would answer them, and the
   * coverage answers of a data ticker found not covered), so their next calls ask the service: the refresh of
   * some cells. Other answers stay.
   */
  forget(requests: readonly FdqRequest[]): void {
    const p = this.parts;
    const tickers = new Set<string>();
    const keys = requests.flatMap((r) => {
      const key = this.keyOf(r);
      if (key.fields.endpoint === "data") tickers.add(key.fields.ticker);
      const whole = wholeOf(key);
      return whole ? [key, whole] : [key];
    });
    // A ticker found not covered today is asked again too: refreshing its cells asks the service again.
    if (p) keys.push(...p.coverage.refreshed(tickers));
    p?.cache.forget(keys);
  }

  /** This month's units by day and by dataset, whether the quota is spent, and when it resets. */
  async usage(): Promise<UsageReport> {
    const p = await this.partsReady();
    await p.ledger.ready;
    return p.ledger.report();
  }

  /** The user says the plan was raised: requests are sent again after a "Limit Exceeded". */
  async planRaised(): Promise<void> {
    const p = await this.partsReady();
    await p.ledger.ready;
    p.ledger.clearExhausted();
    await p.ledger.flush();
  }
}
