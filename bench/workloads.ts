// The benchmark's formula sets, each the formulas of one Excel recalculation, built from the
// securities and fiscal years the sandbox covers so that every cell has data.
import { findDataset, type Dataset } from "../src/catalog";
import { formatFormula, type FdqCall } from "../src/functions/formula";

export interface Period {
  readonly year: number;
  readonly quarter?: number;
  readonly ttm?: number;
}

export type Formula =
  | {
      readonly fn: "DATAPOINT";
      readonly ticker: string;
      readonly dataset: string;
      readonly name: string;
      readonly period: Period;
    }
  | { readonly fn: "DATASET"; readonly ticker: string; readonly dataset: string; readonly period: Period }
  | {
      readonly fn: "SERIES";
      readonly ticker: string;
      readonly dataset: string;
      readonly name: string;
      readonly fromYear: number;
      readonly toYear: number;
    }
  | { readonly fn: "RATING"; readonly ticker: string; readonly field: string };

/** What one worksheet cell needs from the service: the unit a per-cell client requests. */
export type CellFetch =
  | {
      readonly kind: "datapoint";
      readonly ticker: string;
      readonly dataset: Dataset;
      readonly name: string;
      readonly period: Period;
    }
  | { readonly kind: "rating"; readonly ticker: string; readonly field: string };

export interface Workload {
  readonly id: string;
  readonly title: string;
  readonly formulas: readonly Formula[];
}

export interface Stock {
  readonly ticker: string;
  /** First fiscal year with data. */
  readonly firstYear: number;
}

/** The securities and years the sandbox covers, from which workloads pick so that every cell has data. */
export interface Universe {
  /** In the coverage endpoint's order. */
  readonly stocks: readonly Stock[];
  /** Rated securities (stocks, ETFs, mutual funds) for FDQ.RATING. */
  readonly rated: readonly string[];
  /** The last fiscal year whose annual, quarterly and TTM periods all have data. */
  readonly lastYear: number;
}

export function datasetOf(ref: string): Dataset {
  const dataset = findDataset(ref);
  if (!dataset) throw new Error(`Unknown dataset in a workload: ${ref}`);
  return dataset;
}

/** The cells a formula fills, each with what it needs from the service. */
export function cellFetches(formula: Formula): CellFetch[] {
  switch (formula.fn) {
    case "DATAPOINT":
      return [
        {
          kind: "datapoint",
          ticker: formula.ticker,
          dataset: datasetOf(formula.dataset),
          name: formula.name,
          period: formula.period,
        },
      ];
    case "DATASET": {
      const dataset = datasetOf(formula.dataset);
      return dataset.datapoints.map((p) => ({
        kind: "datapoint",
        ticker: formula.ticker,
        dataset,
        name: p.name,
        period: formula.period,
      }));
    }
    case "SERIES": {
      const dataset = datasetOf(formula.dataset);
      const cells: CellFetch[] = [];
      for (let year = formula.fromYear; year <= formula.toYear; year++) {
        cells.push({
          kind: "datapoint",
          ticker: formula.ticker,
          dataset,
          name: formula.name,
          period: { year },
        });
      }
      return cells;
    }
    case "RATING":
      return [{ kind: "rating", ticker: formula.ticker, field: formula.field }];
  }
}

export function workloadCells(workload: Workload): CellFetch[] {
  return workload.formulas.flatMap(cellFetches);
}

function periodArgs(period: Period): (number | null)[] {
  if (period.ttm !== undefined) return [period.year, null, period.ttm];
  if (period.quarter !== undefined) return [period.year, period.quarter];
  return [period.year];
}

