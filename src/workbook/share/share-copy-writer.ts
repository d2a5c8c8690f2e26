// The package step of "Share as values" (the ShareCopyWriter of src/workbook/share/fdq-sources.ts), host-neutral so
// the task pane can hand it the bytes of Office's getFileAsync: the FDQ cells asked for become their values with
// their formulas kept in the frozen-formulas part (src/workbook/freeze/freeze.ts), and the "FDQ sources" sheet is added
// (src/workbook/share/sources-sheet.ts); every other part is copied byte for byte. `fdq freeze --share` does the same.
import { sourcesSheetName, type ShareCopyRequest, type ShareCopyWriter } from "./fdq-sources";
import { freezePackage } from "../freeze/freeze";
import { sheetKey } from "../model";
import { addSourcesSheet } from "./sources-sheet";
import { openPackage } from "../xlsx/package";
import { readWorkbook } from "../xlsx/read-model";

export function writeShareCopy(request: ShareCopyRequest, now = new Date()): Uint8Array {
  const pkg = openPackage(request.bytes);
  const { model } = readWorkbook(pkg);
  const wanted = new Set(request.cells.map((c) => `${sheetKey(c.sheet)}!${c.cell.toUpperCase()}`));
  const { editor } = freezePackage(pkg, model, {
    now,
    only: (sheet, cell) => wanted.has(`${sheetKey(sheet)}!${cell}`),
  });
  const taken = pkg.sheets.map((s) => s.name);
  const name = taken.some((t) => sheetKey(t) === sheetKey(request.sourcesSheet.name))
    ? sourcesSheetName(taken)
    : request.sourcesSheet.name;
  addSourcesSheet(editor, name, request.sourcesSheet.rows);
  return editor.write();
}

export const packageShareWriter: ShareCopyWriter = {
  writeShareCopy: (request) => Promise.resolve().then(() => writeShareCopy(request)),
};
