// What the refresh changes in the file, cell by cell, from the recalculation's results: the cached value of
// each recalculated formula; for a result that spills, the anchor's array `ref` and the values of the cells it
// spills into; for a dynamic array whose spill shrank, moved or was blocked, the cells of its old spill emptied
// (never a formula, never a cell another spill of this run now covers). Skipped cells are not written at all.
import { addressOfCell, rectOf } from "../engine/references";
import type { CellWrite, CellWrites } from "../xlsx/patch";
import { ExcelError, sheetKey, type FormulaCell, type WorkbookModel } from "../model";
import type { CellResult } from "./recalculation";

const isFormulaCell = (v: unknown): v is FormulaCell =>
  typeof v === "object" && v !== null && "formula" in v && "sheet" in v;

export function writesOf(results: readonly CellResult[], model: WorkbookModel): CellWrites {
  const sheets = new Map(model.sheets.map((s) => [sheetKey(s.name), s]));
  const writes: CellWrites = new Map();
  const clears: { sheet: string; row: number; col: number }[] = [];
  const put = (sheet: string, row: number, col: number, write: CellWrite): void => {
    let rows = writes.get(sheet);
    if (!rows) writes.set(sheet, (rows = new Map()));
    let cols = rows.get(row);
    if (!cols) rows.set(row, (cols = new Map()));
    cols.set(col, write);
  };
  for (const result of results) {
    if (result.kind !== "value") continue;
    const { cell, spill } = result;
    const previous = cell.array?.dynamic ? rectOf(cell.sheet, cell.array.ref) : undefined;
    const anchorOnly = addressOfCell(cell.row, cell.col);
    if (spill) {
      // A formula that spills (or is blocked from spilling) for the first time becomes a dynamic array.
      const newDynamicArray = cell.array === undefined;
      put(cell.sheet, cell.row, cell.col, {
        value: spill.rows ? result.value : new ExcelError("#SPILL!"),
        formula: true,
        arrayRef: spill.ref,
        ...(newDynamicArray ? { newDynamicArray } : {}),
      });
      spill.rows?.forEach((values, r) =>
        values.forEach((value, c) => {
          if (r > 0 || c > 0) put(cell.sheet, cell.row + r, cell.col + c, { value, formula: false });
        }),
      );
    } else {
      const shrinks =
        previous !== undefined && (previous.bottom > previous.top || previous.right > previous.left);
      put(cell.sheet, cell.row, cell.col, {
        value: result.value,
        formula: true,
        ...(shrinks ? { arrayRef: anchorOnly } : {}),
      });
    }
    if (!previous) continue;
    for (let row = previous.top; row <= previous.bottom; row++) {
      for (let col = previous.left; col <= previous.right; col++) {
        if (row !== cell.row || col !== cell.col) clears.push({ sheet: cell.sheet, row, col });
      }
    }
  }
  // An old spill's cell is emptied unless this run writes it (another spill) or it holds a formula.
  for (const { sheet, row, col } of clears) {
    if (writes.get(sheet)?.get(row)?.has(col)) continue;
    const held = sheets.get(sheetKey(sheet))?.rows.get(row)?.get(col);
    if (held === undefined || isFormulaCell(held)) continue;
    put(sheet, row, col, { value: undefined, formula: false });
  }
  return writes;
}
