// What a refresh will cost, before it starts: the workbook's FDQ cells, the distinct requests they make,
// and how many of those the cache already answers.
import type { CellSnapshot } from "../office/workbook";
import { datapointRequestsOf, parseCell } from "./fdq-call";
import type { PaneClient } from "./pane-client";

export interface RefreshEstimate {
  /** FDQ cells found in the workbook. */
  readonly cells: number;
  /** Distinct requests of the cells that can be planned (cached or not). */
  readonly plannedRequests: number;
  /** Planned requests not in today's cache: what a calculation would send. */
  readonly requestsNeeded: number;
  /** Cells whose requests are all in today's cache. */
  readonly cachedCells: number;
  /** Cells of other FDQ functions: each costs at most one request, not planned ahead. */
  readonly otherCells: number;
  /** Cells whose formula or arguments are not valid; they make no request. */
  readonly invalidCells: number;
}

export function estimateRefresh(cells: readonly CellSnapshot[], client: PaneClient): RefreshEstimate {
  /** Request URL -> whether the cache answers every datapoint asked of it. */
  const keys = new Map<string, boolean>();
  let cachedCells = 0;
  let otherCells = 0;
  let invalidCells = 0;
  for (const cell of cells) {
    const parsed = parseCell(cell.formula);
    if (!parsed.ok) {
      invalidCells++;
      continue;
    }
    try {
      const requests = datapointRequestsOf(parsed.call);
      if (!requests) {
        otherCells++;
        continue;
      }
      const plans = requests.map((r) => client.planDatapoint(r));
      // Datapoints of a dataset with an all-datapoints mode share one request: count URLs, not datapoints.
      for (const plan of plans) keys.set(plan.url, (keys.get(plan.url) ?? true) && plan.cached);
      if (plans.every((p) => p.cached)) cachedCells++;
    } catch {
      invalidCells++;
    }
  }
  const requestsNeeded = [...keys.values()].filter((cached) => !cached).length;
  return {
    cells: cells.length,
    plannedRequests: keys.size,
    requestsNeeded,
    cachedCells,
    otherCells,
    invalidCells,
  };
}
