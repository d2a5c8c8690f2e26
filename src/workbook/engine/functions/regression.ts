// Linear regression over pairs of numbers (SLOPE, INTERCEPT, FORECAST, TREND, CORREL, RSQ): pairs where
// either side is not a number are left out, an error in either is the result, as in Excel.
import type { ExcelError, Scalar } from "../../model";
import { toArr, type Args, type Context } from "../context";
import { Arr, DIV0, isError, NA, REF, type Value } from "../values";
import { num } from "./collect";
import { eager, type FunctionTable } from "./table";

interface Fit {
  readonly slope: number;
  readonly intercept: number;
  readonly r: number;
}

function pairs(
  ys: Value | undefined,
  xs: Value | undefined,
  ctx: Context,
): [number[], number[]] | ExcelError {
  const a = toArr(ys ?? null, ctx).rows.flat();
  const b = toArr(xs ?? null, ctx).rows.flat();
  if (a.length !== b.length) return NA();
  const py: number[] = [];
  const px: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const [y, x] = [a[i] ?? null, b[i] ?? null];
    if (isError(y)) return y;
    if (isError(x)) return x;
    if (typeof y === "number" && typeof x === "number") {
      py.push(y);
      px.push(x);
    }
  }
  return [py, px];
}

function fit(ys: number[], xs: number[]): Fit | ExcelError {
  const n = xs.length;
  if (n === 0) return DIV0();
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0) return DIV0();
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx, r: syy === 0 ? NaN : sxy / Math.sqrt(sxx * syy) };
}

const fitted = (pick: (f: Fit) => number, ysAt = 0, xsAt = 1) =>
  eager(
    2,
    2,
    (args, ctx): Value => {
      const p = pairs(args[ysAt], args[xsAt], ctx);
      if (isError(p)) return p;
      const f = fit(...p);
      if (isError(f)) return f;
      const v = pick(f);
      return Number.isFinite(v) ? v : DIV0();
    },
    true,
  );

function forecast(args: Args, ctx: Context): Value {
  const x = num(args[0], ctx);
  if (isError(x)) return x;
  const p = pairs(args[1], args[2], ctx);
  if (isError(p)) return p;
  const f = fit(...p);
  return isError(f) ? f : f.intercept + f.slope * x;
}

/** TREND(known_ys, [known_xs], [new_xs], [const]): one regressor; the values at new_xs in new_xs's shape. */
function trend(args: Args, ctx: Context): Value {
  const ys = toArr(args[0] ?? null, ctx);
  const count = ys.height * ys.width;
  const index = new Arr(ys.rows.map((row, r) => row.map((_, c) => r * ys.width + c + 1)));
  const xs = args[1] === undefined ? index : toArr(args[1], ctx);
  if (xs.height * xs.width !== count) {
    if (xs.height === ys.height || xs.width === ys.width) return REF();
    return REF();
  }
  const p = pairs(ys, xs, ctx);
  if (isError(p)) return p;
  const withConst = args[3] === undefined || num(args[3], ctx) !== 0;
  let f: Fit | ExcelError;
  if (withConst) f = fit(...p);
  else {
    const [y, x] = p;
    const sxy = x.reduce((s, v, i) => s + v * (y[i] as number), 0);
    const sxx = x.reduce((s, v) => s + v * v, 0);
    f = sxx === 0 ? DIV0() : { slope: sxy / sxx, intercept: 0, r: NaN };
  }
  if (isError(f)) return f;
  const fitOk = f;
  const at = args[2] === undefined ? xs : toArr(args[2], ctx);
  const rows = at.rows.map((row) =>
    row.map((x): Scalar =>
      typeof x === "number" ? fitOk.intercept + fitOk.slope * x : isError(x) ? x : NA(),
    ),
  );
  return rows.length === 1 && rows[0]?.length === 1 ? (rows[0][0] ?? null) : new Arr(rows);
}

export const regressionFunctions: FunctionTable = {
  SLOPE: fitted((f) => f.slope),
  INTERCEPT: fitted((f) => f.intercept),
  CORREL: fitted((f) => f.r, 0, 1),
  PEARSON: fitted((f) => f.r, 0, 1),
  RSQ: fitted((f) => f.r * f.r),
  FORECAST: eager(3, 3, forecast, [1, 2]),
  "FORECAST.LINEAR": eager(3, 3, forecast, [1, 2]),
  TREND: eager(1, 4, trend, true),
};
