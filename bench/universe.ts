// The benchmark's universe, read from the sandbox's own universe module (no request is spent on it):
// every stock with its first fiscal year, every rated security, and the last complete fiscal year.
import { findDataset } from "../src/catalog";
import { lastFiscalYear } from "../src/sandbox/availability";
import { isRated } from "../src/sandbox/ratings";
import { universeFor } from "../src/sandbox/universe";
import type { Universe } from "./workloads";

export function sandboxUniverse(seed: number, now: Date): Universe {
  const universe = universeFor(seed);
  return {
    stocks: universe.list("stock").map((s) => ({ ticker: s.ticker, firstYear: s.firstYear })),
    rated: (["stock", "etf", "mf"] as const).flatMap((type) =>
      universe
        .list(type)
        .filter(isRated)
        .map((s) => s.ticker),
    ),
    lastYear: lastFiscalYear(now),
  };
}

/** One DATAPOINT cell of the 2,000-cell models of Q1 and T1. */
export interface ModelCell {
  readonly ticker: string;
  readonly dataset: string;
  readonly name: string;
  readonly year: number;
}

/**
 * The 2,000-cell model of `bench:quota` and `bench:team`: 10 tickers covered for all of the last 10 fiscal
 * years x those years x the first 10 names of metrics/roic and of screens/traditional.
 */
export function twoDatasetModel(seed: number, now: Date): ModelCell[] {
  const universe = sandboxUniverse(seed, now);
  const years = Array.from({ length: 10 }, (_, i) => universe.lastYear - 9 + i);
  const tickers = universe.stocks
    .filter((s) => s.firstYear <= years[0]!)
    .slice(0, 10)
    .map((s) => s.ticker);
  const names = ["metrics/roic", "screens/traditional"].flatMap((dataset) =>
    findDataset(dataset)!
      .datapoints.slice(0, 10)
      .map((d) => ({ dataset, name: d.name })),
  );
  return tickers.flatMap((ticker) => years.flatMap((year) => names.map((n) => ({ ticker, year, ...n }))));
}
