// What a refresh will cost, before it starts: the workbook's FDQ cells, the distinct requests they make, and
// how many of those the cache already answers. Calls are resolved (cell references read) and run through the
// functions' own argument handling, so the count is that of the requests the cells really make.
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { requestsOf } from "./call-requests";
import { resolveCells } from "./fdq-call";
import { messageOf } from "./message";
import type { PaneClient } from "./pane-client";

export interface UnplannedCell {
  readonly address: string;
  readonly reason: string;
}

export interface RefreshEstimate {
  /** FDQ cells found in the workbook. */
  readonly cells: number;
  /** Distinct datapoint and dataset requests of the cells (cached or not). */
  readonly plannedRequests: number;
  /** Planned requests not in today's cache: what a calculation would send. */
  readonly requestsNeeded: number;
  /** Cells whose requests are all planned and in today's cache. */
  readonly cachedCells: number;
  /**
   * Distinct requests of ratings, sector, coverage, security and info calls not in today's cache: an upper
   * bound, since FDQ.SECURITY without a type counts each type it may try and stops at the first found.
   */
  readonly otherRequests: number;
  /** Cells with an FDQ call that cannot be planned, each with the reason (they make no request). */
  readonly unplanned: readonly UnplannedCell[];
}

export interface EstimateDeps {
  readonly client: PaneClient;
  readonly workbook: Pick<WorkbookAccess, "cellValues">;
}

export async function estimateRefresh(
  cells: readonly CellSnapshot[],
  { client, workbook }: EstimateDeps,
): Promise<RefreshEstimate> {
  /** Request URL -> whether the cache answers it. */
  const urls = new Map<string, boolean>();
  const other = new Set<string>();
  const unplanned: UnplannedCell[] = [];
  let cachedCells = 0;
  for (const { cell, calls } of await resolveCells(cells, workbook)) {
    let cached = true;
    try {
      for (const call of calls) {
        if (!call.ok) throw new Error(call.reason);
        for (const request of await requestsOf(call.call)) {
          const plan = client.plan(request);
          cached &&= plan.cached;
          if (plan.key.endpoint !== "data") {
            if (!plan.cached) other.add(plan.key.serialize());
            continue;
          }
          // Datapoints of a dataset with an all-datapoints mode share one request: count URLs, not datapoints.
          urls.set(plan.url, (urls.get(plan.url) ?? true) && plan.cached);
        }
      }
      if (cached) cachedCells++;
    } catch (err) {
      unplanned.push({ address: cell.address, reason: messageOf(err) });
    }
  }
  return {
    cells: cells.length,
    plannedRequests: urls.size,
    requestsNeeded: [...urls.values()].filter((isCached) => !isCached).length,
    cachedCells,
    otherRequests: other.size,
    unplanned,
  };
}
