// The baselines' requests, built the way the vendor's sample scripts build them (wire-notes.md items
// 7 and 10): one GET per ticker x datapoint x period with the key and JSON headers.
import { RequestKey } from "../src/api";
import { period } from "../src/catalog";
import type { BoundRequest } from "./lower-bound";
import type { CellFetch } from "./workloads";

/** The request key of a datapoint cell: one datapoint, or the whole dataset when `whole`. */
function dataKey(cell: Extract<CellFetch, { kind: "datapoint" }>, whole: boolean): RequestKey {
  const { year, quarter, ttm } = cell.period;
  const p =
    quarter !== undefined
      ? period("quarter", quarter)
      : ttm !== undefined
        ? period("ttm", ttm)
        : period("annual");
  return RequestKey.data(
    cell.dataset,
    cell.ticker.toUpperCase(),
    year,
    p,
    whole ? undefined : cell.name.toUpperCase(),
  );
}

/** The single-datapoint (or single-security) request for one cell. */
export function cellUrl(baseUrl: string, cell: CellFetch): string {
  if (cell.kind === "rating") return RequestKey.ratings(cell.ticker.toUpperCase()).url(baseUrl);
  return dataKey(cell, false).url(baseUrl);
}

/** A lower-bound request: all-datapoints mode when it answers several cells of one dataset. */
export function boundUrl(baseUrl: string, request: BoundRequest): string {
  const { cell } = request;
  if (cell.kind === "rating" || request.names.length <= 1) return cellUrl(baseUrl, cell);
  return dataKey(cell, true).url(baseUrl);
}

export function requestHeaders(apiKey: string): Record<string, string> {
  return { "x-api-key": apiKey, accept: "application/json", "content-type": "application/json" };
}
