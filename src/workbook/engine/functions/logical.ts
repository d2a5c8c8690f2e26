// Logical functions. IF, IFS, IFERROR, IFNA, CHOOSE, SWITCH and LET are lazy, as in Excel: only the branch
// taken is evaluated, so IF(TRUE,F2,XLOOKUP(...)) needs nothing of the other branch and fetches none of its
// FDQ calls. An array condition (in an array formula) chooses element by element, both branches evaluated.
import { ERROR_CODES, ExcelError, type Scalar } from "../../model";
import { lift, liftArgs, operand, type Context } from "../context";
import type { Node } from "../../../formula/parser";
import { Arr, isError, NA, Ref, toBool, Unsupported, VALUE, type Value } from "../values";
import { elements } from "./collect";
import { eager, MANY, type FunctionTable, type LazyFn } from "./table";

/** ERROR.TYPE's numbers: the position (from 1) of an error code in this list, Excel's first eight codes. */
const ERROR_TYPE_NUMBERS: readonly string[] = ERROR_CODES.slice(0, 8);

const lazy = (min: number, max: number, fn: LazyFn["lazy"]): LazyFn => ({ min, max, lazy: fn });

/** An argument's value; an omitted one (IF(A1,,2)) is 0 as in Excel. */
const arg = (node: Node | undefined, ctx: Context, absent: Value): Value => {
  if (node === undefined) return absent;
  if (node.type === "missing") return 0;
  return ctx.evaluate(node);
};

/** The placeholder a lazy function answers while its condition waits for an FDQ answer. */
const WAITING = (): ExcelError => new ExcelError("#N/A", "waiting for an FDQ answer");

function ifFn(args: readonly Node[], ctx: Context): Value {
  const before = ctx.host.waits();
  const cond = operand(ctx.evaluate(args[0] as Node), ctx);
  if (ctx.host.waits() > before) return WAITING();
  if (cond instanceof Arr) {
    const yes = operand(arg(args[1], ctx, true), ctx);
    const no = operand(arg(args[2], ctx, false), ctx);
    return lift([cond, yes, no], (c, y, n) => {
      const b = toBool(c);
      return isError(b) ? b : b ? y : n;
    });
  }
  const b = toBool(cond);
  if (isError(b)) return b;
  return b ? arg(args[1], ctx, true) : arg(args[2], ctx, false);
}

/** A condition that must be one value (IFS, SWITCH): an array condition is not computed element-wise here. */
function scalarOf(v: Value, ctx: Context, fn: string): Scalar {
  const s = operand(v, ctx);
  if (s instanceof Arr) throw new Unsupported(`uses ${fn} with an array condition`, fn);
  return s;
}

function ifs(args: readonly Node[], ctx: Context): Value {
  if (args.length % 2 === 1) return VALUE();
  for (let i = 0; i < args.length; i += 2) {
    const before = ctx.host.waits();
    const b = toBool(scalarOf(arg(args[i], ctx, false), ctx, "IFS"));
    if (ctx.host.waits() > before) return WAITING();
    if (isError(b)) return b;
    if (b) return arg(args[i + 1], ctx, 0);
  }
  return NA();
}

/** IFERROR / IFNA: the value unless it is the error (element by element for an array). */
const onError = (only?: "#N/A") =>
  lazy(2, 2, (args, ctx) => {
    const before = ctx.host.waits();
    const v = operand(ctx.evaluate(args[0] as Node), ctx);
    if (ctx.host.waits() > before) return WAITING();
    const caught = (s: Scalar): boolean => isError(s) && (only === undefined || s.code === only);
    let fallback: Scalar | Arr | undefined;
    const alt = (): Scalar | Arr => (fallback ??= operand(arg(args[1], ctx, 0), ctx));
    if (v instanceof Arr) {
      if (!v.rows.some((r) => r.some(caught))) return v;
      return lift([v, alt()], (x, y) => (caught(x) ? y : x));
    }
    return caught(v) ? alt() : v;
  });

function choose(args: readonly Node[], ctx: Context): Value {
  const before = ctx.host.waits();
  const index = operand(ctx.evaluate(args[0] as Node), ctx);
  if (ctx.host.waits() > before) return WAITING();
  if (index instanceof Arr) {
    const options = args.slice(1).map((a) => operand(arg(a, ctx, 0), ctx));
    return lift([index, ...options], (i, ...rest) => {
      const n = typeof i === "number" ? Math.trunc(i) : NaN;
      return n >= 1 && n <= rest.length ? (rest[n - 1] as Scalar) : VALUE();
    });
  }
  if (isError(index)) return index;
  const n = Math.trunc(typeof index === "number" ? index : typeof index === "boolean" ? Number(index) : NaN);
  if (!(n >= 1 && n < args.length)) return VALUE();
  return arg(args[n], ctx, 0);
}

