// What a refresh covers: the whole workbook (a full calculation, the one Excel way to re-run every custom
// function), the active sheet, the selection, only the FDQ cells in error, or only those whose value is from an
// older refresh day. The estimate prices the same cells the refresh would run.
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { isStale } from "../../workbook/refresh/staleness";
import { cachedAnswers, cellRequests, type CellRequests } from "./cell-requests";
import { isErrorValue } from "./excel-error";
import type { PaneClient } from "./pane-client";

export type RefreshScope = "workbook" | "sheet" | "selection" | "errors" | "stale";

export const REFRESH_SCOPES: readonly RefreshScope[] = ["workbook", "sheet", "selection", "errors", "stale"];

/** How the scope reads in the pane ("Refresh: ..."). */
export const SCOPE_LABELS: Readonly<Record<RefreshScope, string>> = {
  workbook: "The whole workbook",
  sheet: "The active sheet",
  selection: "The selection",
  errors: "Only cells in error",
  stale: "Only cells from an older refresh day",
};

/** The scope in a sentence's middle: "Refreshed 4 FDQ cells of the active sheet". */
export const SCOPE_PHRASES: Readonly<Record<RefreshScope, string>> = {
  workbook: "",
  sheet: " of the active sheet",
  selection: " of the selection",
  errors: " in error",
  stale: " from an older refresh day",
};

export interface ScopeDeps {
  readonly workbook: Pick<
    WorkbookAccess,
    "fdqCells" | "selectedFdqCells" | "activeSheetFdqCells" | "cellValues"
  >;
  readonly client: Pick<PaneClient, "plan">;
  /** Today's refresh day: an answer fetched earlier is from an older day. */
  readonly today: string;
}

/** The FDQ cells a refresh of `scope` runs, with their values now. */
export async function scopeCells(scope: RefreshScope, deps: ScopeDeps): Promise<CellSnapshot[]> {
  const { workbook } = deps;
  switch (scope) {
    case "workbook":
      return workbook.fdqCells();
    case "sheet":
      return workbook.activeSheetFdqCells();
    case "selection":
      return workbook.selectedFdqCells();
    case "errors":
      return (await workbook.fdqCells()).filter((c) => isErrorValue(c.value));
    case "stale":
      return (await staleCells(await workbook.fdqCells(), deps)).map((c) => c.cell);
  }
}

async function staleCells(cells: readonly CellSnapshot[], deps: ScopeDeps): Promise<CellRequests[]> {
  return (await cellRequests(cells, deps.workbook)).filter((c) =>
    // The pane reads each request's cached answer; it does not compare the value a cell shows (not compared:
    // stale only by the answers' day).
    isStale({ answers: cachedAnswers(c.requests, deps.client) }, deps.today),
  );
}
