// Text functions, lifted over arrays. TEXT knows the common number formats (0, 0.00, #,##0, 0%, 0.0E+00 and
// yyyy-mm-dd style dates); any other format is reported, not guessed.
import type { Scalar } from "../../model";
import { liftArgs, type Args, type Context } from "../context";
import {
  isError,
  numberOfText,
  Ref,
  Arr,
  toBool,
  toNumber,
  toText,
  Unsupported,
  VALUE,
  type Value,
} from "../values";
import { elements } from "./collect";
import { formatDate } from "./date";
import { eager, MANY, type FunctionTable } from "./table";

type TextFn = (...xs: Scalar[]) => Scalar;

const text = (min: number, max: number, fn: TextFn) =>
  eager(min, max, (args: Args, ctx: Context): Value => {
    const filled = Array.from({ length: max }, (_, i): Value | undefined =>
      i < args.length ? (args[i] ?? null) : undefined,
    );
    return liftArgs(
      filled.map((v) => v ?? null),
      ctx,
      (...xs) => {
        const e = xs.find(isError);
        return e ?? fn(...xs.map((x, i) => (i < args.length ? x : undefined) as Scalar));
      },
    );
  });

const str = (v: Scalar): string => toText(v) as string;
const int = (v: Scalar | undefined, fallback: number): number | undefined => {
  if (v === undefined) return fallback;
  const n = toNumber(v);
  return isError(n) ? undefined : Math.trunc(n);
};

function substitute(s: Scalar, from: Scalar, to: Scalar, nth: Scalar | undefined): Scalar {
  const [t, f, r] = [str(s), str(from), str(to)];
  if (f === "") return t;
  if (nth === undefined) return t.split(f).join(r);
  const n = int(nth, 1);
  if (n === undefined || n < 1) return VALUE();
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = t.indexOf(f, at + 1);
    if (at < 0) return t;
  }
  return t.slice(0, at) + r + t.slice(at + f.length);
}

