// The price of a request in quota units, by the vendor's rule (production-service.md, fact 11): one unit is one datapoint,
// for one security, for one period. A single-datapoint answer costs 1; an all-datapoints answer costs one
// unit per record it returns; a rating, sector or single-security call 1; coverage lists and metadata 1 per
// call unless configured otherwise. Accounts billed per HTTP call (`per-request`) pay 1 for any request.
// pricedRequest: what a relay may send, each priced (the spec's requests and ratings/overall).
import { RequestKey } from "./request-key";

export type BillingModel = "per-datapoint" | "per-request";

export interface PricingOptions {
  billing: BillingModel;
  /** Units of a coverage list or metadata call (not documented by the vendor; default 1). */
  listUnits: number;
}

export const DEFAULT_PRICING: PricingOptions = { billing: "per-datapoint", listUnits: 1 };

/**
 * Units the answer of `key` costs. `records` is the number of records a data answer returned; before the
 * answer is known it is estimated by the catalog's size of the dataset (what a whole answer usually holds).
 */
export function priceOf(key: RequestKey, pricing: PricingOptions, records?: number): number {
  if (pricing.billing === "per-request") return 1;
  const f = key.fields;
  switch (f.endpoint) {
    case "data":
      if (f.datapoint !== undefined) return 1;
      return records ?? Math.max(1, f.dataset.datapoints.length);
    case "coverage":
    case "metadata":
      return pricing.listUnits;
    default:
      return 1;
  }
}

/**
 * A request a relay (the gateway) may send, with its price: every request of the spec (RequestKey), and
 * the one request production serves beyond it, `ratings/overall/:ticker` (production-service.md, fact 16), billed like a
 * rating (1 unit) and counted in the ledger's ratings group. Anything else is no request of the service:
 * a relay answers it 404 itself and sends nothing, so no path goes upstream unpriced.
 */
export interface PricedRequest {
  /** The canonical path after the base URL (the store's and the in-flight map's id, too). */
  readonly path: string;
  /** The request the ledger counts the units under (its group). */
  readonly key: RequestKey;
  /** Units the answer costs, by the records a data answer returned. */
  units(records?: number): number;
}

const OVERALL = /^\/*ratings\/overall\/([^/?#]+)$/;
const TICKER = /^[A-Z0-9][A-Z0-9.:_-]{0,31}$/;

export function pricedRequest(tail: string, pricing: PricingOptions): PricedRequest | undefined {
  const key = RequestKey.parse(tail);
  if (key) return { path: key.path, key, units: (records) => priceOf(key, pricing, records) };
  const overall = OVERALL.exec(tail);
  if (!overall) return undefined;
  let ticker: string;
  try {
    ticker = decodeURIComponent(overall[1]!).trim().toUpperCase();
  } catch {
    return undefined;
  }
  if (!TICKER.test(ticker)) return undefined;
  const rating = RequestKey.ratings(ticker);
  return {
    path: `ratings/overall/${encodeURIComponent(ticker)}`,
    key: rating,
    units: () => priceOf(rating, pricing),
  };
}
