// "Share as values" in the pane: a copy of the workbook for a colleague without the add-in. The pane reads
// every FDQ cell and what makes it traceable (period, refresh day, the request without the key), takes the
// workbook's file from Office, has the package writer turn the FDQ cells into values and add the sheet
// "FDQ sources", and hands the copy to the user ("<name> (values).xlsx": a download on the web, a new workbook
// on the desktop: src/taskpane/office/share-file.ts). The open workbook is not changed. The package step
// (src/workbook's patcher, which keeps every other part byte for byte) is a ShareCopyWriter handed in.
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { parseAddress } from "../office/a1";
import { reportValue } from "../../workbook/changes/changes";
import {
  SOURCES_SHEET,
  sourcesRows,
  type ShareCopyWriter,
  type SourcedCell,
  type SourcesCell,
} from "../../workbook/share/fdq-sources";
import { cellRequests, sourceOf } from "./cell-requests";
import type { PaneClient } from "./pane-client";
import type { CopyHandOff } from "../office/share-file";

export interface SharePlan {
  readonly cells: readonly SourcedCell[];
  readonly rows: readonly (readonly SourcesCell[])[];
}

/** Every FDQ cell of the workbook with its source; without a client, without periods' refresh days and sources. */
export async function planShare(
  workbook: Pick<WorkbookAccess, "fdqCells" | "cellValues">,
  client: Pick<PaneClient, "plan"> | undefined,
): Promise<SharePlan> {
  const snapshots: CellSnapshot[] = await workbook.fdqCells();
  const cells = (await cellRequests(snapshots, workbook)).map(({ cell, requests }): SourcedCell => {
    const { sheet, cell: at } = parseAddress(cell.address);
    const source = client ? sourceOf(requests, client) : {};
    return { sheet, cell: at, formula: cell.formula, value: reportValue(cell.value), ...source };
  });
  return { cells, rows: sourcesRows(cells) };
}

/**
 * The copy's file name: the workbook's, from its URL (decoded, extension kept: .xlsm stays .xlsm), with
 * " (values)"; "Workbook (values).xlsx" for a workbook not saved yet.
 */
export function copyName(url: string | undefined): string {
  const last = (url ?? "").split(/[?#]/)[0]?.split(/[/\\]/).pop() ?? "";
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A name that is not valid percent-encoding is used as it is.
  }
  const match = /^(.+?)\.(xlsx|xlsm)$/i.exec(name);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name may not hold
  const stem = (match?.[1] ?? name).replace(/[<>:"/\\|?*\u0000-\u001f]/g, "_").trim();
  return `${stem || "Workbook"} (values).${match?.[2]?.toLowerCase() ?? "xlsx"}`;
}

/** Builds the copy of `plan` from the workbook's file and hands it to the user as `fileName`. */
export async function shareAsValues(
  plan: SharePlan,
  workbook: Pick<WorkbookAccess, "fileBytes" | "openCopy">,
  writer: ShareCopyWriter,
  fileName = "Workbook (values).xlsx",
): Promise<CopyHandOff | void> {
  const bytes = await workbook.fileBytes();
  const copy = await writer.writeShareCopy({
    bytes,
    cells: plan.cells,
    sourcesSheet: { name: SOURCES_SHEET, rows: plan.rows },
  });
  return workbook.openCopy(copy, fileName);
}
