// Lookup and reference functions. INDEX, OFFSET, INDIRECT and XLOOKUP answer references (so
// INDEX(...):INDEX(...) and SUM(OFFSET(...)) work); what they read is read through the host, so a cell they
// reach that changed makes the formula change too. MATCH's approximate modes search as Excel does (binary
// search over values of the looked-up type), so unsorted data gives Excel's answer, not a linear scan's.
import type { Scalar } from "../../model";
import { toArr, toScalar, type Args, type Context } from "../context";
import { parseExcelFormula } from "../../../formula/parser";
import { MAX_COL, MAX_ROW } from "../references";
import { Arr, compare, isError, NA, Ref, REF, toNumber, Unsupported, VALUE, type Value } from "../values";
import { num } from "./collect";
import { wildcard } from "./conditional";
import { eager, type FunctionTable } from "./table";

/** A 1-D argument's values (a row or a column); undefined for a 2-D one. */
function vector(v: Value | undefined, ctx: Context): Scalar[] | undefined {
  if (v === undefined) return undefined;
  const rows = toArr(v, ctx).rows;
  if (rows.length === 1) return rows[0] ?? [];
  if ((rows[0]?.length ?? 0) === 1) return rows.map((r) => r[0] ?? null);
  return undefined;
}

const sameType = (a: Scalar, b: Scalar): boolean =>
  typeof a === typeof b && a !== null && b !== null && !isError(a) && !isError(b);

/** Excel's exact match (text case-insensitively, with wildcards when asked). */
function exactIndex(values: readonly Scalar[], x: Scalar, wild: boolean, fromEnd = false): number {
  const re = wild && typeof x === "string" ? wildcard(x) : undefined;
  const test = (v: Scalar): boolean =>
    re ? typeof v === "string" && re.test(v) : sameType(v, x) && compare(v, x) === 0;
  if (fromEnd) {
    for (let i = values.length - 1; i >= 0; i--) if (test(values[i] ?? null)) return i;
    return -1;
  }
  return values.findIndex((v) => test(v));
}

