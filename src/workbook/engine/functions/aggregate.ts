// Aggregates and order statistics. Each reads its arguments as Excel does (collect.ts): an error anywhere in a
// range is the result, so SUM over a range holding #N/A is #N/A. The arithmetic is short and exact enough
// to write here; formulajs is used where its algorithm is the reference one (financial.ts).
import { ExcelError, type Scalar } from "../../model";
import { readRect, toArr, type Args, type Context } from "../context";
import { Arr, checked, DIV0, isError, NUM, Ref, toNumber, Unsupported, VALUE, type Value } from "../values";
import { elements, num, numbers, sum } from "./collect";
import { eager, MANY, type FunctionTable } from "./table";

type Agg = (xs: number[]) => number | ExcelError;

const mean = (xs: readonly number[]): number => sum(xs) / xs.length;

function variance(xs: readonly number[], sample: boolean): number | ExcelError {
  const n = xs.length;
  if (n === 0 || (sample && n < 2)) return DIV0();
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return s / (sample ? n - 1 : n);
}

const sqrtOf = (v: number | ExcelError): number | ExcelError => (isError(v) ? v : Math.sqrt(v));

function percentile(xs: number[], k: number): number | ExcelError {
  if (xs.length === 0 || k < 0 || k > 1) return NUM();
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = k * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return (sorted[lo] as number) + (rank - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

function median(xs: number[]): number | ExcelError {
  if (xs.length === 0) return NUM();
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const AGGREGATES: Record<string, Agg> = {
  SUM: (xs) => checked(sum(xs)),
  AVERAGE: (xs) => (xs.length === 0 ? DIV0() : checked(mean(xs))),
  PRODUCT: (xs) => (xs.length === 0 ? 0 : checked(xs.reduce((p, x) => p * x, 1))),
  MAX: (xs) => (xs.length === 0 ? 0 : Math.max(...xs)),
  MIN: (xs) => (xs.length === 0 ? 0 : Math.min(...xs)),
  MEDIAN: median,
  SUMSQ: (xs) => checked(sum(xs.map((x) => x * x))),
  "STDEV.S": (xs) => sqrtOf(variance(xs, true)),
  STDEV: (xs) => sqrtOf(variance(xs, true)),
  "STDEV.P": (xs) => sqrtOf(variance(xs, false)),
  STDEVP: (xs) => sqrtOf(variance(xs, false)),
  "VAR.S": (xs) => variance(xs, true),
  VAR: (xs) => variance(xs, true),
  "VAR.P": (xs) => variance(xs, false),
  VARP: (xs) => variance(xs, false),
};

const aggregate = (agg: Agg) =>
  eager(1, MANY, (args, ctx) => {
    const xs = numbers(args, ctx);
    return isError(xs) ? xs : agg(xs);
  });

/** COUNT: numbers in ranges, and direct arguments that are or read as numbers; errors are not counted. */
function count(args: Args, ctx: Context): number {
  let n = 0;
  for (const arg of args) {
    if (arg === undefined) continue;
    if (arg instanceof Ref || arg instanceof Arr)
      n += elements(arg, ctx).filter((v) => typeof v === "number").length;
    else if (!isError(toNumber(arg)) && arg !== null) n++;
  }
  return n;
}

/** COUNTA: every value that is not an empty cell (errors and "" from formulas count). */
function counta(args: Args, ctx: Context): number {
  let n = 0;
  for (const arg of args) {
    if (arg === undefined) continue;
    if (arg instanceof Ref || arg instanceof Arr) n += elements(arg, ctx).filter((v) => v !== null).length;
    else n++;
  }
  return n;
}

/** LARGE / SMALL: the k-th of the numbers of the first argument. */
const nth = (largest: boolean) =>
  eager(2, 2, (args, ctx) => {
    const xs = numbers([args[0]], ctx);
    if (isError(xs)) return xs;
    const k = num(args[1], ctx);
    if (isError(k)) return k;
    const i = Math.ceil(k) - 1;
    if (i < 0 || i >= xs.length) return NUM();
    const sorted = [...xs].sort((a, b) => (largest ? b - a : a - b));
    return sorted[i] as number;
  });

function rank(args: Args, ctx: Context): Value {
  const x = num(args[0], ctx);
  if (isError(x)) return x;
  const xs = numbers([args[1]], ctx);
  if (isError(xs)) return xs;
  const ascending = args[2] !== undefined && num(args[2], ctx) !== 0;
  if (!xs.includes(x)) return new ExcelError("#N/A");
  return 1 + xs.filter((v) => (ascending ? v < x : v > x)).length;
}

const percentileFn = (scale: number) =>
  eager(2, 2, (args, ctx) => {
    const xs = numbers([args[0]], ctx);
    if (isError(xs)) return xs;
    const k = num(args[1], ctx);
    if (isError(k)) return k;
    const q = scale === 1 ? k : Math.trunc(k);
    if (scale !== 1 && (q < 0 || q > 4)) return NUM();
    return percentile(xs, q / scale);
  });

/** SUMPRODUCT: its arguments are arrays of one size; text and logicals count as 0; an error is the result. */
function sumproduct(args: Args, ctx: Context): Value {
  const arrays = args.map((a) => (a === undefined ? new Arr([[null]]) : toArr(a, ctx)));
  const first = arrays[0] as Arr;
  if (arrays.some((a) => a.height !== first.height || a.width !== first.width)) return VALUE();
  let total = 0;
  for (let r = 0; r < first.height; r++) {
    for (let c = 0; c < first.width; c++) {
      let p = 1;
      for (const a of arrays) {
        const v = a.rows[r]?.[c] ?? null;
        if (isError(v)) return v;
        p *= typeof v === "number" ? v : 0;
      }
      total += p;
    }
  }
  return checked(total);
}

const SUBTOTALS: Record<number, string> = {
  1: "AVERAGE",
  2: "COUNT",
  3: "COUNTA",
  4: "MAX",
  5: "MIN",
  6: "PRODUCT",
  7: "STDEV.S",
  8: "STDEV.P",
  9: "SUM",
  10: "VAR.S",
  11: "VAR.P",
};

/**
 * SUBTOTAL over references, leaving out cells that are themselves SUBTOTALs (as Excel does). The 101-111 forms
 * leave out every hidden row too. The 1-11 forms leave out the rows a filter hides but keep those hidden by hand,
 * and a file does not say which is which: over a hidden row they are reported, not guessed.
 */
function subtotal(args: Args, ctx: Context): Value {
  const code = num(args[0], ctx);
  if (isError(code)) return code;
  const base = code > 100 ? code - 100 : code;
  const name = SUBTOTALS[Math.trunc(base)];
  if (!name) return VALUE();
  const values: Value[] = [];
  for (const arg of args.slice(1)) {
    if (!(arg instanceof Ref)) return VALUE();
    const { sheet, top, left } = arg.rect;
    const rows = readRect(ctx, arg.rect).map((row, r) => {
      if (!ctx.host.isHiddenRow(sheet, top + r)) return row;
      if (code < 100) {
        throw new Unsupported(
          `uses SUBTOTAL(${code}) over a hidden row (${sheet}!${top + r}:${top + r}): Excel leaves it out if a filter hid it, and the file does not say`,
          "SUBTOTAL",
        );
      }
      return row.map(() => null);
    });
    values.push(
      new Arr(
        rows.map((row, r) =>
          row.map((v, c): Scalar => (ctx.host.isSubtotal(sheet, top + r, left + c) ? null : v)),
        ),
      ),
    );
  }
  if (name === "COUNT") return count(values, ctx);
  if (name === "COUNTA") return counta(values, ctx);
  const xs = numbers(values, ctx);
  return isError(xs) ? xs : (AGGREGATES[name] as Agg)(xs);
}

export const aggregateFunctions: FunctionTable = {
  ...Object.fromEntries(Object.entries(AGGREGATES).map(([name, agg]) => [name, aggregate(agg)])),
  COUNT: eager(1, MANY, count),
  COUNTA: eager(1, MANY, counta),
  COUNTBLANK: eager(
    1,
    1,
    (args, ctx) => elements(args[0] ?? null, ctx).filter((v) => v === null || v === "").length,
  ),
  LARGE: nth(true),
  SMALL: nth(false),
  "RANK.EQ": eager(2, 3, rank),
  RANK: eager(2, 3, rank),
  "PERCENTILE.INC": percentileFn(1),
  PERCENTILE: percentileFn(1),
  "QUARTILE.INC": percentileFn(4),
  QUARTILE: percentileFn(4),
  SUMPRODUCT: eager(1, MANY, sumproduct, true),
  SUBTOTAL: eager(2, MANY, subtotal),
};