/** The formula as an analyst types it, e.g. `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)`. */
export function formulaText(formula: Formula): string {
  let call: FdqCall;
  switch (formula.fn) {
    case "DATAPOINT":
      call = {
        name: "DATAPOINT",
        args: [formula.ticker, formula.dataset, formula.name, ...periodArgs(formula.period)],
      };
      break;
    case "DATASET":
      call = { name: "DATASET", args: [formula.ticker, formula.dataset, ...periodArgs(formula.period)] };
      break;
    case "SERIES":
      call = {
        name: "SERIES",
        args: [formula.ticker, formula.dataset, formula.name, formula.fromYear, formula.toYear],
      };
      break;
    case "RATING":
      call = { name: "RATING", args: [formula.ticker, formula.field] };
      break;
  }
  return formatFormula(call);
}

/** `count` items spread evenly over `list` (not just its head), in list order. */
export function spread<T>(list: readonly T[], count: number): T[] {
  if (count > list.length)
    throw new Error(`A workload needs ${count} items; the universe has ${list.length}`);
  const picked: T[] = [];
  for (let i = 0; i < count; i++) picked.push(list[Math.floor((i * list.length) / count)] as T);
  return picked;
}

/** The last `count` covered fiscal years, ascending. */
export function lastYears(universe: Universe, count: number): number[] {
  return Array.from({ length: count }, (_, i) => universe.lastYear - count + 1 + i);
}

/** `count` stock tickers, spread over the stocks with data from `fromYear` on. */
export function stocksFrom(universe: Universe, fromYear: number, count: number): string[] {
  const covering = universe.stocks.filter((s) => s.firstYear <= fromYear).map((s) => s.ticker);
  return spread(covering, count);
}

function firstNames(datasetPath: string, count: number): string[] {
  const names = datasetOf(datasetPath).datapoints.map((p) => p.name);
  if (count > names.length) throw new Error(`${datasetPath} lists ${names.length} datapoints, not ${count}`);
  return names.slice(0, count);
}

/** Laid out like a model sheet: a block per ticker, a row per datapoint, a column per year. */
function grid(
  tickers: readonly string[],
  datasets: readonly string[],
  namesPerDataset: number,
  periods: readonly Period[],
): Formula[] {
  const formulas: Formula[] = [];
  for (const ticker of tickers) {
    for (const dataset of datasets) {
      for (const name of firstNames(dataset, namesPerDataset)) {
        for (const period of periods) formulas.push({ fn: "DATAPOINT", ticker, dataset, name, period });
      }
    }
  }
  return formulas;
}

export const W1_DATASETS = [
  "metrics/roic",
  "screens/traditional",
  "reconciliation/book-value-to-invested-capital",
] as const;

/** W1 a model: 50 tickers x 10 fiscal years x 3 datasets x 15 datapoints. */
export function modelWorkload(universe: Universe): Workload {
  const years = lastYears(universe, 10);
  return {
    id: "W1",
    title: "model: 50 tickers x 10 years x 3 datasets x 15 datapoints",
    formulas: grid(
      stocksFrom(universe, years[0] as number, 50),
      W1_DATASETS,
      15,
      years.map((year) => ({ year })),
    ),
  };
}

/** W2 a screen: 2,700 tickers x 1 year x 5 datapoints of screens/enhanced. */
export function screenWorkload(universe: Universe): Workload {
  return {
    id: "W2",
    title: "screen: 2,700 tickers x 1 year x 5 datapoints of screens/enhanced",
    formulas: grid(stocksFrom(universe, universe.lastYear, 2700), ["screens/enhanced"], 5, [
      { year: universe.lastYear },
    ]),
  };
}

/** W3 ratings: 3,000 securities x FDQ.RATING overall. */
export function ratingsWorkload(universe: Universe): Workload {
  return {
    id: "W3",
    title: "ratings: 3,000 securities x FDQ.RATING overall",
    formulas: spread(universe.rated, 3000).map((ticker) => ({ fn: "RATING", ticker, field: "overall" })),
  };
}

/**
 * W4 a mix over 20 tickers: quarterly and TTM cells, 10-year FDQ.SERIES (one of them over reported
 * fundamentals, which has no all-datapoints mode), whole-dataset FDQ.DATASET spills, and annual cells
 * that overlap the series and the spills as models do.
 */
