// The request planner's rules: which requests a set of calls makes under a billing model, and what they
// cost. Under `per-datapoint` billing (the vendor's unit) cells that ask k names of a dataset of N get k
// single-datapoint requests; a whole-dataset request only when the cells ask every name of it (the same
// units, one request) or FDQ.DATASET asks the whole. Under `per-request` billing a whole dataset costs one
// unit, so every datapoint call of a dataset with an all-datapoints mode asks the whole (the fast plan).
import type { Dataset } from "../catalog";
import { priceOf, type PricingOptions } from "./pricing";
import type { RequestKey } from "./request-key";

/** Whether `names` are every datapoint of a dataset whose catalog the spec gives whole. */
export function asksWholeDataset(dataset: Dataset, names: ReadonlySet<string>): boolean {
  return (
    !dataset.notShown && dataset.datapoints.length > 0 && dataset.datapoints.every((d) => names.has(d.name))
  );
}

export interface PlannedRequest {
  key: RequestKey;
  units: number;
  cached: boolean;
  /**
   * A data request sent only if the day's coverage list, asked first (not in today's cache), lists its ticker:
   * for a ticker the list does not list, the cell fails after the list and this request is never sent.
   */
  ifListed?: boolean;
}

/** Requests and units of an estimate. */
export interface Cost {
  requests: number;
  units: number;
}

/**
 * The part of an estimate's needed requests and units that the day's coverage list decides: the data requests
 * (and latest-period searches) of tickers whose coverage is not known today. The list is asked before them,
 * and a ticker it does not list sends none of them, so the estimate's figures are what a refresh spends when
 * every such ticker is covered: at most that, and at least that minus this part.
 */
export interface ListCondition extends Cost {
  /** The same, by ticker whose coverage the list will tell. */
  byTicker: Readonly<Record<string, Cost>>;
}

/** What finding the latest periods of relative calls (FY0, FQ0, LTM) adds before their own requests. */
export interface ResolutionCost {
  /** Tickers and period kinds whose latest period is not known today. */
  searches: number;
  /** Requests the searches are expected to send: empty answers above the latest, and any answer of their own. */
  requests: number;
  /** Units: an empty answer costs none; the latest period's answer only when no call asks it anyway. */
  units: number;
}

export interface RequestEstimate {
  /** Distinct requests the calls make (cached or not). */
  requests: number;
  /** Of those, the ones today's cache does not answer: what a calculation sends. */
  requestsNeeded: number;
  /** Units the needed requests cost (whole datasets priced at their catalog size). */
  units: number;
  planned: readonly PlannedRequest[];
  /** The search for the latest periods of relative calls, counted in the figures above. */
  resolution?: ResolutionCost;
  /**
   * Present while the day's coverage list is needed and some tickers' coverage is not known today: the part of
   * `requestsNeeded` and `units` spent only for the tickers the list lists. `units` is then an upper bound
   * ("at most"), reached when every ticker is covered; exact when this is absent.
   */
  ifListed?: ListCondition;
}

/** An estimate with the search for the latest periods added to its figures. */
export function withResolution(estimate: RequestEstimate, cost: ResolutionCost): RequestEstimate {
  if (cost.searches === 0) return estimate;
  return {
    ...estimate,
    requests: estimate.requests + cost.requests,
    requestsNeeded: estimate.requestsNeeded + cost.requests,
    units: estimate.units + cost.units,
    resolution: cost,
  };
}

/**
 * `estimate` with the part the day's coverage list decides: the requests not cached of the tickers in `told`
 * (whose coverage the list, asked first, will tell), each ticker's from its latest-period searches (`told`'s
 * costs) and its own requests; absent when no ticker waits on the list.
 */
export function withListCondition(
  estimate: RequestEstimate,
  told: ReadonlyMap<string, Cost>,
  tickerOf: (key: RequestKey) => string | undefined,
): RequestEstimate {
  if (told.size === 0) return estimate;
  const byTicker: Record<string, Cost> = {};
  for (const [ticker, search] of told) byTicker[ticker] = { ...search };
  const planned = estimate.planned.map((r) => {
    const ticker = tickerOf(r.key);
    const cost = !r.cached && ticker !== undefined ? byTicker[ticker] : undefined;
    if (!cost) return r;
    cost.requests++;
    cost.units += r.units;
    return { ...r, ifListed: true };
  });
  const costs = Object.values(byTicker);
  return {
    ...estimate,
    planned,
    ifListed: {
      requests: costs.reduce((n, c) => n + c.requests, 0),
      units: costs.reduce((n, c) => n + c.units, 0),
      byTicker,
    },
  };
}

/**
 * The distinct requests of `keys` (as the client's `keyOf` names them) after the per-datapoint grouping
 * rule, each priced and marked cached by `isCached`.
 */
export function estimateRequests(
  keys: readonly RequestKey[],
  pricing: PricingOptions,
  isCached: (key: RequestKey) => boolean,
  wholeOf: (key: RequestKey) => RequestKey | undefined,
): RequestEstimate {
  const distinct = new Map<string, RequestKey>();
  for (const key of keys) distinct.set(key.serialize(), key);
  // Single datapoints of one dataset, ticker and period: one whole request when they ask every name.
  const groups = new Map<string, { whole: RequestKey; singles: RequestKey[] }>();
  for (const key of distinct.values()) {
    const whole = wholeOf(key);
    if (!whole) continue;
    const group = groups.get(whole.serialize()) ?? { whole, singles: [] };
    group.singles.push(key);
    groups.set(whole.serialize(), group);
  }
  for (const { whole, singles } of groups.values()) {
    const f = whole.fields;
    if (f.endpoint !== "data") continue;
    const names = new Set(
      singles.map((k) => (k.fields.endpoint === "data" ? (k.fields.datapoint ?? "") : "")),
    );
    // The whole answer serves them all when they ask every name, when it is cached, or when another call
    // (FDQ.DATASET) asks it anyway.
    if (!asksWholeDataset(f.dataset, names) && !isCached(whole) && !distinct.has(whole.serialize())) continue;
    for (const k of singles) distinct.delete(k.serialize());
    distinct.set(whole.serialize(), whole);
  }
  const planned = [...distinct.values()].map((key) => ({
    key,
    units: priceOf(key, pricing),
    cached: isCached(key) || (wholeOf(key) !== undefined && isCached(wholeOf(key)!)),
  }));
  const needed = planned.filter((p) => !p.cached);
  return {
    requests: planned.length,
    requestsNeeded: needed.length,
    units: needed.reduce((n, p) => n + p.units, 0),
    planned,
  };
}
