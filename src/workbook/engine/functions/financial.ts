// Financial functions. The maths is @formulajs/formulajs's (MIT, maintained; its NPV, IRR, XNPV, XIRR, PMT,
// PV, FV, RATE, NPER and MIRR follow Excel's definitions, Newton's method with Excel's default guesses and
// iteration limits): this module only gives it clean numbers read with Excel's rules (an error in the values
// is the result, text in a range is skipped) and turns its failures into #NUM!/#VALUE!.
import * as formulajs from "@formulajs/formulajs";
import type { ExcelError, Scalar } from "../../model";
import type { Args, Context } from "../context";
import { checked, isError, NUM, VALUE, type Value } from "../values";
import { num, numbers } from "./collect";
import { eager, MANY, type FunctionTable } from "./table";

/** formulajs's answer as an Excel value: its Error objects carry Excel's code as their message. */
function result(v: unknown): Scalar {
  if (typeof v === "number") return checked(v);
  if (v instanceof Error) return v.message === "#VALUE!" ? VALUE() : NUM();
  return NUM();
}

/** The scalar numeric arguments, in order (omitted ones as `defaults`); the first error met. */
function scalars(args: Args, ctx: Context, defaults: readonly number[]): number[] | ExcelError {
  const out: number[] = [];
  for (let i = 0; i < Math.max(args.length, defaults.length); i++) {
    const n = num(args[i], ctx, defaults[i] ?? 0);
    if (isError(n)) return n;
    out.push(n);
  }
  return out;
}

type Fn = (...xs: number[]) => unknown;

/** PMT(rate, nper, pv, [fv], [type]) and its kin. */
const annuity = (fn: Fn, count: number) =>
  eager(3, 5, (args, ctx): Value => {
    const xs = scalars(args, ctx, [0, 0, 0, 0, 0].slice(0, Math.max(count, args.length)));
    return isError(xs) ? xs : result(fn(...xs));
  });

function npv(args: Args, ctx: Context): Value {
  const rate = num(args[0], ctx);
  if (isError(rate)) return rate;
  const values = numbers(args.slice(1), ctx);
  if (isError(values)) return values;
  return result(formulajs.NPV(rate, ...values));
}

function irr(args: Args, ctx: Context): Value {
  const values = numbers([args[0]], ctx);
  if (isError(values)) return values;
  const guess = num(args[1], ctx, 0.1);
  if (isError(guess)) return guess;
  return result(formulajs.IRR(values, guess));
}

function mirr(args: Args, ctx: Context): Value {
  const values = numbers([args[0]], ctx);
  if (isError(values)) return values;
  const [finance, reinvest] = [num(args[1], ctx), num(args[2], ctx)];
  if (isError(finance)) return finance;
  if (isError(reinvest)) return reinvest;
  return result(formulajs.MIRR(values, finance, reinvest));
}

/** XNPV(rate, values, dates) and XIRR(values, dates, [guess]): values and dates of one length. */
function dated(args: Args, ctx: Context, first: number): { values: number[]; dates: number[] } | ExcelError {
  const values = numbers([args[first]], ctx);
  if (isError(values)) return values;
  const dates = numbers([args[first + 1]], ctx);
  if (isError(dates)) return dates;
  if (values.length !== dates.length || values.length === 0) return NUM();
  return { values, dates: dates.map(Math.trunc) };
}

function xnpv(args: Args, ctx: Context): Value {
  const rate = num(args[0], ctx);
  if (isError(rate)) return rate;
  const flows = dated(args, ctx, 1);
  if (isError(flows)) return flows;
  return result(formulajs.XNPV(rate, flows.values, flows.dates));
}

function xirr(args: Args, ctx: Context): Value {
  const flows = dated(args, ctx, 0);
  if (isError(flows)) return flows;
  const guess = num(args[2], ctx, 0.1);
  if (isError(guess)) return guess;
  return result(formulajs.XIRR(flows.values, flows.dates, guess));
}

function rate(args: Args, ctx: Context): Value {
  const xs = scalars(args, ctx, [0, 0, 0, 0, 0, 0.1]);
  if (isError(xs)) return xs;
  return result(formulajs.RATE(...(xs as [number, number, number, number, number, number])));
}

export const financialFunctions: FunctionTable = {
  NPV: eager(2, MANY, npv),
  IRR: eager(1, 2, irr, [0]),
  MIRR: eager(3, 3, mirr, [0]),
  XNPV: eager(3, 3, xnpv, [1, 2]),
  XIRR: eager(2, 3, xirr, [0, 1]),
  PMT: annuity((r, n, pv, fv, t) => formulajs.PMT(r, n, pv, fv, t), 5),
  PV: annuity((r, n, p, fv, t) => formulajs.PV(r, n, p, fv, t), 5),
  FV: annuity((r, n, p, pv, t) => formulajs.FV(r, n, p, pv, t), 5),
  NPER: annuity((r, p, pv, fv, t) => formulajs.NPER(r, p, pv, fv, t), 5),
  RATE: eager(3, 6, rate),
};
