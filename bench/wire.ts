// The baselines' requests, built the way the vendor's sample scripts build them (wire-notes.md items
// 7 and 10): one GET per ticker x datapoint x period with the key and JSON headers.
import type { BoundRequest } from "./lower-bound";
import type { CellFetch, Period } from "./workloads";

function periodQuery(period: Period): string {
  let query = `year=${period.year}`;
  if (period.quarter !== undefined) query += `&quarter=${period.quarter}`;
  if (period.ttm !== undefined) query += `&ttm=${period.ttm}`;
  return query;
}

/** The single-datapoint (or single-security) request for one cell. */
export function cellUrl(baseUrl: string, cell: CellFetch): string {
  const ticker = encodeURIComponent(cell.ticker);
  if (cell.kind === "rating") return `${baseUrl}/ratings/component/${ticker}`;
  const datapoint = `datapoint=${encodeURIComponent(cell.name)}&`;
  return `${baseUrl}/${cell.dataset.path}/${ticker}?${datapoint}${periodQuery(cell.period)}`;
}

/** A lower-bound request: all-datapoints mode when it answers several cells of one dataset. */
export function boundUrl(baseUrl: string, request: BoundRequest): string {
  const { cell } = request;
  if (cell.kind === "rating" || request.names.length <= 1) return cellUrl(baseUrl, cell);
  return `${baseUrl}/${cell.dataset.path}/${encodeURIComponent(cell.ticker)}?${periodQuery(cell.period)}`;
}

export function requestHeaders(apiKey: string): Record<string, string> {
  return { "x-api-key": apiKey, accept: "application/json", "content-type": "application/json" };
}
