// A reference of a formula as the cells the pane reads: "$A2" or "Sheet2!B$1:D$1" written relative to the
// formula's sheet, as sheet-qualified addresses row by row. Kept apart from fdq-call.ts, which decides
// what the cells mean to the call.
import type { CellRef } from "../../functions/formula";
import { cellAddress, parseAddress, type CellPosition } from "../office/a1";

/**
 * The most cells one lifted call may cover for the pane to plan it: a million-cell range would mean a
 * million reads and calls before Estimate could answer. Excel would still lift it; the pane says it cannot
 * plan it.
 */
export const MAX_LIFTED_CELLS = 100_000;

/** The sheet part of a sheet-qualified address, quoted as written ("'My Sheet'"). */
export function sheetPart(address: string): string {
  return address.slice(0, address.lastIndexOf("!"));
}

/** "A2", "Sheet2!A1:B3" as written, with the formula's own sheet where none is written. */
function qualified(ref: string, formulaCell: string): string {
  return ref.includes("!") ? ref : `${sheetPart(formulaCell)}!${ref}`;
}

/** A one-cell reference as a sheet-qualified address ("Sheet1!A2"). */
export function cellOf(ref: string, formulaCell: string): string {
  return cellAddress(parseAddress(qualified(ref, formulaCell)));
}

/**
 * The addresses of a reference's cells, row by row (one row of one cell for a cell reference). Corners
 * written in either order name the same rectangle, as in Excel (A10:A2 is A2:A10).
 */
export function cellsOf(arg: CellRef, formulaCell: string): string[][] {
  if (!arg.range) return [[cellOf(arg.ref, formulaCell)]];
  const full = qualified(arg.ref, formulaCell);
  const bang = full.lastIndexOf("!");
  const [first = "", second = ""] = full.slice(bang + 1).split(":");
  const a = parseAddress(`${full.slice(0, bang)}!${first}`);
  const b = parseAddress(`${full.slice(0, bang)}!${second}`);
  const top = Math.min(a.row, b.row);
  const left = Math.min(a.column, b.column);
  const rows = Math.abs(a.row - b.row) + 1;
  const columns = Math.abs(a.column - b.column) + 1;
  if (rows * columns > MAX_LIFTED_CELLS) {
    throw new Error(
      `${arg.ref} has ${(rows * columns).toLocaleString("en-US")} cells: the pane plans ranges of up to ` +
        `${MAX_LIFTED_CELLS.toLocaleString("en-US")} cells.`,
    );
  }
  const grid: string[][] = [];
  for (let r = 0; r < rows; r++) {
    const line: string[] = [];
    for (let c = 0; c < columns; c++)
      line.push(cellAddress({ sheet: a.sheet, row: top + r, column: left + c }));
    grid.push(line);
  }
  return grid;
}

/** The address `rows` down and `columns` right of a sheet-qualified address: a cell of a spill. */
export function offsetOf(address: string, rows: number, columns: number): string {
  const p: CellPosition = parseAddress(address);
  return cellAddress({ sheet: p.sheet, row: p.row + rows, column: p.column + columns });
}
