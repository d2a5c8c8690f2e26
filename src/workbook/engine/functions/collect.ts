// How Excel's aggregates read their arguments: in a range or an array only numbers count (text, logicals and
// empty cells are skipped) and an error is the result; a value given directly is coerced (TRUE is 1, "3" is
// 3, other text #VALUE!).
import type { ExcelError, Scalar } from "../../model";
import { readRect, toArr, toScalar, type Args, type Context } from "../context";
import { Arr, isError, Ref, toNumber, type Value } from "../values";

/** Every element of a range or array, row by row (a scalar as itself). */
export function elements(v: Value, ctx: Context): Scalar[] {
  if (v instanceof Ref) return readRect(ctx, v.rect).flat();
  if (v instanceof Arr) return v.rows.flat();
  return [v];
}

/** The numbers of aggregate arguments, or the first error met. */
export function numbers(args: Args, ctx: Context): number[] | ExcelError {
  const out: number[] = [];
  for (const arg of args) {
    if (arg === undefined) {
      out.push(0);
      continue;
    }
    if (arg instanceof Ref || arg instanceof Arr) {
      for (const v of elements(arg, ctx)) {
        if (typeof v === "number") out.push(v);
        else if (isError(v)) return v;
      }
      continue;
    }
    const n = toNumber(arg);
    if (isError(n)) return n;
    out.push(n);
  }
  return out;
}

/** An argument as a 2-D array of scalars (a reference read). */
export function grid(v: Value | undefined, ctx: Context): Scalar[][] {
  return v === undefined ? [[null]] : toArr(v, ctx).rows;
}

/** A numeric argument that must be one value (k of LARGE, rate of NPV): a range intersected, an array's first. */
export function num(v: Value | undefined, ctx: Context, fallback = 0): number | ExcelError {
  if (v === undefined) return fallback;
  return toNumber(toScalar(v, ctx));
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
