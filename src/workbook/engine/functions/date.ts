// Dates as Excel's serial numbers (1900 system, with its fictitious 29 February 1900 kept so serials match
// Excel's; a 1904 workbook is shifted by 1462 days). TODAY and NOW are deliberately absent: a refresh must not
// write the clock into a model, so a formula using them that should change is reported.
import type { Scalar } from "../../model";
import { liftArgs, type Args, type Context } from "../context";
import { isError, NUM, toNumber, type Value } from "../values";
import { eager, type FunctionTable } from "./table";

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(1899, 11, 30);

/** A serial (1900 system) as a UTC date; serials before 1 March 1900 count Excel's 29 February 1900. */
export function dateOfSerial(serial: number): Date {
  const days = Math.floor(serial);
  return new Date(EPOCH + (days < 61 ? days + 1 : days) * DAY_MS);
}

export function serialOf(year: number, month: number, day: number): number {
  const ms = Date.UTC(year, month - 1, day);
  const days = Math.round((ms - EPOCH) / DAY_MS);
  return days < 61 ? days - 1 : days;
}

const shift = (ctx: Context): number => (ctx.host.date1904 ? 1462 : 0);

type DateFn = (ctx: Context, ...xs: number[]) => Scalar;

const dated = (min: number, max: number, fn: DateFn) =>
  eager(min, max, (args: Args, ctx: Context): Value =>
    liftArgs(
      Array.from({ length: max }, (_, i) => args[i] ?? null),
      ctx,
      (...xs) => {
        const ns: number[] = [];
        for (const x of xs) {
          const n = toNumber(x);
          if (isError(n)) return n;
          ns.push(n);
        }
        return fn(ctx, ...ns);
      },
    ),
  );

const part =
  (pick: "year" | "month" | "day"): DateFn =>
  (ctx, serial) => {
    const s = Math.floor(serial + shift(ctx));
    if (s < 0) return NUM();
    // Serial 0 is Excel's 0 January 1900 and 60 its 29 February 1900.
    if (s === 0 || s === 60) return pick === "year" ? 1900 : pick === "month" ? (s ? 2 : 1) : s ? 29 : 0;
    const d = dateOfSerial(s);
    return pick === "year" ? d.getUTCFullYear() : pick === "month" ? d.getUTCMonth() + 1 : d.getUTCDate();
  };

function date(ctx: Context, y: number, m: number, d: number): Scalar {
  let yy = Math.trunc(y);
  if (yy < 1900) yy += 1900;
  if (yy < 1900 || yy > 9999) return NUM();
  const s = serialOf(yy, Math.trunc(m), Math.trunc(d)) - shift(ctx);
  return s < 0 ? NUM() : s;
}

function addMonths(ctx: Context, serial: number, months: number, endOfMonth: boolean): Scalar {
  const d = dateOfSerial(serial + shift(ctx));
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1 + Math.trunc(months);
  if (endOfMonth) return serialOf(y, m + 1, 0) - shift(ctx);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return serialOf(y, m, Math.min(d.getUTCDate(), last)) - shift(ctx);
}

/** A serial as text for TEXT's date formats (yyyy, yy, mm, m, dd, d, mmm, mmmm). */
export function formatDate(serial: number, format: string): string {
  const d = dateOfSerial(serial);
  const names = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ];
  return format.replace(/yyyy|yy|mmmm|mmm|mm|m|dd|d/gi, (token) => {
    const t = token.toLowerCase();
    const mon = d.getUTCMonth();
    switch (t) {
      case "yyyy":
        return String(d.getUTCFullYear());
      case "yy":
        return String(d.getUTCFullYear() % 100).padStart(2, "0");
      case "mmmm":
        return names[mon] as string;
      case "mmm":
        return (names[mon] as string).slice(0, 3);
      case "mm":
        return String(mon + 1).padStart(2, "0");
      case "m":
        return String(mon + 1);
      case "dd":
        return String(d.getUTCDate()).padStart(2, "0");
      default:
        return String(d.getUTCDate());
    }
  });
}

export const dateFunctions: FunctionTable = {
  DATE: dated(3, 3, date),
  YEAR: dated(1, 1, part("year")),
  MONTH: dated(1, 1, part("month")),
  DAY: dated(1, 1, part("day")),
  EDATE: dated(2, 2, (ctx, s, m) => addMonths(ctx, s, m, false)),
  EOMONTH: dated(2, 2, (ctx, s, m) => addMonths(ctx, s, m, true)),
};
