// Writing results into the workbook (exceljs) as Excel stores them. A formula keeps its text (and, when it is
// part of a shared formula, its place in it) and gets the value as its cached result. A result of several cells
// is a dynamic array: the anchor is an array formula whose `ref` is the spill range, with its first value, and
// the other values are plain values in the range; dynamic-arrays.ts then marks the anchor as dynamic (cm="1"
// and metadata.xml), so Excel shows a spill and not a legacy {=...} array. The anchor's `ref` is also what
// remembers the range for the next refresh: no defined name is needed. A spill blocked by the user's data is
// stored as Excel stores it, a one-cell dynamic array holding #SPILL!, and nothing else is written.
import ExcelJS from "exceljs";
import { addressOfCell } from "./workbook/addresses";
import type { NamedRange } from "./workbook/cells";

export type Written = number | string | boolean | ExcelJS.CellErrorValue;

/** The names earlier versions of fdq kept spill ranges in: read once more, then removed. */
export const LEGACY_SPILL_NAME = "_FDQ_SPILL.";

interface FormulaModel {
  formula?: string;
  sharedFormula?: string;
  shareType?: string;
  ref?: string;
}

/** Sets a formula cell's cached result, keeping the formula as stored (shared and array formulas too). */
export function writeResult(cell: ExcelJS.Cell, result: Written, keepArray: boolean): void {
  const model = cell.model as FormulaModel;
  if (model.sharedFormula) {
    cell.value = { sharedFormula: model.sharedFormula, result } as ExcelJS.CellSharedFormulaValue;
  } else if (model.shareType === "shared" || (keepArray && model.shareType === "array")) {
    cell.value = {
      formula: model.formula,
      shareType: model.shareType,
      ref: model.ref,
      result,
    } as ExcelJS.CellFormulaValue;
  } else {
    cell.value = { formula: cell.formula, result } as ExcelJS.CellFormulaValue;
  }
}

/** Empties the cells of the previous spill (not the anchor, nor a formula the user has put there since). */
export function clearSpill(anchor: ExcelJS.Cell, previous: NamedRange): void {
  const sheet = anchor.worksheet;
  for (let row = previous.from.row; row <= previous.to.row; row++) {
    for (let col = previous.from.col; col <= previous.to.col; col++) {
      const cell = sheet.getCell(row, col);
      if (cell !== anchor && cell.type !== ExcelJS.ValueType.Formula) cell.value = null;
    }
  }
}

/**
 * Writes the result of an FDQ anchor as a dynamic array: `rows` when it spills, or #SPILL! when `rows` is
 * undefined (blocked).
 */
export function writeSpill(
  anchor: ExcelJS.Cell,
  rows: readonly (readonly Written[])[] | undefined,
  previous: NamedRange | undefined,
): void {
  const sheet = anchor.worksheet;
  const [row, col] = [Number(anchor.row), Number(anchor.col)];
  if (previous) clearSpill(anchor, previous);
  const formula = anchor.formula;
  if (rows === undefined) {
    const spill = { error: "#SPILL!" } as unknown as ExcelJS.CellErrorValue; // ExcelJS's type lacks #SPILL!
    anchor.value = {
      formula,
      result: spill,
      shareType: "array",
      ref: anchor.address,
    } as ExcelJS.CellFormulaValue;
    return;
  }
  const width = Math.max(1, ...rows.map((r) => r.length));
  rows.forEach((values, r) =>
    values.forEach((value, c) => {
      if (r > 0 || c > 0) sheet.getCell(row + r, col + c).value = value;
    }),
  );
  const ref = `${anchor.address}:${addressOfCell(row + rows.length - 1, col + width - 1)}`;
  anchor.value = { formula, result: rows[0]?.[0] ?? "", shareType: "array", ref } as ExcelJS.CellFormulaValue;
}
