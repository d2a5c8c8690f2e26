// Dynamic-array functions: their result spills from the formula's cell (recalculation.ts places it).
import { ExcelError, type Scalar } from "../../model";
import { intersect, toArr, type Args, type Context } from "../context";
import { Arr, compare, isError, Ref, REF, toBool, VALUE, type Value } from "../values";
import { num } from "./collect";
import { eager, type FunctionTable } from "./table";

const result = (rows: Scalar[][]): Value =>
  rows.length === 1 && rows[0]?.length === 1 ? (rows[0][0] ?? null) : new Arr(rows);

function filter(args: Args, ctx: Context): Value {
  const data = toArr(args[0] ?? null, ctx);
  const include = toArr(args[1] ?? null, ctx);
  const byRow = include.width === 1 && include.height === data.height;
  const byCol = include.height === 1 && include.width === data.width;
  if (!byRow && !byCol) return VALUE();
  const flags: boolean[] = [];
  for (const v of include.rows.flat()) {
    if (isError(v)) return v;
    const b = toBool(v);
    if (isError(b)) return b;
    flags.push(b);
  }
  const rows = byRow
    ? data.rows.filter((_, r) => flags[r])
    : data.rows.map((row) => row.filter((_, c) => flags[c]));
  if (rows.length === 0 || rows[0]?.length === 0) {
    return args[2] === undefined ? new ExcelError("#CALC!", "FILTER found nothing") : args[2];
  }
  return result(rows);
}

/** Excel's sort order for SORT: numbers, text, logicals, errors; empty last. */
function sortCompare(a: Scalar, b: Scalar): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (isError(a) || isError(b)) return isError(a) === isError(b) ? 0 : isError(a) ? 1 : -1;
  return compare(a, b);
}

function sort(args: Args, ctx: Context): Value {
  const data = toArr(args[0] ?? null, ctx);
  const index = num(args[1], ctx, 1);
  const order = num(args[2], ctx, 1);
  if (isError(index)) return index;
  if (isError(order)) return order;
  const byCol = args[3] !== undefined && toBool(toArr(args[3], ctx).rows[0]?.[0] ?? null) === true;
  const lines = byCol ? (data.rows[0]?.map((_, c) => data.rows.map((r) => r[c] ?? null)) ?? []) : data.rows;
  const k = Math.trunc(index) - 1;
  if (k < 0 || k >= (lines[0]?.length ?? 0) || (order !== 1 && order !== -1)) return VALUE();
  const sorted = [...lines].sort((a, b) => {
    const c = sortCompare(a[k] ?? null, b[k] ?? null);
    // Empty cells sort last both ways.
    return order === -1 && a[k] !== null && b[k] !== null ? -c : c;
  });
  const rows = byCol ? (sorted[0]?.map((_, r) => sorted.map((l) => l[r] ?? null)) ?? []) : sorted;
  return result(rows);
}

function unique(args: Args, ctx: Context): Value {
  const data = toArr(args[0] ?? null, ctx);
  const byCol = args[1] !== undefined && toBool(toArr(args[1], ctx).rows[0]?.[0] ?? null) === true;
  const once = args[2] !== undefined && toBool(toArr(args[2], ctx).rows[0]?.[0] ?? null) === true;
  const lines = byCol ? (data.rows[0]?.map((_, c) => data.rows.map((r) => r[c] ?? null)) ?? []) : data.rows;
  const keyOf = (line: Scalar[]): string =>
    JSON.stringify(
      line.map((v) => (typeof v === "string" ? `s${v.toLowerCase()}` : isError(v) ? `e${v.code}` : v)),
    );
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(keyOf(line), (counts.get(keyOf(line)) ?? 0) + 1);
  const seen = new Set<string>();
  const kept = lines.filter((line) => {
    const key = keyOf(line);
    if (seen.has(key)) return false;
    seen.add(key);
    return !once || counts.get(key) === 1;
  });
  if (kept.length === 0) return new ExcelError("#CALC!");
  const rows = byCol ? (kept[0]?.map((_, r) => kept.map((l) => l[r] ?? null)) ?? []) : kept;
  return result(rows);
}

function sequence(args: Args, ctx: Context): Value {
  const [rows, cols, start, step] = [
    num(args[0], ctx, 1),
    num(args[1], ctx, 1),
    num(args[2], ctx, 1),
    num(args[3], ctx, 1),
  ];
  for (const v of [rows, cols, start, step]) if (isError(v)) return v;
  const [h, w] = [Math.trunc(rows as number), Math.trunc(cols as number)];
  if (h < 1 || w < 1) return new ExcelError("#CALC!");
  if (h * w > 1_048_576) return new ExcelError("#NUM!");
  const out = Array.from({ length: h }, (_, r) =>
    Array.from({ length: w }, (_, c): Scalar => (start as number) + (r * w + c) * (step as number)),
  );
  return result(out);
}

/** `_xlfn.ANCHORARRAY(A1)`, how a file stores `A1#`: the range the dynamic array anchored at A1 spills into. */
function anchorArray(args: Args, ctx: Context): Value {
  const v = args[0] ?? null;
  if (isError(v)) return v;
  if (!(v instanceof Ref)) return REF();
  const rect = ctx.host.spill(v.rect.sheet, v.rect.top, v.rect.left);
  return isError(rect) ? rect : new Ref(rect);
}

/** `_xlfn.SINGLE(x)`, how a file stores `@x`: a range by implicit intersection, an array's first value. */
function single(args: Args, ctx: Context): Value {
  const v = args[0] ?? null;
  if (v instanceof Ref) return intersect(v, ctx);
  return v instanceof Arr ? (v.rows[0]?.[0] ?? null) : v;
}

export const dynamicFunctions: FunctionTable = {
  FILTER: eager(2, 3, filter, [0, 1]),
  SORT: eager(1, 4, sort, [0]),
  UNIQUE: eager(1, 3, unique, [0]),
  SEQUENCE: eager(1, 4, sequence),
  SINGLE: eager(1, 1, single),
  ANCHORARRAY: eager(1, 1, anchorArray),
};
