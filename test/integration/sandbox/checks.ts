// Consistency checks shared by consistency.test.ts and the --restate tests of production.test.ts: walks add
// up, and annual values follow the quarters by the kind of each name.
import { DATASETS, type Dataset } from "../../../src/catalog";
import { servedDatapoints } from "../../../src/sandbox/beyond-cutoff";
import { classify } from "../../../src/sandbox/classify";
import { close, valuesOf, type Client, type DataRecord } from "./helpers";

export const WALK_DATASETS = DATASETS.filter((d) => d.walk);

/** Tickers and periods each walk is checked on (inside each company's coverage). */
export const WALK_CASES: ReadonlyArray<readonly [string, string]> = [
  ["AAPL", "year=2019"],
  ["AAPL", "year=2011&quarter=2"],
  ["AAPL", "year=2018&ttm=3"],
  ["MSFT", "year=2025&quarter=2"],
  ["NFLX", "year=2024&ttm=1"],
  ["ENRN:1", "year=2010"],
  ["X:2", "year=2019&quarter=4"],
];

/** Datapoint -> value of a dataset's all-datapoints answer. */
export async function datasetValues(
  client: Client,
  d: Dataset,
  ticker: string,
  query: string,
): Promise<Map<string, number>> {
  return valuesOf(await client.results<DataRecord[]>(`/${d.path}/${encodeURIComponent(ticker)}?${query}`));
}

/**
 * Checks a walk straight from the signs of the served lines (the catalog's, then those past a cut): each
 * total is the signed sum of its parts (partOf); the first line with the top-level signed lines ("/"
 * divides the running value) gives each "=" line where it stands, and a standalone result line (NOPAT in
 * the detailed walks) at the end of the walk.
 */
export function walkErrors(d: Dataset, v: Map<string, number>): string[] {
  const lines = servedDatapoints(d);
  const errors: string[] = [];
  const val = (name: string): number => v.get(name) ?? NaN;
  const apply = (acc: number, sign: string, x: number): number =>
    sign === "+" ? acc + x : sign === "-" ? acc - x : sign === "/" ? acc / x : acc;
  const check = (name: string, expected: number): void => {
    if (!close(expected, val(name))) errors.push(`${name}: ${expected} vs ${val(name)}`);
  };
  const totals = new Map<string, number>();
  for (const p of lines)
    if (p.partOf) totals.set(p.partOf, apply(totals.get(p.partOf) ?? 0, p.sign, val(p.name)));
  for (const [total, parts] of totals) check(total, parts);
  let running = val(lines[0]!.name);
  const standaloneResults: string[] = [];
  for (const p of lines.slice(1)) {
    if (p.partOf) continue;
    if (p.sign === "=") check(p.name, running);
    else if (p.sign === "" && d.walk?.results.includes(p.name)) standaloneResults.push(p.name);
    else running = apply(running, p.sign, val(p.name));
  }
  for (const name of standaloneResults) check(name, running);
  return errors;
}

/**
 * Annual values against the year's four quarters: flows are their sum, balances Q4, averages the mean. Returns
 * the names that break the rule (empty when all hold).
 */
export async function quarterErrors(
  client: Client,
  d: Dataset,
  ticker: string,
  year: number,
): Promise<string[]> {
  const annual = await datasetValues(client, d, ticker, `year=${year}`);
  const quarters = await Promise.all(
    [1, 2, 3, 4].map((q) => datasetValues(client, d, ticker, `year=${year}&quarter=${q}`)),
  );
  const errors: string[] = [];
  for (const [name, value] of annual) {
    const qs = quarters.map((m) => m.get(name) ?? NaN);
    const sum = qs.reduce((a, b) => a + b, 0);
    const scale = Math.max(1, ...qs.map(Math.abs), Math.abs(value));
    const kind = classify(name);
    const expected =
      kind === "flow" ? sum : kind === "balance" ? qs[3]! : kind === "average" ? sum / 4 : value;
    if (!close(value, expected, scale)) errors.push(`${name} (${kind}): ${value} vs ${expected}`);
  }
  return errors;
}
