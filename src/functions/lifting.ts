// Excel's array lifting, for the places that must plan or compute a lifted call without Excel: the task
// pane's Estimate cost and Explain, and `fdq refresh`.
//
// Excel runs a function whose parameter is scalar once per cell of a range given to it, and spills the
// results (office-js-docs-pr#2238, ../shared/notes/office-platform.md). With several ranges the calls pair
// the ranges cell by cell, as Excel's array arithmetic does (=A1:A3+B1:B3): the result is as tall as the
// tallest range and as wide as the widest; a range of one row is repeated down it, a range of one column
// across it (so =FDQ.DATAPOINT(A2:A10,"roic","ROIC",B1:D1) is a 9 x 3 table); a cell that lies beyond a
// smaller range that cannot be repeated gets #N/A without a call. The office double lifts by the same rule
// (test/support/office-double/grid.js). Functions that already answer a table (DATASET, SERIES, COVERAGE)
// cannot be lifted: they refuse a range naming the argument (ranges.ts).
import { FUNCTION_SPECS, type FunctionName } from "./signatures";

export type Grid<T> = readonly (readonly T[])[];

/** An argument of a call to lift: one value, or the values of a range row by row. */
export type LiftArg<T> = { readonly value: T } | { readonly cells: Grid<T> };

/** Where a lifted cell's call has no argument: a cell beyond a smaller range (Excel shows #N/A). */
export const BEYOND_RANGE = Symbol("beyond a smaller range");

export interface Lifted<T> {
  readonly rows: number;
  readonly columns: number;
  /** Row by row, each cell's arguments, or BEYOND_RANGE. */
  readonly calls: Grid<readonly T[] | typeof BEYOND_RANGE>;
}

/** Whether Excel lifts the function over a range (its result fills one cell). */
export const isLiftable = (name: FunctionName): boolean => FUNCTION_SPECS[name].result === "scalar";

const widthOf = (grid: Grid<unknown>): number => grid.reduce((n, row) => Math.max(n, row.length), 0);

/** Whether an argument is a range of more than one cell (a 1x1 range is passed as its value). */
export function isMultiCell(grid: Grid<unknown>): boolean {
  return grid.length > 1 || widthOf(grid) > 1;
}

/** Element (r, c) of a range repeated to the lifted shape; undefined beyond it. */
function elementAt<T>(grid: Grid<T>, r: number, c: number): { value: T } | undefined {
  const row = grid.length === 1 ? grid[0] : grid[r];
  if (!row) return undefined;
  const index = row.length === 1 ? 0 : c;
  return index < row.length ? { value: row[index] as T } : undefined;
}

/** The calls of a lifted call, one per cell of the result, each with its own arguments. */
export function lift<T>(args: readonly LiftArg<T>[]): Lifted<T> {
  const ranges = args.flatMap((a) => ("cells" in a ? [a.cells] : []));
  const rows = Math.max(1, ...ranges.map((g) => g.length));
  const columns = Math.max(1, ...ranges.map(widthOf));
  const calls: (readonly T[] | typeof BEYOND_RANGE)[][] = [];
  for (let r = 0; r < rows; r++) {
    const line: (readonly T[] | typeof BEYOND_RANGE)[] = [];
    for (let c = 0; c < columns; c++) {
      const values: T[] = [];
      let beyond = false;
      for (const arg of args) {
        if ("value" in arg) {
          values.push(arg.value);
          continue;
        }
        const element = elementAt(arg.cells, r, c);
        if (element) values.push(element.value);
        else beyond = true;
      }
      line.push(beyond ? BEYOND_RANGE : values);
    }
    calls.push(line);
  }
  return { rows, columns, calls };
}
