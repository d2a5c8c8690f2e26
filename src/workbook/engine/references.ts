// A1 addresses: cells and rectangles, for the engine, the report and the spill layout (the grid's bounds and
// column letters are the formula layer's: src/formula/grid.ts). Rows and columns are 1-based, as in A1 notation.
import { MAX_COL, MAX_ROW, columnLetters, columnNumber } from "../../formula/grid";

export { MAX_COL, MAX_ROW, columnLetters, columnNumber } from "../../formula/grid";

export interface Rect {
  readonly sheet: string;
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

/** "B3". */
export const addressOfCell = (row: number, col: number): string => `${columnLetters(col)}${row}`;

/** "Model!B3", as the report names a cell. */
export const addressOf = (cell: {
  readonly sheet: string;
  readonly row: number;
  readonly col: number;
}): string => `${cell.sheet}!${addressOfCell(cell.row, cell.col)}`;

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d+)$/;

/** "A1" or "$B$2" as row and column. */
export function cellPosition(address: string): { row: number; col: number } | undefined {
  const m = CELL.exec(address.trim());
  if (!m) return undefined;
  const row = Number(m[2]);
  const col = columnNumber(m[1] as string);
  return row >= 1 && row <= MAX_ROW && col >= 1 && col <= MAX_COL ? { row, col } : undefined;
}

/** "B2:D4" (or "B2") on `sheet` as a rectangle. */
export function rectOf(sheet: string, ref: string): Rect | undefined {
  const [first, last = first] = ref.split(":");
  const from = cellPosition(first ?? "");
  const to = cellPosition(last ?? "");
  if (!from || !to) return undefined;
  return {
    sheet,
    top: Math.min(from.row, to.row),
    left: Math.min(from.col, to.col),
    bottom: Math.max(from.row, to.row),
    right: Math.max(from.col, to.col),
  };
}

/** "B2:D4", or "B2" for one cell. */
export function refOf(rect: Omit<Rect, "sheet">): string {
  const first = addressOfCell(rect.top, rect.left);
  return rect.top === rect.bottom && rect.left === rect.right
    ? first
    : `${first}:${addressOfCell(rect.bottom, rect.right)}`;
}
