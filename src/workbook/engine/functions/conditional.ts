// The *IF/*IFS family and Excel's criteria: ">=5", "<>x", "a*" (wildcards ? * and ~ escapes), "" for empty,
// a number that also matches the same number written as text. A criterion range and a sum range are
// references of one shape; an error in a cell that matches is the result, one in a cell that does not
// match is ignored, as in Excel.
import { ExcelError, isErrorCode, type Scalar } from "../../model";
import { readRect, toScalar, type Args, type Context } from "../context";
import { Arr, compareNumbers, DIV0, isError, numberOfText, Ref, VALUE, type Value } from "../values";
import { eager, MANY, type FunctionTable } from "./table";

export type Matcher = (v: Scalar) => boolean;

/** Excel's wildcards as a regular expression (? one character, * any, ~ escapes). */
export function wildcard(pattern: string): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern.charAt(i);
    if (ch === "~" && i + 1 < pattern.length)
      re += pattern.charAt(++i).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    else if (ch === "*") re += "[\\s\\S]*";
    else if (ch === "?") re += "[\\s\\S]";
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "i");
}

export function criterion(c: Scalar): Matcher {
  if (c === null) return (v) => v === 0 || v === null;
  if (typeof c === "number")
    return (v) =>
      typeof v === "number" ? compareNumbers(v, c) === 0 : typeof v === "string" && numberOfText(v) === c;
  if (typeof c === "boolean") return (v) => v === c;
  if (c instanceof ExcelError) return (v) => v instanceof ExcelError && v.code === c.code;
  const m = /^(<=|>=|<>|<|>|=)?([\s\S]*)$/.exec(c) as RegExpExecArray;
  const op = m[1] ?? "=";
  const rest = m[2] as string;
  const n = numberOfText(rest);
  const upper = rest.toUpperCase();
  if (rest === "") {
    if (op === "=") return m[1] === undefined ? (v) => v === null || v === "" : (v) => v === null;
    if (op === "<>") return (v) => v !== null && v !== "";
  }
  if (isErrorCode(upper) && (op === "=" || op === "<>")) {
    const matches = (v: Scalar): boolean => v instanceof ExcelError && v.code === upper;
    return op === "=" ? matches : (v) => !matches(v);
  }
  if (upper === "TRUE" || upper === "FALSE") {
    const b = upper === "TRUE";
    if (op === "=") return (v) => v === b;
    if (op === "<>") return (v) => v !== b;
  }
  if (n !== undefined) {
    const numeric = (v: Scalar): number | undefined =>
      typeof v === "number"
        ? v
        : op === "=" || op === "<>"
          ? typeof v === "string"
            ? numberOfText(v)
            : undefined
          : undefined;
    const test: Record<string, (x: number) => boolean> = {
      "=": (x) => compareNumbers(x, n) === 0,
      "<>": (x) => compareNumbers(x, n) !== 0,
      "<": (x) => compareNumbers(x, n) < 0,
      ">": (x) => compareNumbers(x, n) > 0,
      "<=": (x) => compareNumbers(x, n) <= 0,
      ">=": (x) => compareNumbers(x, n) >= 0,
    };
    const t = test[op] as (x: number) => boolean;
    return (v) => {
      const x = numeric(v);
      if (x === undefined) return op === "<>";
      return t(x);
    };
  }
  if (op === "=" || op === "<>") {
    const re = wildcard(rest);
    const matches = (v: Scalar): boolean => typeof v === "string" && re.test(v);
    return op === "=" ? matches : (v) => !matches(v);
  }
  const lower = rest.toLowerCase();
  return (v) => {
    if (typeof v !== "string") return false;
    const x = v.toLowerCase();
    return op === "<" ? x < lower : op === ">" ? x > lower : op === "<=" ? x <= lower : x >= lower;
  };
}

/** A range argument's cells (an array in newer Excel is accepted too). */
function cells(v: Value | undefined, ctx: Context): Scalar[][] | ExcelError {
  if (v instanceof Ref) return readRect(ctx, v.rect);
  if (v instanceof Arr) return v.rows;
  if (isError(v)) return v;
  return VALUE();
}

