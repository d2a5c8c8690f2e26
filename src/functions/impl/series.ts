import { InvalidArgumentError, NotCachedError } from "../../api";
import { isPeriodNumber, PERIOD_NUMBERS, relativeText, type RelativePeriod } from "../../catalog";
import { choiceArg, fiscalYear, seriesBound, show } from "./args";
import { forwarded, type FdqApi } from "./client";
import { datapoint } from "./datapoint";
import type { DoubleValue } from "../cell-values";
import { tickerArg } from "./ticker-arg";

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

/** The period's texts in messages, from the catalog's quarter numbers: "annual, Q1..Q4 or TTM1..TTM4". */
const FIRST = PERIOD_NUMBERS[0];
const LAST = PERIOD_NUMBERS[PERIOD_NUMBERS.length - 1];
export const SERIES_PERIOD_WORDS = `annual, Q${FIRST}..Q${LAST} or TTM${FIRST}..TTM${LAST}`;

/** "annual" (or omitted), "Q1".."Q4", "TTM1".."TTM4" (the catalog's period numbers), any case. */
export function parseSeriesPeriod(value: unknown): SeriesPeriod {
  const text = choiceArg(value, "period");
  if (text === undefined || text === "annual") return {};
  const match = /^(q|ttm)([1-9]\d*)$/.exec(text.replace(/\s+/g, ""));
  const n = Number(match?.[2]);
  if (!match || !isPeriodNumber(n)) {
    throw new InvalidArgumentError({
      argument: "period",
      message: `period must be ${SERIES_PERIOD_WORDS} (got ${show(value)}).`,
    });
  }
  return match[1] === "q" ? { quarter: n } : { ttm: n };
}

/**
 * The years (or relative periods) of a SERIES, from its bounds: two fiscal years; two relative periods of one
 * basis (FY-9..FY0, FQ-7..FQ0); or a fiscal year and an FY period, resolved first by asking the relative
 * bound (`resolveYear`, which answers the fiscal year FY-n names today).
 */
async function seriesYears(
  from: number | RelativePeriod,
  to: number | RelativePeriod,
  resolveYear: (r: RelativePeriod) => Promise<number>,
): Promise<(number | RelativePeriod)[]> {
  if (typeof from !== "number" && typeof to !== "number") {
    if (from.basis !== to.basis) {
      throw new InvalidArgumentError({
        argument: "to_year",
        message: `from_year and to_year must count from the same latest period (got ${relativeText(from)} and ${relativeText(to)}).`,
      });
    }
    checkSpan(from.offset, to.offset, relativeText(from), relativeText(to));
    return Array.from({ length: to.offset - from.offset + 1 }, (_, i) => ({
      relative: true as const,
      basis: from.basis,
      offset: from.offset + i,
    }));
  }
  // Two plain checks rather than a destructuring loop (the iterator protocol, once per cell).
  for (const argument of ["from_year", "to_year"] as const) {
    const bound = argument === "from_year" ? from : to;
    if (typeof bound !== "number" && bound.basis !== "FY") {
      throw new InvalidArgumentError({
        argument,
        message: `${argument} ${relativeText(bound)} counts quarters: a series from a fiscal year needs FY periods (FY-n) or years.`,
      });
    }
  }
  const first = typeof from === "number" ? from : await resolveYear(from);
  const last = typeof to === "number" ? to : await resolveYear(to);
  checkSpan(first, last, String(first), String(last));
  // After the span checks, which give the clearer reason for a range like 1..2000000.
  fiscalYear(first, "from_year", 2019);
  fiscalYear(last, "to_year", 2023);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function checkSpan(from: number, to: number, fromText: string, toText: string): void {
  if (to < from) {
    throw new InvalidArgumentError({
      argument: "to_year",
      message: `to_year (${toText}) must not be before from_year (${fromText}).`,
    });
  }
  if (to - from + 1 > MAX_SERIES_YEARS) {
    throw new InvalidArgumentError({
      argument: "to_year",
      message: `from_year..to_year spans ${to - from + 1} years; at most ${MAX_SERIES_YEARS} are allowed.`,
    });
  }
}

/**
 * FDQ.SERIES: one row of values for from_year..to_year, fixed years or relative periods ("FY-9".."FY0",
 * "FQ-7".."FQ0", or a year and an FY period). A year without data shows its own error in its cell while the
 * other years show their values; when every year fails, the call fails with the first year's error (a bad
 * key or a bad dataset is one error, not a row of them), or, where years were refused by a cache-only read
 * (a value preview), with one refusal priced at all of theirs.
 */
export async function series<E>(
  client: FdqApi,
  args: SeriesArgs,
  toError: (err: unknown) => E,
  withSource = false,
): Promise<(number | string | DoubleValue | E)[][]> {
  const ticker = tickerArg(args.ticker);
  const from = seriesBound(args.from_year, "from_year", 2019);
  const to = seriesBound(args.to_year, "to_year", 2023);
  const period = parseSeriesPeriod(args.period);
  const ask = (year: number | RelativePeriod) =>
    datapoint(
      client,
      {
        ticker,
        dataset: args.dataset,
        name: args.name,
        year,
        quarter: period.quarter,
        ttm: period.ttm,
      },
      withSource,
    );
  const years = await seriesYears(from, to, async (r) => {
    // The relative bound's own value: asking it resolves the year it names (and caches the answer).
    const result = await client.datapoint({
      ticker: forwarded(ticker),
      dataset: forwarded(args.dataset),
      name: forwarded(args.name),
      year: r,
      quarter: period.quarter ?? null,
      ttm: period.ttm ?? null,
    });
    return result.resolved?.year ?? result.record.year;
  });
  // Every year's call starts before any is awaited, as one Excel recalculation would start them.
  const settled = await Promise.allSettled(years.map(ask));
  if (settled.every((s) => s.status === "rejected")) {
    const reasons = settled.map((s) => (s as PromiseRejectedResult).reason as unknown);
    const refused = reasons.filter((r): r is NotCachedError => r instanceof NotCachedError);
    throw refused.length > 0 ? NotCachedError.joined(refused) : reasons[0];
  }
  return [settled.map((s) => (s.status === "fulfilled" ? s.value : toError(s.reason)))];
}