function switchFn(args: readonly Node[], ctx: Context): Value {
  const before = ctx.host.waits();
  const subject = scalarOf(ctx.evaluate(args[0] as Node), ctx, "SWITCH");
  if (ctx.host.waits() > before) return WAITING();
  if (isError(subject)) return subject;
  const pairs = args.length - 1;
  for (let i = 1; i + 1 < args.length; i += 2) {
    const candidate = scalarOf(arg(args[i], ctx, null), ctx, "SWITCH");
    if (isError(candidate)) return candidate;
    const equal =
      typeof subject === "string" && typeof candidate === "string"
        ? subject.toLowerCase() === candidate.toLowerCase()
        : subject === candidate;
    if (equal) return arg(args[i + 1], ctx, 0);
  }
  return pairs % 2 === 1 ? arg(args[args.length - 1], ctx, 0) : NA();
}

function let_(args: readonly Node[], ctx: Context): Value {
  if (args.length % 2 === 0) return VALUE();
  const vars = new Map(ctx.vars ?? []);
  let inner = ctx;
  for (let i = 0; i + 1 < args.length; i += 2) {
    const name = args[i] as Node;
    if (name.type !== "name") return VALUE();
    const value = inner.evaluate(args[i + 1] as Node);
    vars.set(name.name.replace(/^_xlpm\./i, "").toLowerCase(), value);
    const next: Context = { ...inner, vars: new Map(vars), evaluate: (n, c) => ctx.evaluate(n, c ?? next) };
    inner = next;
  }
  return inner.evaluate(args[args.length - 1] as Node);
}

/** AND / OR over logicals: text in ranges ignored, an error the result, nothing to read #VALUE!. */
const connective = (isAnd: boolean) =>
  eager(1, MANY, (args, ctx) => {
    let seen = false;
    let result = isAnd;
    for (const a of args) {
      if (a === undefined) continue;
      const fromRange = a instanceof Ref || a instanceof Arr;
      for (const v of elements(a, ctx)) {
        if (isError(v)) return v;
        if (v === null || (fromRange && typeof v === "string")) continue;
        const b = toBool(v);
        if (isError(b)) return b;
        seen = true;
        result = isAnd ? result && b : result || b;
      }
    }
    return seen ? result : VALUE();
  });

const is = (test: (v: Scalar) => boolean) => eager(1, 1, (args, ctx) => liftArgs(args, ctx, (v) => test(v)));

export const logicalFunctions: FunctionTable = {
  IF: lazy(2, 3, ifFn),
  IFS: lazy(2, 254, ifs),
  IFERROR: onError(),
  IFNA: onError("#N/A"),
  CHOOSE: lazy(2, 255, choose),
  SWITCH: lazy(3, 254, switchFn),
  LET: lazy(3, 253, let_),
  AND: connective(true),
  OR: connective(false),
  XOR: eager(1, MANY, (args, ctx) => {
    let n = 0;
    for (const a of args)
      for (const v of elements(a ?? null, ctx)) if (v === true || (typeof v === "number" && v !== 0)) n++;
    return n % 2 === 1;
  }),
  NOT: eager(1, 1, (args, ctx) =>
    liftArgs(args, ctx, (v) => {
      const b = toBool(v);
      return isError(b) ? b : !b;
    }),
  ),
  TRUE: eager(0, 0, () => true),
  FALSE: eager(0, 0, () => false),
  NA: eager(0, 0, () => NA()),
  ISERROR: is((v) => isError(v)),
  ISERR: is((v) => isError(v) && v.code !== "#N/A"),
  ISNA: is((v) => isError(v) && v.code === "#N/A"),
  ISNUMBER: is((v) => typeof v === "number"),
  ISTEXT: is((v) => typeof v === "string"),
  ISNONTEXT: is((v) => typeof v !== "string"),
  ISLOGICAL: is((v) => typeof v === "boolean"),
  ISBLANK: is((v) => v === null),
  ISEVEN: is((v) => typeof v === "number" && Math.trunc(v) % 2 === 0),
  ISODD: is((v) => typeof v === "number" && Math.abs(Math.trunc(v)) % 2 === 1),
  ISREF: eager(1, 1, (args) => args[0] instanceof Ref),
  N: eager(1, 1, (args, ctx) =>
    liftArgs(args, ctx, (v) =>
      typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : isError(v) ? v : 0,
    ),
  ),
  "ERROR.TYPE": eager(1, 1, (args, ctx) =>
    liftArgs(args, ctx, (v) => {
      if (!(v instanceof ExcelError)) return NA();
      const number = ERROR_TYPE_NUMBERS.indexOf(v.code) + 1;
      // The newer codes' numbers are not in the documentation this engine is checked against: not guessed.
      if (number === 0) throw new Unsupported(`uses ERROR.TYPE of ${v.code}`, "ERROR.TYPE");
      return number;
    }),
  ),
};