/** Binary search for the last value <= x (ascending) or >= x (descending), over values of x's type. */
function approximateIndex(values: readonly Scalar[], x: Scalar, descending: boolean): number {
  const candidates = values.flatMap((v, i) => (sameType(v, x) ? [i] : []));
  let lo = 0;
  let hi = candidates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const i = candidates[mid] as number;
    const c = compare(values[i] ?? null, x);
    if (descending ? c >= 0 : c <= 0) {
      found = i;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function match(args: Args, ctx: Context): Value {
  const x = toScalar(args[0], ctx);
  if (isError(x)) return x;
  const values = vector(args[1], ctx);
  if (!values) return NA();
  const type = args[2] === undefined ? 1 : num(args[2], ctx);
  if (isError(type)) return type;
  const i = type === 0 ? exactIndex(values, x, true) : approximateIndex(values, x, type < 0);
  return i < 0 ? NA() : i + 1;
}

/** XLOOKUP/XMATCH's search: the index in `values`, or -1. */
function xsearch(values: readonly Scalar[], x: Scalar, mode: number, search: number): number {
  if (mode === 0 || mode === 2) return exactIndex(values, x, mode === 2, search === -1 || search === -2);
  if (search === 2 || search === -2) {
    const exact = exactIndex(values, x, false);
    if (exact >= 0) return exact;
  }
  // Exact or next smaller (-1) / next larger (1), in search order.
  let best = -1;
  const order = search === -1 ? [...values.keys()].reverse() : [...values.keys()];
  for (const i of order) {
    const v = values[i] ?? null;
    if (!sameType(v, x)) continue;
    const c = compare(v, x);
    if (c === 0) return i;
    if ((mode === -1 && c < 0) || (mode === 1 && c > 0)) {
      if (
        best < 0 ||
        (mode === -1 ? compare(v, values[best] ?? null) > 0 : compare(v, values[best] ?? null) < 0)
      )
        best = i;
    }
  }
  return best;
}

function xmatch(args: Args, ctx: Context): Value {
  const x = toScalar(args[0], ctx);
  if (isError(x)) return x;
  const values = vector(args[1], ctx);
  if (!values) return VALUE();
  const mode = num(args[2], ctx);
  const search = num(args[3], ctx, 1);
  if (isError(mode)) return mode;
  if (isError(search)) return search;
  const i = xsearch(values, x, mode, search);
  return i < 0 ? NA() : i + 1;
}

/** Row or column `i` (0-based) of a value along the lookup's direction. */
function slice(v: Value, i: number, vertical: boolean, ctx: Context): Value {
  if (v instanceof Ref) {
    const r = v.rect;
    return new Ref(
      vertical ? { ...r, top: r.top + i, bottom: r.top + i } : { ...r, left: r.left + i, right: r.left + i },
    );
  }
  const rows = toArr(v, ctx).rows;
  const out = vertical ? [rows[i] ?? []] : rows.map((row) => [row[i] ?? null]);
  return out.length === 1 && out[0]?.length === 1 ? (out[0][0] ?? null) : new Arr(out);
}

function xlookup(args: Args, ctx: Context): Value {
  const x = toScalar(args[0], ctx);
  if (isError(x)) return x;
  const lookup = args[1];
  const values = vector(lookup, ctx);
  if (!values || lookup === undefined || args[2] === undefined) return VALUE();
  const vertical = toArr(lookup, ctx).height > 1 || toArr(lookup, ctx).width === 1;
  const mode = num(args[4], ctx);
  const search = num(args[5], ctx, 1);
  if (isError(mode)) return mode;
  if (isError(search)) return search;
  const i = xsearch(values, x, mode, search);
  if (i < 0) return args[3] === undefined ? NA() : args[3];
  return slice(args[2], i, vertical, ctx);
}

function index(args: Args, ctx: Context): Value {
  const source = args[0];
  if (source === undefined || isError(source)) return source ?? VALUE();
  const rowArg = num(args[1], ctx);
  const colArg = num(args[2], ctx);
  if (isError(rowArg)) return rowArg;
  if (isError(colArg)) return colArg;
  const height = source instanceof Ref ? source.rows : toArr(source, ctx).height;
  const width = source instanceof Ref ? source.cols : toArr(source, ctx).width;
  let r = Math.trunc(rowArg);
  let c = Math.trunc(colArg);
  // A single row or column takes one index along it.
  if (args[2] === undefined && height === 1 && width > 1) [r, c] = [1, r];
  if (r < 0 || c < 0 || r > height || c > width) return REF();
  if (source instanceof Ref) {
    const s = source.rect;
    return new Ref({
      sheet: s.sheet,
      top: r === 0 ? s.top : s.top + r - 1,
      bottom: r === 0 ? s.bottom : s.top + r - 1,
      left: c === 0 ? s.left : s.left + c - 1,
      right: c === 0 ? s.right : s.left + c - 1,
    });
  }
  const rows = toArr(source, ctx).rows;
  if (r > 0 && c > 0) return rows[r - 1]?.[c - 1] ?? null;
  if (r > 0) return new Arr([rows[r - 1] ?? []]);
  if (c > 0) return new Arr(rows.map((row) => [row[c - 1] ?? null]));
  return new Arr(rows);
}

/** VLOOKUP / HLOOKUP. */
const tableLookup = (vertical: boolean) =>
  eager(
    3,
    4,
    (args, ctx) => {
      const x = toScalar(args[0], ctx);
      if (isError(x)) return x;
      const rows = toArr(args[1] ?? null, ctx).rows;
      const n = num(args[2], ctx);
      if (isError(n)) return n;
      const approx =
        args[3] === undefined || toScalar(args[3], ctx) === true || toNumber(toScalar(args[3], ctx)) !== 0;
      const keys = vertical ? rows.map((r) => r[0] ?? null) : (rows[0] ?? []);
      const width = vertical ? (rows[0]?.length ?? 0) : rows.length;
      if (n < 1) return VALUE();
      if (n > width) return REF();
      const i = approx ? approximateIndex(keys, x, false) : exactIndex(keys, x, true);
      if (i < 0) return NA();
      return (vertical ? rows[i]?.[n - 1] : rows[n - 1]?.[i]) ?? null;
    },
    [1],
  );

function lookup(args: Args, ctx: Context): Value {
  const x = toScalar(args[0], ctx);
  if (isError(x)) return x;
  const rows = toArr(args[1] ?? null, ctx).rows;
  const height = rows.length;
  const width = rows[0]?.length ?? 0;
  let keys: Scalar[];
  let results: Scalar[];
  if (args[2] !== undefined) {
    keys = vector(args[1], ctx) ?? [];
    results = vector(args[2], ctx) ?? [];
  } else if (width > height) {
    keys = rows[0] ?? [];
    results = rows[height - 1] ?? [];
  } else {
    keys = rows.map((r) => r[0] ?? null);
    results = rows.map((r) => r[width - 1] ?? null);
  }
  const i = approximateIndex(keys, x, false);
  return i < 0 ? NA() : (results[i] ?? NA());
}

function offset(args: Args, ctx: Context): Value {
  const base = args[0];
  if (isError(base)) return base;
  if (!(base instanceof Ref)) return VALUE();
  const [dr, dc] = [num(args[1], ctx), num(args[2], ctx)];
  if (isError(dr)) return dr;
  if (isError(dc)) return dc;
  const h = args[3] === undefined ? base.rows : num(args[3], ctx);
  const w = args[4] === undefined ? base.cols : num(args[4], ctx);
  if (isError(h)) return h;
  if (isError(w)) return w;
  const top = base.rect.top + Math.trunc(dr);
  const left = base.rect.left + Math.trunc(dc);
  const bottom = top + Math.trunc(h) - 1;
  const right = left + Math.trunc(w) - 1;
  if (h < 1 || w < 1 || top < 1 || left < 1 || bottom > MAX_ROW || right > MAX_COL) return REF();
  return new Ref({ sheet: base.rect.sheet, top, left, bottom, right });
}

function indirect(args: Args, ctx: Context): Value {
  const text = toScalar(args[0], ctx);
  if (isError(text)) return text;
  if (typeof text !== "string") return REF();
  const a1 = args[1] === undefined ? true : toScalar(args[1], ctx);
  if (a1 === false || a1 === 0) throw new Unsupported("uses INDIRECT with an R1C1 reference", "INDIRECT");
  let node;
  try {
    node = parseExcelFormula(text);
  } catch {
    return REF();
  }
  if (!["ref", "name", "structured"].includes(node.type) && !(node.type === "binary" && node.op === ":"))
    return REF();
  const v = ctx.evaluate(node);
  return v instanceof Ref || isError(v) ? v : REF();
}

/** ROW / COLUMN: of the reference (an array of them in an array formula), or of the formula's cell. */
const position = (row: boolean) =>
  eager(0, 1, (args, ctx) => {
    const ref = args[0];
    if (ref === undefined) return row ? ctx.row : ctx.col;
    if (!(ref instanceof Ref)) return isError(ref) ? ref : VALUE();
    const { top, bottom, left, right } = ref.rect;
    const n = row ? bottom - top + 1 : right - left + 1;
    if (n === 1 || !ctx.arrayMode) return row ? top : left;
    const values = Array.from({ length: n }, (_, i) => (row ? top : left) + i);
    return new Arr(row ? values.map((v) => [v]) : [values]);
  });

const size = (rows: boolean) =>
  eager(1, 1, (args, ctx) => {
    const v = args[0] ?? null;
    if (isError(v)) return v;
    if (v instanceof Ref) return rows ? v.rows : v.cols;
    const a = toArr(v, ctx);
    return rows ? a.height : a.width;
  });

function transpose(args: Args, ctx: Context): Value {
  const rows = toArr(args[0] ?? null, ctx).rows;
  const width = rows[0]?.length ?? 0;
  return new Arr(Array.from({ length: width }, (_, c) => rows.map((r) => r[c] ?? null)));
}

export const lookupFunctions: FunctionTable = {
  MATCH: eager(2, 3, match, [1]),
  XMATCH: eager(2, 4, xmatch, [1]),
  XLOOKUP: eager(3, 6, xlookup, [1, 2]),
  INDEX: eager(2, 4, index, [0]),
  VLOOKUP: tableLookup(true),
  HLOOKUP: tableLookup(false),
  LOOKUP: eager(2, 3, lookup, [1, 2]),
  OFFSET: eager(3, 5, offset),
  INDIRECT: eager(1, 2, indirect),
  ROW: position(true),
  COLUMN: position(false),
  ROWS: size(true),
  COLUMNS: size(false),
  TRANSPOSE: eager(1, 1, transpose, true),
};
