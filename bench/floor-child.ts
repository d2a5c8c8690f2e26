// The floor of a warm run, for bench/warm-floor.ts: the least work a warm `fdq eval --json` of W1, W2 or W3
// must do, written as plainly as JavaScript allows and checking nothing. It reads the formula file and the
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
} from "./child-protocol";

const DATAPOINT = /^=FDQ\.DATAPOINT\("([^"]*)","([^"]*)","([^"]*)",(\d+)\)$/;
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
  const out: string[] = [];
  let cells = 0;
  let errors = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    cells++;
    const d = DATAPOINT.exec(line);
    if (d) {
      const [, ticker, dataset, name, year] = d as unknown as [string, string, string, string, string];
      const a =
        answer(`${dataset}/${ticker}?year=${year}`) ??
        answer(`${dataset}/${ticker}?datapoint=${name}&year=${year}`);
      const i = a?.index.get(name);
      if (!a || i === undefined) {
        errors++;
        continue;
      }
      const [[, header, , values], day] = a.stored;
      out.push(
        JSON.stringify({
          formula: line,
          value: Number(values[i]),
          year: header[1],
          period: header[2],
          periodtype: header[3],
          refreshDay: day,
        }),
      );
      continue;
    }
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
  const errorSamples = errors ? ["a cell the floor cannot read (not W1, W2 or W3)"] : [];
  return { cells, errors, errorSamples, readingUs };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env[CONFIG_ENV] ?? "") as ChildConfig;
  const apiKey = process.env[KEY_ENV] ?? "";
  writeReport([await measuredPass(() => floor(config, apiKey))], "bench/floor-child.ts");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
