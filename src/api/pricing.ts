// The price of a request in quota units, by the vendor's rule (wire-notes 11): one unit is one datapoint,
// for one security, for one period. A single-datapoint answer costs 1; an all-datapoints answer costs one
// unit per record it returns; a rating, sector or single-security call 1; coverage lists and metadata 1 per
// call unless configured otherwise. Accounts billed per HTTP call (`per-request`) pay 1 for any request.
import type { RequestKey } from "./request-key";

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