/** The sum range of SUMIF/AVERAGEIF: its top-left cell, sized like the criterion range. */
function sizedLike(v: Value | undefined, like: Value | undefined, ctx: Context): Scalar[][] | ExcelError {
  if (v instanceof Ref && like instanceof Ref) {
    const { rect } = v;
    return readRect(ctx, {
      ...rect,
      bottom: rect.top + like.rows - 1,
      right: rect.left + like.cols - 1,
    });
  }
  return cells(v, ctx);
}

interface Conditions {
  readonly values: Scalar[][];
  readonly pairs: { readonly range: Scalar[][]; readonly match: Matcher }[];
}

/** For each cell of `values` whose criteria all match, its value; an error in the criterion ranges is skipped. */
function matching({ values, pairs }: Conditions): Scalar[] | ExcelError {
  const h = values.length;
  const w = values[0]?.length ?? 0;
  if (pairs.some((p) => p.range.length !== h || (p.range[0]?.length ?? 0) !== w)) return VALUE();
  const out: Scalar[] = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (pairs.every((p) => p.match(p.range[r]?.[c] ?? null))) out.push(values[r]?.[c] ?? null);
    }
  }
  return out;
}

type Reduce = (values: Scalar[]) => Scalar;

const reduceSum: Reduce = (vs) => {
  let s = 0;
  for (const v of vs) {
    if (isError(v)) return v;
    if (typeof v === "number") s += v;
  }
  return s;
};
const reduceAverage: Reduce = (vs) => {
  const err = vs.find(isError);
  if (err) return err;
  const xs = vs.filter((v): v is number => typeof v === "number");
  return xs.length === 0 ? DIV0() : xs.reduce((a, b) => a + b, 0) / xs.length;
};
const reduceExtreme =
  (max: boolean): Reduce =>
  (vs) => {
    const err = vs.find(isError);
    if (err) return err;
    const xs = vs.filter((v): v is number => typeof v === "number");
    return xs.length === 0 ? 0 : max ? Math.max(...xs) : Math.min(...xs);
  };

function criteriaOf(v: Value | undefined, ctx: Context): Matcher {
  return criterion(v === undefined ? null : toScalar(v, ctx));
}

/** SUMIF(range, criteria, [sum_range]) and AVERAGEIF. */
const ifOne = (reduce: Reduce) =>
  eager(2, 3, (args, ctx) => {
    const range = cells(args[0], ctx);
    if (isError(range)) return range;
    const values = args[2] === undefined ? range : sizedLike(args[2], args[0], ctx);
    if (isError(values)) return values;
    const found = matching({ values, pairs: [{ range, match: criteriaOf(args[1], ctx) }] });
    return isError(found) ? found : reduce(found);
  });

/** SUMIFS(values, range1, criteria1, ...) and its family. */
const ifMany = (reduce: Reduce) =>
  eager(3, MANY, (args, ctx) => {
    if (args.length % 2 === 0) return VALUE();
    const values = cells(args[0], ctx);
    if (isError(values)) return values;
    const pairs = [];
    for (let i = 1; i < args.length; i += 2) {
      const range = cells(args[i], ctx);
      if (isError(range)) return range;
      pairs.push({ range, match: criteriaOf(args[i + 1], ctx) });
    }
    const found = matching({ values, pairs });
    return isError(found) ? found : reduce(found);
  });

function countifs(args: Args, ctx: Context): Value {
  if (args.length % 2 === 1) return VALUE();
  const pairs = [];
  for (let i = 0; i < args.length; i += 2) {
    const range = cells(args[i], ctx);
    if (isError(range)) return range;
    pairs.push({ range, match: criteriaOf(args[i + 1], ctx) });
  }
  const found = matching({ values: pairs[0]?.range ?? [], pairs });
  return isError(found) ? found : found.length;
}

export const conditionalFunctions: FunctionTable = {
  SUMIF: ifOne(reduceSum),
  AVERAGEIF: ifOne(reduceAverage),
  COUNTIF: eager(2, 2, countifs),
  SUMIFS: ifMany(reduceSum),
  AVERAGEIFS: ifMany(reduceAverage),
  MAXIFS: ifMany(reduceExtreme(true)),
  MINIFS: ifMany(reduceExtreme(false)),
  COUNTIFS: eager(2, MANY, countifs),
};
