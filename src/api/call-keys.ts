// Which RequestKey a call names: the one decider. The client's reads (client.ts), its plans and its estimates
// all ask here, and nowhere else builds a call's key. A datapoint call may be answered by two requests, its
// own and its dataset's whole one (where the spec documents an all-datapoints mode): which one it asks
// depends on the billing model (src/api/planner.ts), today's cache and the requests already in flight.
import type { CacheValue } from "./cache-codec";
import type { BillingModel } from "./pricing";
import { RequestKey } from "./request-key";
import type { DatasetRequest, FdqRequest, SectorRequest } from "./types";
import {
  checkDatapointRequest,
  checkName,
  checkSecurityType,
  checkSectorRequest,
  checkTicker,
  checkWholeDatasetRequest,
  type DatapointTarget,
  type DatasetTarget,
  type SectorTarget,
} from "./validate";

export type DataKey = ReturnType<typeof RequestKey.data>;

/** The key of a dataset's whole answer, or with `name` of that datapoint's own. */
export function dataKey(t: DatasetTarget, name?: string): DataKey {
  return RequestKey.data(t.dataset, t.ticker, t.year, t.period, name);
}

/** The whole-dataset request that also answers a single-datapoint request, where the spec documents one. */
export function wholeOf(key: RequestKey): RequestKey | undefined {
  const f = key.fields;
  if (f.endpoint !== "data" || f.datapoint === undefined || !f.dataset.allDatapointsMode) return undefined;
  return RequestKey.data(f.dataset, f.ticker, f.year, f.period);
}

/**
 * The requests that can answer a datapoint call: its dataset's whole one where the spec documents one, and
 * its own (built only when asked: a cell served by a cached whole answer never needs it).
 */
export class DatapointKeys {
  readonly whole: DataKey | undefined;
  private own: DataKey | undefined;

  constructor(private readonly t: DatapointTarget) {
    this.whole = t.dataset.allDatapointsMode ? dataKey(t) : undefined;
  }

  get name(): string {
    return this.t.name;
  }

  get single(): DataKey {
    return (this.own ??= dataKey(this.t, this.t.name));
  }
}

export const datapointKeys = (t: DatapointTarget): DatapointKeys => new DatapointKeys(t);

/**
 * The key a datapoint call asks alone: under `per-request` billing the whole dataset where there is one
 * (one unit that fills the cache for the siblings a worksheet asks next); under `per-datapoint` its own (the
 * client then joins the names of one recalculation into the whole request when they are all of it).
 */
export function aloneKey(keys: DatapointKeys, billing: BillingModel): DataKey {
  return keys.whole && billing === "per-request" ? keys.whole : keys.single;
}

/** What the client knows now, for choosing a datapoint call's key. */
export interface DatapointLook {
  billing: BillingModel;
  /** The day's cached answer of `key`, if any (a remembered refusal throws). */
  cached(key: DataKey): CacheValue | undefined;
  /** Whether a request for `key` is scheduled or running today. */
  inFlight(key: DataKey): boolean;
  /** Per-datapoint billing: the calls of one recalculation gather; answers the key they settle on. */
  gather(name: string, whole: DataKey, single: DataKey): Promise<DataKey>;
}

/** The key a datapoint call reads, with its cached answer, or that it asks after the coalescing window. */
export interface DatapointChoice {
  key: DataKey;
  cached: CacheValue | undefined;
  /** The whole request is asked after the window (per-request billing), so siblings join it. */
  windowed: boolean;
}

/**
 * Which request answers a datapoint call now. A whole-dataset answer in the cache serves every datapoint of
 * it, whatever the billing; then its own cached answer; else the billing decides (aloneKey), and under
 * per-datapoint billing the recalculation's calls gather first unless the whole request is already in
 * flight (which they join). Answers without a promise whenever nothing is gathered, so a worksheet of
 * cached cells costs no extra promise per cell.
 */
export function chooseDatapointKey(
  keys: DatapointKeys,
  look: DatapointLook,
): DatapointChoice | Promise<DatapointChoice> {
  const whole = keys.whole;
  const wholeCached = whole && look.cached(whole);
  if (wholeCached) return { key: whole, cached: wholeCached, windowed: false };
  const single = keys.single;
  const own = look.cached(single);
  if (own || !whole) return { key: single, cached: own, windowed: false };
  if (look.billing === "per-request") return { key: whole, cached: undefined, windowed: true };
  if (look.inFlight(whole)) return { key: whole, cached: undefined, windowed: false };
  return look.gather(keys.name, whole, single).then((key) => {
    // A whole answer asked by another cell may have arrived during the window: it serves this one too.
    const arrived = key === whole ? undefined : look.cached(whole);
    return arrived
      ? { key: whole, cached: arrived, windowed: false }
      : { key, cached: undefined, windowed: false };
  });
}

/** A whole-dataset call's key, checked as the call checks it. */
export function datasetKey(request: DatasetRequest): DataKey {
  return dataKey(checkWholeDatasetRequest(request));
}

/** A sector call's key, with its checked target (whose catalog entry says whether the value is text). */
export function sectorCall(request: SectorRequest): { key: RequestKey; target: SectorTarget } {
  const target = checkSectorRequest(request);
  return { key: RequestKey.sector(target.id, target.name, target.priorYear), target };
}

/**
 * The key of the request a call's request makes alone, checked as the call checks it (throws its
 * InvalidArgumentError or DataPointNotFoundError).
 */
export function keyOfRequest(request: FdqRequest, billing: BillingModel): RequestKey {
  switch (request.kind) {
    case "datapoint":
      return aloneKey(datapointKeys(checkDatapointRequest(request.request)), billing);
    case "dataset":
      return datasetKey(request.request);
    case "sector":
      return sectorCall(request.request).key;
    default:
      return keyOfCall(request);
  }
}

/** The list of every datapoint's metadata (a call without arguments). */
export const datapointListKey = (): RequestKey => RequestKey.metadata();

/** The key of a call of the endpoints other than data and sector, checked as the call checks it. */
export function keyOfCall(
  request: Extract<FdqRequest, { kind: "ratings" | "coverage" | "security" | "info" }>,
): RequestKey {
  switch (request.kind) {
    case "ratings":
      return RequestKey.ratings(checkTicker(request.ticker));
    case "coverage":
      return RequestKey.coverage(checkSecurityType(request.type));
    case "security": {
      // The ticker is checked first, as FDQ.SECURITY always has (its error is the one a cell shows).
      const ticker = checkTicker(request.ticker);
      return RequestKey.security(checkSecurityType(request.type), ticker);
    }
    case "info":
      return RequestKey.metadata(checkName(request.name));
  }
}
