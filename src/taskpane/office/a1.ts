// A1 addresses as Excel's JavaScript API writes them ("Sheet1!B2:C4", "'My sheet'!A1").
import { columnLetters, columnNumber } from "../../formula/grid";

export interface CellPosition {
  readonly sheet: string;
  readonly row: number;
  readonly column: number;
}

/** Column letters of a 0-based column index (Office.js counts from 0, the A1 grid from 1). */
const columnName = (column: number): string => columnLetters(column + 1);

/** The 0-based column index of "AB". */
const columnIndex = (letters: string): number => columnNumber(letters) - 1;

export function quoteSheetName(sheet: string): string {
  return /^[A-Za-z0-9_]+$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
}

/** "Sheet1!B2" for row 1, column 1 of Sheet1 (0-based). */
export function cellAddress(position: CellPosition): string {
  return `${quoteSheetName(position.sheet)}!${columnName(position.column)}${position.row + 1}`;
}

/** The sheet and first cell of an address with a sheet name ("Sheet1!B2:C4" -> Sheet1, B2). */
export function parseAddress(address: string): CellPosition & { readonly cell: string } {
  const bang = address.lastIndexOf("!");
  if (bang < 0) throw new Error(`Not a sheet-qualified address: ${address}`);
  const sheet = address
    .slice(0, bang)
    .replace(/^'(.*)'$/, "$1")
    .replace(/''/g, "'");
  const ref = address.slice(bang + 1).split(":")[0] ?? "";
  const match = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref);
  if (!match?.[1] || !match[2]) throw new Error(`Not a cell address: ${address}`);
  return { sheet, row: Number(match[2]) - 1, column: columnIndex(match[1]), cell: ref.replace(/\$/g, "") };
}
