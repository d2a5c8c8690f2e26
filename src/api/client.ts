// FdqClient: one method per endpoint group (openai-node's resources) over the client's engine
// (client-engine.ts). Every call checks its arguments and asks call-keys.ts which request answers it, then
// reads the refresh-day cache or shares one request with every other caller of the same answer. Which
// request a datapoint call makes depends on the billing model (src/api/planner.ts): under per-datapoint
// billing it asks its own datapoint unless the cells of the same recalculation ask the whole dataset; under
// per-request billing it asks the whole dataset of its ticker and period (one unit that fills the cache for
// the siblings a worksheet asks next). Each public method's call is counted once, from its start until it
// settles (call-tally.ts); the calls a call makes inside (a period search, a coverage question) go through
// the private methods and are part of it.
import type { RecordsAnswer } from "./cache-codec";
import {
  aloneKey,
  chooseDatapointKey,
  datapointKeys,
  datapointListKey,
  datasetKey,
  keyOfCall,
  keyOfRequest,
  sectorCall,
  wholeOf,
  type DatapointChoice,
  type DatapointKeys,
  type DatapointLook,
} from "./call-keys";
import { ClientEngine } from "./client-engine";
import type { ClientParts } from "./client-setup";
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
import { DataPointNotFoundError, NotCachedError, NotConfiguredError, type FdqError } from "./errors";
import { findDatapoint, type Dataset } from "../catalog";
import { nearestNames, orList } from "../catalog/nearest";
import type { PeriodResolver } from "./period-resolver";
import { estimateRequests, withResolution, type RequestEstimate } from "./planner";
import { priceOf } from "./pricing";
import {
  plannedRequest,
  relativeDataset,
  relativeDatapoint,
  resolutionCost,
  resolverFor,
  searchOf,
} from "./relative-requests";
import type { RequestKey } from "./request-key";
import { coverageKeyOf, TickerCoverage } from "./ticker-coverage";
import type {
  ApiResult,
  CallOptions,
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
import { checkDatapointRequest, isRelativeCall } from "./validate";

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

export class FdqClient extends ClientEngine {
  private resolverOf: { parts: ClientParts; resolver: PeriodResolver } | undefined;
  private lookOf: { parts: ClientParts; refreshDay: string; look: DatapointLook } | undefined;
  /** Whether a "not found" data answer means a ticker the service does not cover (ticker-coverage.ts). */
  private readonly coverage = new TickerCoverage((type, ticker, options) =>
    this.securityAnswer(type, ticker, options),
  );

  /** Forgets every cached answer, or those about one ticker, and what is known of its coverage. */
  override invalidate(ticker?: string): void {
    super.invalidate(ticker);
    this.coverage.forget(ticker === undefined ? undefined : ticker.trim().toUpperCase());
  }

  /**
   * One datapoint of a ticker for a fiscal year, quarter or TTM period, or a relative period (FY0...).
   * `options.cacheOnly`: see CallOptions.
   */
  datapoint(req: DatapointRequest, options?: CallOptions): Promise<DatapointResult> {
    return this.counted(options, this.anyDatapoint(req, options));
  }

  /** A datapoint call, not counted again: the public method counts it (call-tally.ts). */
  private async anyDatapoint(req: DatapointRequest, options?: CallOptions): Promise<DatapointResult> {
    if (isRelativeCall(req))
      return relativeDatapoint(
        this.resolver(await this.partsReady()),
        req,
        (r) => this.anyDatapoint(r, options),
        this.refusal(options, { kind: "datapoint", request: req }),
      );
    return this.fixedDatapoint(req, true, options);
  }

  /**
   * A datapoint call of a fixed period. `explain`: a "not found" answer asks whether the ticker is covered
   * (ticker-coverage.ts); the latest-period search's probes ask it themselves, where the walk expects data.
   */
  private async fixedDatapoint(
    req: DatapointRequest,
    explain: boolean,
    options?: CallOptions,
  ): Promise<DatapointResult> {
    const t = checkDatapointRequest(req);
    // A loaded cache needs no await: a worksheet of cached cells then costs no extra promise per cell.
    const e = this.parts?.cache.loaded ? this.parts : await this.partsReady();
    try {
      const refreshDay = e.cache.today();
      const keys = datapointKeys(t);
      // A cache-only call neither gathers with a recalculation's calls nor joins a request in flight: read
      // from the cache, else refused with the price of the request it would ask alone.
      const chosen = options?.cacheOnly
        ? this.cachedChoice(e, keys)
        : chooseDatapointKey(keys, this.datapointLook(e, refreshDay));
      const { key, cached, windowed } = chosen instanceof Promise ? await chosen : chosen;
      const joined = cached === undefined && this.flights.has(key, refreshDay);
      const answer = (cached ??
        (await this.share(
          e,
          key,
          refreshDay,
          options,
          () => this.coverage.send(e, t.ticker, () => this.fetchRecords(e, key, t.name)),
          windowed ? e.windowMs : 0,
        ))) as RecordsAnswer;
      const i = key.fields.datapoint === undefined ? answer.indexOf(t.name) : 0;
      // A whole-dataset answer without the name says the datapoint does not exist (from the cache too).
      if (i < 0 || i >= answer.size) throw this.failed(e, key, new DataPointNotFoundError());
      const result: DatapointResult = {
        value: answer.value(i),
        record: answer.record(i),
        source: cached ? "cache" : "network",
        refreshDay,
        url: e.transport.url(key),
      };
      if (joined) result.joined = true;
      return result;
    } catch (error) {
      if (!explain) throw error;
      if (error instanceof DataPointNotFoundError) throw withNearestNames(error, t.dataset, t.name);
      throw await this.coverage.explain(e, t.ticker, error, options);
    }
  }

  /** A cache-only datapoint call's choice: the cached answer (the whole dataset's first), else its lone key. */
  private cachedChoice(e: ClientParts, keys: DatapointKeys): DatapointChoice {
    const whole = keys.whole;
    const wholeCached = whole && this.cachedValue(e, whole);
    if (whole && wholeCached) return { key: whole, cached: wholeCached, windowed: false };
    const own = this.cachedValue(e, keys.single);
    return { key: own ? keys.single : aloneKey(keys, e.pricing.billing), cached: own, windowed: false };
  }

  /**
   * A cache-only call's refusal where a relative period's latest period is not known today: priced as
   * `estimate` prices the call (the search and the call's own request).
   */
  private refusal(options: CallOptions | undefined, request: FdqRequest): (() => NotCachedError) | undefined {
    if (!options?.cacheOnly) return undefined;
    return () => {
      const { units, resolution } = this.estimate([request]);
      const id = searchOf(request);
      return new NotCachedError({
        units,
        ...(resolution && id !== undefined && { search: { id, units: resolution.units } }),
      });
    };
  }

  /** What datapoint calls ask call-keys.ts to choose by (the cache, the flights, the billing), made once a day. */
  private datapointLook(e: ClientParts, refreshDay: string): DatapointLook {
    const made = this.lookOf;
    if (made?.parts === e && made.refreshDay === refreshDay) return made.look;
    const look: DatapointLook = {
      billing: e.pricing.billing,
      cached: (key) => this.cachedValue(e, key),
      inFlight: (key) => this.flights.has(key, refreshDay),
      gather: (name, whole, single) => this.flights.choose(name, whole, single, refreshDay, e.windowMs),
    };
    this.lookOf = { parts: e, refreshDay, look };
    return look;
  }

  /** Every datapoint of a dataset for a ticker and period, in the answer's (catalog) order. */
  dataset(req: DatasetRequest, options?: CallOptions): Promise<DatasetResult> {
    return this.counted(options, this.anyDataset(req, options));
  }

  /** A dataset call, not counted again: the public method counts it (call-tally.ts). */
  private async anyDataset(req: DatasetRequest, options?: CallOptions): Promise<DatasetResult> {
    if (isRelativeCall(req))
      return relativeDataset(
        this.resolver(await this.partsReady()),
        req,
        (r) => this.anyDataset(r, options),
        this.refusal(options, { kind: "dataset", request: req }),
      );
    return this.fixedDataset(req, true, options);
  }

  /** A whole-dataset call of a fixed period; `explain` as for fixedDatapoint. */
  private async fixedDataset(
    req: DatasetRequest,
    explain: boolean,
    options?: CallOptions,
  ): Promise<DatasetResult> {
    const key = datasetKey(req);
    const ticker = key.fields.ticker;
    const e = await this.partsReady();
    try {
      const refreshDay = e.cache.today();
      const cached = this.cachedValue(e, key);
      const joined = cached === undefined && this.flights.has(key, refreshDay);
      const answer = (cached ??
        (await this.share(e, key, refreshDay, options, () =>
          this.coverage.send(e, ticker, () => this.fetchRecords(e, key)),
        ))) as RecordsAnswer;
      const result: DatasetResult = {
        records: answer.records(),
        values: answer.values(),
        source: cached ? "cache" : "network",
        refreshDay,
        url: e.transport.url(key),
      };
      if (joined) result.joined = true;
      return result;
    } catch (error) {
      throw explain ? await this.coverage.explain(e, ticker, error, options) : error;
    }
  }

  /** Metadata of one datapoint name (always asked of the service: the catalog is cut off in places). */
  datapointInfo(name: string, options?: CallOptions): Promise<ApiResult<MetadataRecord>> {
    return this.counted(options, this.infoAnswer(name, options));
  }

  private async infoAnswer(name: string, options?: CallOptions): Promise<ApiResult<MetadataRecord>> {
    return this.data(keyOfCall({ kind: "info", name }), decodeMetadata, options);
  }

  datapointList(options?: CallOptions): Promise<ApiResult<MetadataRecord[]>> {
    return this.counted(options, this.listAnswer(options));
  }

  private async listAnswer(options?: CallOptions): Promise<ApiResult<MetadataRecord[]>> {
    return this.data(datapointListKey(), decodeMetadataList, options);
  }

  coverageList(type: string, options?: CallOptions): Promise<ApiResult<CoverageItem[]>> {
    return this.counted(options, this.coverageAnswer(type, options));
  }

  private async coverageAnswer(type: string, options?: CallOptions): Promise<ApiResult<CoverageItem[]>> {
    return this.data(keyOfCall({ kind: "coverage", type }), decodeCoverageList, options);
  }

  security(type: string, ticker: string, options?: CallOptions): Promise<ApiResult<SecurityRecord>> {
    return this.counted(options, this.securityAnswer(type, ticker, options));
  }

  /** A security call, not counted: a public call's coverage question or period search is part of that call. */
  private async securityAnswer(
    type: string,
    ticker: string,
    options?: CallOptions,
  ): Promise<ApiResult<SecurityRecord>> {
    const key = keyOfCall({ kind: "security", type, ticker });
    return this.data(key, (results) => decodeSecurity(results, key.subject!), options);
  }

  /** A sector or industry datapoint; CATEGORY_TYPE and MODEL_DATE stay text. */
  sector(req: SectorRequest, options?: CallOptions): Promise<SectorResult> {
    return this.counted(options, this.sectorAnswer(req, options));
  }

  private async sectorAnswer(req: SectorRequest, options?: CallOptions): Promise<SectorResult> {
    const { key, target: t } = sectorCall(req);
    const { data, ...meta } = await this.data<SectorRecord>(
      key,
      (results) => decodeSector(results, t.name, t.id),
      options,
    );
    return { ...meta, record: data, value: t.entry.text ? data.datavalue : toValue(data.datavalue) };
  }

  ratings(ticker: string, options?: CallOptions): Promise<ApiResult<RatingsRecord>> {
    return this.counted(options, this.ratingsAnswer(ticker, options));
  }

  private async ratingsAnswer(ticker: string, options?: CallOptions): Promise<ApiResult<RatingsRecord>> {
    const key = keyOfCall({ kind: "ratings", ticker });
    return this.data(key, (results) => decodeRatings(results, key.subject!), options);
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

  /**
   * Forgets today's answers of these requests (and of the whole datasets that would answer them, and the
   * coverage answer of a data ticker found not covered), so their next calls ask the service: the refresh of
   * some cells. Other answers stay.
   */
  forget(requests: readonly FdqRequest[]): void {
    const e = this.parts;
    const tickers = new Set<string>();
    const keys = requests.flatMap((r) => {
      const key = this.keyOf(r);
      if (key.fields.endpoint === "data") tickers.add(key.fields.ticker);
      const whole = wholeOf(key);
      return whole ? [key, whole] : [key];
    });
    // A ticker found not covered today is asked again too: refreshing its cells asks the service again.
    for (const ticker of tickers) {
      const coverage = coverageKeyOf(ticker);
      if (e?.cache.peek(coverage)?.kind === "missing") keys.push(coverage);
    }
    e?.cache.forget(keys);
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

  /** The latest-period search of these parts, asking through this client's own calls. */
  private resolver(e: ClientParts): PeriodResolver {
    if (this.resolverOf?.parts !== e) {
      const resolver = resolverFor(e, {
        datapoint: (r) => this.fixedDatapoint(r, false),
        dataset: (r) => this.fixedDataset(r, false),
        security: (type, ticker) => this.securityAnswer(type, ticker),
        uncovered: (ticker) => this.coverage.verdict(e, ticker),
      });
      this.resolverOf = { parts: e, resolver };
    }
    return this.resolverOf.resolver;
  }
}
