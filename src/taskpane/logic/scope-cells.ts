// What a refresh covers: the whole workbook (a full calculation, the one Excel way to re-run every custom
// function), the active sheet, the selection, only the FDQ cells in error, or only those whose value is from an
// older refresh day (stale: the rule of src/workbook/changes/refresh-scope.ts, `fdq refresh --only stale`'s too). The
// estimate prices the same cells the refresh would run.
import type { FdqApi } from "../../functions/impl";
import { evaluateAll } from "../../functions/evaluate";
import {
  FILTER_PHRASES,
  isStale,
  isTodaysAnswer,
  showsError,
  showsValue,
} from "../../workbook/changes/refresh-scope";
import { valueOfOutcome } from "../../workbook/refresh/fdq-functions";
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { cachedAnswers, cellRequests } from "./cell-requests";
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
  errors: FILTER_PHRASES.errors,
  stale: FILTER_PHRASES.stale,
};

export interface ScopeDeps {
  readonly workbook: Pick<
    WorkbookAccess,
    "fdqCells" | "selectedFdqCells" | "activeSheetFdqCells" | "cellValues"
  >;
  /** The plan says what today's cache answers; the answers give the value a current cell shows. */
  readonly client: Pick<PaneClient, "plan"> & FdqApi;
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
      return (await workbook.fdqCells()).filter((c) => showsError(c.value));
    case "stale":
      return staleCells(await workbook.fdqCells(), deps);
  }
}

/**
 * The stale cells of `cells`. A cell whose requests all have today's answer is compared with the value those
 * answers give when its formula is one call made once (the value Excel shows is that call's, a spill's first
 * value); a formula around a call, or a call lifted over a range, is stale by its answers' day only.
 */
async function staleCells(cells: readonly CellSnapshot[], deps: ScopeDeps): Promise<CellSnapshot[]> {
  const { client, today } = deps;
  const stale: CellSnapshot[] = [];
  for (const { cell, requests, onlyCall } of await cellRequests(cells, deps.workbook)) {
    const answers = cachedAnswers(requests, client);
    let showsTodaysValue: boolean | undefined;
    if (onlyCall && answers.every((a) => isTodaysAnswer(a, today))) {
      // Every request is answered by today's cache: evaluating the call sends nothing.
      const [outcome] = await evaluateAll(client, [onlyCall]);
      const value = outcome && valueOfOutcome(outcome);
      showsTodaysValue = showsValue(cell.value, Array.isArray(value) ? value[0]?.[0] : value);
    }
    if (isStale({ answers, showsTodaysValue }, today)) stale.push(cell);
  }
  return stale;
}
