import { InvalidArgumentError } from "../../api/errors";
import { choiceArg, fiscalYear, show, wholeNumber } from "./args";
import type { FdqApi } from "./client";
import { datapoint } from "./datapoint";

export interface SeriesArgs {
  ticker?: unknown;
  dataset?: unknown;
  name?: unknown;
  from_year?: unknown;
  to_year?: unknown;
  period?: unknown;
}

/** Most fiscal years one SERIES call may ask for: each year is one request on a cold cache. */
export const MAX_SERIES_YEARS = 50;

interface SeriesPeriod {
  quarter?: number;
  ttm?: number;
}

/** "annual" (or omitted), "Q1".."Q4", "TTM1".."TTM4", any case. */
export function parseSeriesPeriod(value: unknown): SeriesPeriod {
  const text = choiceArg(value, "period");
  if (text === undefined || text === "annual") return {};
  const match = /^(q|ttm)([1-4])$/.exec(text.replace(/\s+/g, ""));
  if (!match) {
    throw new InvalidArgumentError({
      argument: "period",
      message: `period must be annual, Q1..Q4 or TTM1..TTM4 (got ${show(value)}).`,
    });
  }
  const n = Number(match[2]);
  return match[1] === "q" ? { quarter: n } : { ttm: n };
}

/**
 * FDQ.SERIES: one row of values for from_year..to_year. A year without data shows its own error in
 * its cell while the other years show their values; when every year fails, the call fails with the
 * first year's error (a bad key or a bad dataset is one error, not a row of them).
 */
export async function series<E>(
  client: FdqApi,
  args: SeriesArgs,
  toError: (err: unknown) => E,
): Promise<(number | string | E)[][]> {
  const from = wholeNumber(args.from_year, "from_year", "a whole fiscal year such as 2019");
  const to = wholeNumber(args.to_year, "to_year", "a whole fiscal year such as 2023");
  if (to < from) {
    throw new InvalidArgumentError({
      argument: "to_year",
      message: `to_year (${to}) must not be before from_year (${from}).`,
    });
  }
  if (to - from + 1 > MAX_SERIES_YEARS) {
    throw new InvalidArgumentError({
      argument: "to_year",
      message: `from_year..to_year spans ${to - from + 1} years; at most ${MAX_SERIES_YEARS} are allowed.`,
    });
  }
  // After the span checks, which give the clearer reason for a range like 1..2000000.
  fiscalYear(from, "from_year", 2019);
  fiscalYear(to, "to_year", 2023);
  const period = parseSeriesPeriod(args.period);
  const years = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  // Every year's call starts before any is awaited, as one Excel recalculation would start them.
  const settled = await Promise.allSettled(
    years.map((year) =>
      datapoint(client, {
        ticker: args.ticker,
        dataset: args.dataset,
        name: args.name,
        year,
        quarter: period.quarter,
        ttm: period.ttm,
      }),
    ),
  );
  if (settled.every((s) => s.status === "rejected")) throw (settled[0] as PromiseRejectedResult).reason;
  return [settled.map((s) => (s.status === "fulfilled" ? s.value : toError(s.reason)))];
}
