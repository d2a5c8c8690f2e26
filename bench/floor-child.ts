// The floor of a warm run, for bench/warm-floor.ts: the least work a warm `fdq eval --json` of W1-W4 must do, written as plainly as JavaScript allows and checking nothing. It reads the formula file and the
// cache file the product wrote, parses each line with one regular expression, parses each stored answer it
// needs once, and prints one JSON line per cell with the value and where it came from. No validation, no
// request identity, no LRU, no promises, no ledger: what is left is what the machine charges for the bytes
// themselves (reading, decoding, parsing, allocating, printing). It speaks the evaluating child's protocol, so
// the bench measures it exactly as it measures the product (after module loading, `process.cpuUsage()`).
import { readFileSync } from "node:fs";
import { cacheFileFor } from "../src/cli/connection";
import {
  CONFIG_ENV,
  KEY_ENV,
  measuredPass,
  writeReport,
  type ChildConfig,
  type PassOutcome,
  type PassResult,
} from "./child-protocol";

const DATAPOINT = /^=FDQ\.DATAPOINT\("([^"]*)","([^"]*)","([^"]*)",(\d+)(?:,(\d*)(?:,(\d+))?)?\)$/;
const SERIES = /^=FDQ\.SERIES\("([^"]*)","([^"]*)","([^"]*)",(\d+),(\d+)\)$/;
const DATASET = /^=FDQ\.DATASET\("([^"]*)","([^"]*)",(\d+)(?:,(\d+))?\)$/;
const RATING = /^=FDQ\.RATING\("([^"]*)","overall"\)$/;

/** A stored records answer as the cache file holds it: `[[4, header, names, values, filing], day, at]`. */
type StoredRecords = [
  [4, [string, number, number, string, string], string[], string[], unknown],
  string,
  number,
];
type StoredJson = [[2, { ratings: Record<string, number> }], string, number];

interface Answer {
  readonly stored: StoredRecords;
  readonly index: Map<string, number>;
}

function floor(config: ChildConfig, apiKey: string): PassOutcome {
  const before = process.cpuUsage();
  const text = readFileSync(config.formulasFile, "utf8");
  const stored = JSON.parse(
    readFileSync(cacheFileFor(config.cacheDir, config.baseUrl, apiKey), "utf8"),
  ) as Record<string, string>;
  const read = process.cpuUsage(before);
  const readingUs = read.user + read.system;
  // Every answer's store key starts with the cache's prefix, "fdq.cache\n<scope>\ne:".
  const some = Object.keys(stored).find((k) => k.includes("\ne:")) ?? "";
  const prefix = some.slice(0, some.indexOf("\ne:") + 3);
  const answers = new Map<string, Answer>();
  const answer = (key: string): Answer | undefined => {
    let a = answers.get(key);
    if (a === undefined) {
      const raw = stored[prefix + key];
      if (raw === undefined) return undefined;
      const s = JSON.parse(raw) as StoredRecords;
      const index = new Map<string, number>();
      s[0][2].forEach((name, i) => index.set(name, i));
      answers.set(key, (a = { stored: s, index }));
    }
    return a;
  };
  /** The stored answer of one datapoint: the whole dataset's, else the single datapoint's. */
  const find = (ticker: string, dataset: string, name: string, period: string) => {
    const a =
      answer(`${dataset}/${ticker}?${period}`) ?? answer(`${dataset}/${ticker}?datapoint=${name}&${period}`);
    const i = a?.index.get(name);
    return a && i !== undefined ? { a, i } : undefined;
  };
  /** A value's provenance as `--json` prints it: the record's year, period, periodtype and the refresh day. */
  const source = (a: Answer) => {
    const [[, header], day] = a.stored;
    return { year: header[1], period: header[2], periodtype: header[3], refreshDay: day };
  };
  const out: string[] = [];
  let cells = 0;
  let errors = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const d = DATAPOINT.exec(line);
    if (d) {
      cells++;
      const [, ticker, dataset, name, year, quarter, ttm] = d as unknown as string[];
      const period = `year=${year}${quarter ? `&quarter=${quarter}` : ttm ? `&ttm=${ttm}` : ""}`;
      const found = find(ticker!, dataset!, name!, period);
      if (!found) {
        errors++;
        continue;
      }
      const [[, header, , values], day] = found.a.stored;
      out.push(
        JSON.stringify({
          formula: line,
          value: Number(values[found.i]),
          year: header[1],
          period: header[2],
          periodtype: header[3],
          refreshDay: day,
        }),
      );
      continue;
    }
    const series = SERIES.exec(line);
    if (series) {
      const [, ticker, dataset, name, from, to] = series as unknown as string[];
      const row: number[] = [];
      const sources: object[] = [];
      for (let year = Number(from); year <= Number(to); year++) {
        cells++;
        const found = find(ticker!, dataset!, name!, `year=${year}`);
        if (!found) {
          errors++;
          continue;
        }
        row.push(Number(found.a.stored[0][3][found.i]));
        sources.push(source(found.a));
      }
      out.push(JSON.stringify({ formula: line, value: [row], sources }));
      continue;
    }
    const whole = DATASET.exec(line);
    if (whole) {
      const [, ticker, dataset, year, quarter] = whole as unknown as string[];
      const a = answer(`${dataset}/${ticker}?year=${year}${quarter ? `&quarter=${quarter}` : ""}`);
      if (!a) {
        cells++;
        errors++;
        continue;
      }
      const [, , names, values] = a.stored[0];
      // Counted as the product's tally counts a spill: every element of every row.
      cells += names.length * 2;
      const rows = names.map((name, i) => [name, Number(values[i])]);
      out.push(JSON.stringify(Object.assign({ formula: line, value: rows }, source(a))));
      continue;
    }
    cells++;
    const r = RATING.exec(line);
    const raw = r && stored[`${prefix}ratings/component/${r[1]}`];
    if (!raw) {
      errors++;
      continue;
    }
    const rating = (JSON.parse(raw) as StoredJson)[0][1].ratings.rating_overall;
    out.push(JSON.stringify({ formula: line, value: rating }));
  }
  // Built as the product's output is, then dropped.
  void out.join("\n");
  const errorSamples = errors ? ["a cell the floor cannot read (not of W1-W4)"] : [];
  return { cells, errors, errorSamples, readingUs };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env[CONFIG_ENV] ?? "") as ChildConfig;
  const apiKey = process.env[KEY_ENV] ?? "";
  // passes 0: module loading only (bench/warm-instructions.ts subtracts it).
  const passes: PassResult[] = [];
  for (let pass = 0; pass < config.passes; pass++)
    passes.push(await measuredPass(() => floor(config, apiKey)));
  writeReport(passes, "bench/floor-child.ts");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
