// What a function sees while it runs: where the formula is, whether it is evaluated as an array formula, and
// the host (the recalculation) that answers cells, names, tables and FDQ calls. Split from the evaluator so
// the function modules need not import it (no import circles).
import { ExcelError, type Scalar, type Table } from "../model";
import type { Node } from "../../formula/parser";
import { MAX_COL, MAX_ROW, type Rect } from "./references";
import { Arr, Ref, VALUE, type Value } from "./values";

export interface Host {
  /** A cell's value. May throw (a precedent to evaluate first): never catch what it throws. */
  cell(sheet: string, row: number, col: number): Scalar;
  /** The sheet's name as the workbook writes it, or undefined when there is no such sheet. */
  sheetName(sheet: string): string | undefined;
  /** The last row and column holding anything on the sheet (spills of this run included). */
  extent(sheet: string): { rows: number; cols: number };
  /** A defined name's formula text: a sheet-scoped name of `sheet` first, then the workbook's. */
  name(name: string, sheet: string): string | undefined;
  table(name: string): Table | undefined;
  tableAt(sheet: string, row: number, col: number): Table | undefined;
  /** The range a dynamic array anchored at the cell spills into (A1#). */
  spill(sheet: string, row: number, col: number): Rect | ExcelError;
  /** workbook.xml's date1904: serials count from 1904. */
  readonly date1904: boolean;
  /** Whether the cell holds a SUBTOTAL formula (SUBTOTAL leaves those out). */
  isSubtotal(sheet: string, row: number, col: number): boolean;
  /** Whether the sheet hides the row (SUBTOTAL(101..111) leaves those out). */
  isHiddenRow(sheet: string, row: number): boolean;
  /**
   * How many values still waiting for an FDQ answer the formula has read so far: when its condition read one,
   * a lazy function chooses no branch yet (so it fetches only the FDQ calls of the branch it will take).
   */
  waits(): number;
  /**
   * The formula calls a volatile function the engine computes (OFFSET, INDIRECT: VOLATILE_FUNCTIONS): the host
   * decides whether the value may be written.
   */
  volatile?(fn: string): void;
  /** An FDQ function (name without "FDQ."), given its evaluated arguments. */
  fdq(name: string, args: readonly (Value | undefined)[], ctx: Context): Value;
}

export interface Context {
  readonly host: Host;
  readonly sheet: string;
  readonly row: number;
  readonly col: number;
  /** True in an array formula (dynamic or CSE): ranges given to operators and scalar parameters lift. */
  readonly arrayMode: boolean;
  /** LET's names, lower case without _xlpm. */
  readonly vars?: ReadonlyMap<string, Value>;
  /** Evaluates a syntax tree in this context (lazy functions evaluate their arguments with it). */
  evaluate(node: Node, ctx?: Context): Value;
}

/** Arguments as eager functions receive them; undefined is an omitted argument (`,,`). */
export type Args = readonly (Value | undefined)[];

/**
 * Reads a rectangle's values row by row. Whole columns and rows (A:A, 3:3) are clipped to what the sheet uses
 * (A:A is not a million cells); a range written with both ends is read whole (COUNTBLANK counts its empties).
 */
export function readRect(ctx: Context, rect: Rect): Scalar[][] {
  const extent = ctx.host.extent(rect.sheet);
  const bottom = rect.bottom === MAX_ROW ? Math.max(extent.rows, rect.top) : rect.bottom;
  const right = rect.right === MAX_COL ? Math.max(extent.cols, rect.left) : rect.right;
  const rows: Scalar[][] = [];
  for (let r = rect.top; r <= bottom; r++) {
    const line: Scalar[] = [];
    for (let c = rect.left; c <= right; c++) line.push(ctx.host.cell(rect.sheet, r, c));
    rows.push(line);
  }
  return rows;
}

/** Excel's implicit intersection of a reference with the formula's row or column (legacy formulas). */
export function intersect(ref: Ref, ctx: Context): Scalar {
  const { rect } = ref;
  if (rect.top === rect.bottom && rect.left === rect.right)
    return ctx.host.cell(rect.sheet, rect.top, rect.left);
  if (rect.left === rect.right && ctx.row >= rect.top && ctx.row <= rect.bottom)
    return ctx.host.cell(rect.sheet, ctx.row, rect.left);
  if (rect.top === rect.bottom && ctx.col >= rect.left && ctx.col <= rect.right)
    return ctx.host.cell(rect.sheet, rect.top, ctx.col);
  return VALUE();
}

/** A value as an array (a reference read, a scalar as 1x1). */
export function toArr(v: Value, ctx: Context): Arr {
  if (v instanceof Arr) return v;
  if (v instanceof Ref) return new Arr(readRect(ctx, v.rect));
  return new Arr([[v]]);
}

/** A value as one scalar: a reference by implicit intersection (or lifted later in array mode), an array's first. */
export function toScalar(v: Value | undefined, ctx: Context): Scalar {
  if (v === undefined) return null;
  if (v instanceof Ref) return intersect(v, ctx);
  if (v instanceof Arr) return v.rows[0]?.[0] ?? null;
  return v;
}

/** A value as operators read it: in array mode a reference is its array, otherwise its intersection. */
export function operand(v: Value, ctx: Context): Scalar | Arr {
  if (v instanceof Ref) {
    if (ctx.arrayMode && (v.rows > 1 || v.cols > 1)) return toArr(v, ctx);
    return intersect(v, ctx);
  }
  if (v instanceof Arr && v.height === 1 && v.width === 1) return v.rows[0]?.[0] ?? null;
  return v;
}

/**
 * Applies `fn` element by element over array arguments (Excel's lifting): the result is as tall as the
 * tallest and as wide as the widest; a single row or column repeats; an element beyond a smaller array is #N/A.
 */
export function lift(values: readonly (Scalar | Arr)[], fn: (...scalars: Scalar[]) => Scalar): Scalar | Arr {
  const arrays = values.filter((v): v is Arr => v instanceof Arr);
  if (arrays.length === 0) return fn(...(values as Scalar[]));
  const height = Math.max(...arrays.map((a) => a.height));
  const width = Math.max(...arrays.map((a) => a.width));
  const rows: Scalar[][] = [];
  for (let r = 0; r < height; r++) {
    const line: Scalar[] = [];
    for (let c = 0; c < width; c++) {
      let beyond = false;
      const scalars = values.map((v) => {
        if (!(v instanceof Arr)) return v;
        const rr = v.height === 1 ? 0 : r;
        const cc = v.width === 1 ? 0 : c;
        if (rr >= v.height || cc >= v.width) {
          beyond = true;
          return null;
        }
        return v.rows[rr]?.[cc] ?? null;
      });
      line.push(beyond ? new ExcelError("#N/A") : fn(...scalars));
    }
    rows.push(line);
  }
  return new Arr(rows);
}

/** A scalar-parameter function lifted over its arguments (ranges lift in array mode, else intersect). */
export function liftArgs(args: Args, ctx: Context, fn: (...scalars: Scalar[]) => Scalar): Value {
  return lift(
    args.map((a) => (a === undefined ? null : operand(a, ctx))),
    fn,
  );
}