function numberFormat(n: number, format: string): Scalar {
  const f = format.trim();
  if (/[ymdhs]/i.test(f) && !/[0#]/.test(f)) {
    // Years, months and days only: hours, minutes ("m" after "h"), seconds, weekday names (ddd), AM/PM, quoted
    // text and locale codes are reported.
    if (!/^(?:yyyy|yy|mmmm|mmm|mm|m|dd|d|[-/ .,])+$/i.test(f) || /d{3}|m{5}/i.test(f))
      throw new Unsupported(`uses TEXT with the format "${format}"`, "TEXT");
    return formatDate(n, f);
  }
  const m = /^(#,##)?(0+)(\.(0+))?(%?)$/.exec(f) ?? /^(#,##)?(0+)(\.(0+))?(E\+00)$/i.exec(f);
  if (!m) {
    if (f.toLowerCase() === "general" || f === "@") return toText(n);
    throw new Unsupported(`uses TEXT with the format "${format}"`, "TEXT");
  }
  const decimals = m[4]?.length ?? 0;
  if (m[5]?.toUpperCase() === "E+00") {
    const [mant, exp] = n.toExponential(decimals).split("e") as [string, string];
    const e = Number(exp);
    return `${mant}E${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  const value = m[5] === "%" ? n * 100 : n;
  const fixed = (Math.round(Math.abs(value) * 10 ** decimals + 1e-9) / 10 ** decimals).toFixed(decimals);
  const [digits, frac] = fixed.split(".") as [string, string | undefined];
  let whole = digits.padStart((m[2] as string).length, "0");
  if (m[1]) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = value < 0 && Number(fixed) !== 0 ? "-" : "";
  return `${sign}${whole}${frac !== undefined ? `.${frac}` : ""}${m[5] ?? ""}`;
}

function textjoin(args: Args, ctx: Context): Value {
  const delimiter = elements(args[0] ?? null, ctx).map((v) => toText(v));
  const bad = delimiter.find(isError);
  if (bad) return bad;
  const ignore = toBool(elements(args[1] ?? null, ctx)[0] ?? null);
  if (isError(ignore)) return ignore;
  const parts: string[] = [];
  for (const a of args.slice(2)) {
    for (const v of elements(a ?? null, ctx)) {
      const t = toText(v);
      if (isError(t)) return t;
      if (ignore && t === "") continue;
      parts.push(t);
    }
  }
  const delims = delimiter as string[];
  let out = parts[0] ?? "";
  for (let i = 1; i < parts.length; i++) out += (delims[(i - 1) % delims.length] ?? "") + parts[i];
  return out.length > 32767 ? VALUE() : out;
}

function concat(args: Args, ctx: Context): Value {
  let out = "";
  for (const a of args) {
    for (const v of elements(a ?? null, ctx)) {
      const t = toText(v);
      if (isError(t)) return t;
      out += t;
    }
  }
  return out;
}

export const textFunctions: FunctionTable = {
  UPPER: text(1, 1, (s) => str(s).toUpperCase()),
  LOWER: text(1, 1, (s) => str(s).toLowerCase()),
  PROPER: text(1, 1, (s) =>
    str(s)
      .toLowerCase()
      .replace(/(^|[^\p{L}])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase()),
  ),
  TRIM: text(1, 1, (s) => str(s).trim().replace(/ {2,}/g, " ")),
  LEN: text(1, 1, (s) => str(s).length),
  LEFT: text(1, 2, (s, n) => {
    const k = int(n, 1);
    return k === undefined || k < 0 ? VALUE() : str(s).slice(0, k);
  }),
  RIGHT: text(1, 2, (s, n) => {
    const k = int(n, 1);
    return k === undefined || k < 0 ? VALUE() : k === 0 ? "" : str(s).slice(-k);
  }),
  MID: text(3, 3, (s, start, n) => {
    const [a, k] = [int(start, 1), int(n, 0)];
    return a === undefined || k === undefined || a < 1 || k < 0 ? VALUE() : str(s).slice(a - 1, a - 1 + k);
  }),
  REPT: text(2, 2, (s, n) => {
    const k = int(n, 0);
    return k === undefined || k < 0 ? VALUE() : str(s).repeat(k);
  }),
  EXACT: text(2, 2, (a, b) => str(a) === str(b)),
  FIND: text(2, 3, (f, s, start) => {
    const a = int(start, 1);
    if (a === undefined || a < 1) return VALUE();
    const i = str(s).indexOf(str(f), a - 1);
    return i < 0 ? VALUE() : i + 1;
  }),
  SEARCH: text(2, 3, (f, s, start) => {
    const a = int(start, 1);
    if (a === undefined || a < 1) return VALUE();
    const i = str(s)
      .toLowerCase()
      .indexOf(str(f).toLowerCase(), a - 1);
    return i < 0 ? VALUE() : i + 1;
  }),
  SUBSTITUTE: text(3, 4, substitute),
  REPLACE: text(4, 4, (s, start, n, r) => {
    const [a, k] = [int(start, 1), int(n, 0)];
    if (a === undefined || k === undefined || a < 1 || k < 0) return VALUE();
    const t = str(s);
    return t.slice(0, a - 1) + str(r) + t.slice(a - 1 + k);
  }),
  VALUE: text(1, 1, (s) => {
    if (typeof s === "number") return s;
    const n = numberOfText(str(s));
    return n === undefined ? VALUE() : n;
  }),
  TEXT: text(2, 2, (v, f) => {
    const n = typeof v === "string" ? (numberOfText(v) ?? v) : toNumber(v);
    if (typeof n === "string") return n;
    return isError(n) ? n : numberFormat(n, str(f));
  }),
  T: text(1, 1, (v) => (typeof v === "string" ? v : "")),
  CONCAT: eager(1, MANY, concat),
  CONCATENATE: eager(1, MANY, (args, ctx) =>
    liftArgs(
      args.map((a) => (a instanceof Ref || a instanceof Arr ? a : (a ?? null))),
      ctx,
      (...xs) => {
        const e = xs.find(isError);
        return e ?? xs.map(str).join("");
      },
    ),
  ),
  TEXTJOIN: eager(3, MANY, textjoin, true),
};
