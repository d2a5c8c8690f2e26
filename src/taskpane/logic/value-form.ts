// After "Numbers carry their source" changes, the FDQ cells must be calculated again to take the new form. Their
// values fetched today come from the day cache, so a full calculation (the only kind that re-runs custom
// functions, one call to Excel) then sends nothing. A cell whose request is not in today's cache would be
// fetched: spending units is a refresh's decision, priced and confirmed there, so then nothing is calculated and
// the cells take the new form at the next refresh.
import type { WorkbookAccess } from "../office/workbook";
import type { PaneClient } from "./pane-client";
import { estimateRefresh } from "./refresh-estimate";

export interface ValueFormDeps {
  /** The shared client once ready; undefined while no key is saved. */
  readonly client: PaneClient | undefined;
  readonly workbook: Pick<WorkbookAccess, "fdqCells" | "cellValues" | "calculateFull">;
}

/** Calculates the FDQ cells again when that costs no request; answers what happened, in a sentence. */
export async function recalculateForm(
  { client, workbook }: ValueFormDeps,
  withSource: boolean,
): Promise<string> {
  const form = withSource ? "numbers with their source" : "plain numbers";
  if (!client) return `Saved. FDQ cells return ${form} once the pane is connected and they are calculated.`;
  const cells = await workbook.fdqCells();
  if (cells.length === 0) return `Saved. FDQ cells will return ${form}.`;
  const estimate = await estimateRefresh(cells, { client, workbook });
  const needed = estimate.requestsNeeded + estimate.otherRequests;
  if (needed > 0) {
    const requests = needed === 1 ? "1 of their requests is" : `${needed} of their requests are`;
    return `Saved. FDQ cells return ${form} at the next refresh: ${requests} not in today's cache, so calculating them now would spend units.`;
  }
  await workbook.calculateFull();
  const n = cells.length;
  return `Saved. Excel calculated ${n} FDQ ${n === 1 ? "cell" : "cells"} again to return ${form}, from today's cache (no request).`;
}
