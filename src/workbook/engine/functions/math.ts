// Scalar maths, lifted over arrays (context.ts's liftArgs). ROUND rounds half away from zero on the decimal
// value Excel shows (2.675 -> 2.68), not on the binary one.
import type { Scalar } from "../../model";
import { liftArgs, type Args, type Context } from "../context";
import { checked, DIV0, isError, NUM, toNumber, type Value } from "../values";
import { eager, type FunctionTable } from "./table";

type NumFn = (...xs: number[]) => Scalar;

/** A function of numbers lifted over its arguments; an omitted argument is `defaults[i]`. */
const numeric = (min: number, max: number, fn: NumFn, defaults: readonly number[] = []) =>
  eager(min, max, (args: Args, ctx: Context): Value => {
    const filled = Array.from({ length: max }, (_, i): Value => args[i] ?? defaults[i] ?? null);
    return liftArgs(filled, ctx, (...scalars) => {
      const xs: number[] = [];
      for (const s of scalars) {
        const n = toNumber(s);
        if (isError(n)) return n;
        xs.push(n);
      }
      const out = fn(...xs);
      return typeof out === "number" ? checked(out) : out;
    });
  });

/** x scaled by 10^digits, corrected to the 15 significant digits Excel works with. */
const scaled = (x: number, digits: number): number => Number((x * 10 ** digits).toPrecision(15));

function round(x: number, digits: number, mode: "half" | "up" | "down"): number {
  const d = Math.trunc(digits);
  const s = scaled(Math.abs(x), d);
  const r = mode === "half" ? Math.floor(s + 0.5) : mode === "up" ? Math.ceil(s) : Math.floor(s);
  return (Math.sign(x) * r) / 10 ** d;
}

function multiple(x: number, m: number, up: boolean): Scalar {
  if (m === 0) return up ? 0 : DIV0();
  if (x > 0 && m < 0) return NUM();
  const q = scaled(x / m, 0);
  return (up ? Math.ceil(q) : Math.floor(q)) * m;
}

export const mathFunctions: FunctionTable = {
  ABS: numeric(1, 1, Math.abs),
  ROUND: numeric(2, 2, (x, d) => round(x, d, "half")),
  ROUNDUP: numeric(2, 2, (x, d) => round(x, d, "up")),
  ROUNDDOWN: numeric(2, 2, (x, d) => round(x, d, "down")),
  TRUNC: numeric(1, 2, (x, d) => round(x, d, "down"), [0, 0]),
  INT: numeric(1, 1, Math.floor),
  MOD: numeric(2, 2, (x, m) => (m === 0 ? DIV0() : x - m * Math.floor(x / m))),
  POWER: numeric(2, 2, (x, y) => (x === 0 && y < 0 ? DIV0() : x ** y)),
  SQRT: numeric(1, 1, (x) => (x < 0 ? NUM() : Math.sqrt(x))),
  EXP: numeric(1, 1, Math.exp),
  LN: numeric(1, 1, (x) => (x <= 0 ? NUM() : Math.log(x))),
  LOG10: numeric(1, 1, (x) => (x <= 0 ? NUM() : Math.log10(x))),
  LOG: numeric(1, 2, (x, b) => (x <= 0 || b <= 0 || b === 1 ? NUM() : Math.log(x) / Math.log(b)), [0, 10]),
  SIGN: numeric(1, 1, Math.sign),
  CEILING: numeric(2, 2, (x, m) => multiple(x, m, true)),
  FLOOR: numeric(2, 2, (x, m) => multiple(x, m, false)),
  "CEILING.MATH": numeric(1, 2, (x, m) => multiple(x, Math.abs(m), true), [0, 1]),
  "FLOOR.MATH": numeric(1, 2, (x, m) => multiple(x, Math.abs(m), false), [0, 1]),
  MROUND: numeric(2, 2, (x, m) => (m === 0 ? 0 : x * m < 0 ? NUM() : round(x / m, 0, "half") * m)),
  PI: eager(0, 0, () => Math.PI),
  EVEN: numeric(1, 1, (x) => Math.sign(x) * Math.ceil(Math.abs(x) / 2) * 2),
  ODD: numeric(1, 1, (x) => {
    const c = Math.ceil(Math.abs(x));
    return Math.sign(x || 1) * (c % 2 === 1 ? c : c + 1);
  }),
};
