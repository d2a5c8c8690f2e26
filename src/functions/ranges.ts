// Ranges given to the functions that spill (DATASET, SERIES, COVERAGE).
//
// Excel array-lifts a multi-cell range passed to a scalar parameter: it runs the function once per cell and
// spills the results (office-js-docs-pr#2238). That suits DATAPOINT, RATING, SECTOR, SECURITY and INFO,
// whose parameters stay scalar so Excel does the lifting. A function that already returns a matrix cannot
// be lifted (each cell would need a matrix of its own), so the spilling functions declare every parameter
// as a matrix (`T[][]` in functions.ts, "dimensionality": "matrix" in functions.json): Excel then hands
// them the range itself, a single cell or literal as a 1x1 matrix, and they answer #VALUE! naming the
// argument instead of Excel's bare error.
import { InvalidArgumentError } from "../api";

/** The cell count of a range as the message gives it: "3 cells (3 rows by 1 column)". */
function describeRange(rows: number, columns: number): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${rows * columns} cells (${plural(rows, "row")} by ${plural(columns, "column")})`;
}

/**
 * The one value of a matrix-declared argument: a 1x1 matrix gives its element, a value that is no array
 * (the CLI's parser, a scalar-declared build) is passed on, an empty matrix counts as omitted. A range of
 * several cells is refused before any request.
 */
export function singleCell(value: unknown, argument: string, fn: string): unknown {
  if (!Array.isArray(value)) return value;
  const rows = value as unknown[];
  const columns = rows.reduce<number>((n, row) => Math.max(n, Array.isArray(row) ? row.length : 1), 0);
  if (rows.length === 0 || columns === 0) return null;
  if (rows.length === 1 && columns === 1) {
    const row: unknown = rows[0];
    return Array.isArray(row) ? (row[0] as unknown) : row;
  }
  throw new InvalidArgumentError({
    argument,
    message:
      `${argument} must be one cell, not a range of ${describeRange(rows.length, columns)}: ` +
      `FDQ.${fn} spills a table of its own, so Excel cannot repeat it for each cell.`,
  });
}

/** Every argument through singleCell, in argument order, so the first range is the one named. */
export function singleCells<K extends string>(
  fn: string,
  args: Readonly<Record<K, unknown>>,
): Record<K, unknown> {
  const out = {} as Record<K, unknown>;
  for (const key of Object.keys(args) as K[]) out[key] = singleCell(args[key], key, fn);
  return out;
}