export function mixWorkload(universe: Universe): Workload {
  const last = universe.lastYear;
  const [first, before] = [last - 9, last - 1];
  const tickers = stocksFrom(universe, first, 20);
  const quarters: Period[] = [before, last].flatMap((year) =>
    [1, 2, 3, 4].map((quarter) => ({ year, quarter })),
  );
  const ttms: Period[] = [1, 2, 3, 4].map((ttm) => ({ year: last, ttm }));
  const formulas: Formula[] = [];
  for (const ticker of tickers) {
    formulas.push(...grid([ticker], ["metrics/roic"], 5, quarters));
    formulas.push(...grid([ticker], ["metrics/roic"], 5, ttms));
    for (const name of firstNames("screens/traditional", 3)) {
      formulas.push({
        fn: "SERIES",
        ticker,
        dataset: "screens/traditional",
        name,
        fromYear: first,
        toYear: last,
      });
    }
    for (const name of firstNames("fundamentals/reported", 2)) {
      formulas.push({
        fn: "SERIES",
        ticker,
        dataset: "fundamentals/reported",
        name,
        fromYear: first,
        toYear: last,
      });
    }
    formulas.push({
      fn: "DATASET",
      ticker,
      dataset: "reconciliation/market-value-to-ev",
      period: { year: last },
    });
    formulas.push({ fn: "DATASET", ticker, dataset: "metrics/ebv", period: { year: last, quarter: 4 } });
    formulas.push(
      ...grid([ticker], ["reconciliation/market-value-to-ev", "screens/traditional"], 2, [{ year: last }]),
    );
  }
  return { id: "W4", title: "mix: 20 tickers, quarters, TTM, FDQ.SERIES and FDQ.DATASET", formulas };
}

/**
 * M1's datasets and how many of their first names the model asks. No dataset is asked whole, so under
 * per-datapoint billing every cell is its own request. screens/enhanced's first 9 names hold two (SP)
 * names (BOOK_VALUE_ECONOMIC, ENTERPRISE_VALUE): 2 of the 90 rows, 2.2% of the cells.
 */
export const M1_SHAPE: ReadonlyArray<readonly [string, number]> = [
  ["metrics/roic", 18],
  ["screens/traditional", 23],
  ["reconciliation/net-income-to-nopat-detailed", 40],
  ["screens/enhanced", 9],
];
export const M1_TICKERS = 3;

/**
 * M1 a model refreshed every trading day of a month (bench/month.ts): 3 tickers x 10 fiscal years x 90
 * names from 4 datasets (2,700 cells), laid out as W1 is.
 */
export function monthModelWorkload(universe: Universe): Workload {
  const years = lastYears(universe, 10);
  const formulas: Formula[] = [];
  for (const ticker of stocksFrom(universe, years[0] as number, M1_TICKERS)) {
    for (const [dataset, count] of M1_SHAPE) {
      for (const name of firstNames(dataset, count)) {
        for (const year of years) formulas.push({ fn: "DATAPOINT", ticker, dataset, name, period: { year } });
      }
    }
  }
  const names = M1_SHAPE.reduce((n, [, count]) => n + count, 0);
  return {
    id: "M1",
    title: `month: ${M1_TICKERS} tickers x 10 years x ${names} names of 4 datasets, 21 daily refreshes`,
    formulas,
  };
}

/** The workloads of one recalculation each, timed against the lower bound (bench/run.ts). */
export const WORKLOAD_IDS = ["W1", "W2", "W3", "W4"] as const;
export type WorkloadId = (typeof WORKLOAD_IDS)[number];
/** The month of daily refreshes, measured in quota units (bench/month.ts). */
export const MONTH_WORKLOAD_ID = "M1";

export function buildWorkload(id: WorkloadId, universe: Universe): Workload {
  switch (id) {
    case "W1":
      return modelWorkload(universe);
    case "W2":
      return screenWorkload(universe);
    case "W3":
      return ratingsWorkload(universe);
    case "W4":
      return mixWorkload(universe);
  }
}
