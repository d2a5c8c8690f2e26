// `npm run bench:redact`: what redacting the key costs per answer body, in CPU time and bytes allocated, for the
// answers of R1's refresh (bench/refresh-real.ts): one whole-dataset answer per ticker x year x dataset of its
// model (250 tickers x 10 years x 2 datasets = 5,000 answers, about 4 KB each), fetched once from the sandbox as
// the request module reads them (the envelope's text). Each answer is redacted with two keys: the sandbox's demo
// key (what R1 sends) and a random key of 40 letters and digits (every letter and digit of an answer can then be
// a key character: the redactor's hardest common case).
// `--base DIR` also loads DIR/src/api/redact.ts (a worktree of another commit: `git worktree add --detach DIR
// main`) and measures both side by side, alternating, after checking that they redact every answer alike.
// Time: the median of `--rounds` passes over all answers (process.cpuUsage, user + system). Allocation: the answers
// in batches, each after a full collection, with the young generation large enough that none runs within a batch
// (a batch that saw one is measured again): heap used plus array buffers, after minus before.
// Flags: --answers N (default 5,000), --rounds N (default 5), --base DIR.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import * as path from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Redactor } from "../src/api";
import { findDataset } from "../src/catalog";
import { startSandbox } from "../src/sandbox";
import { seededRandom } from "../src/sandbox/prng";
import { runPool } from "./pool";
import { round } from "./results-format";
import { sandboxUniverse } from "./universe";
import { boundUrl, requestHeaders } from "./wire";

/** The node flags the allocation count needs; the bench starts itself again with them when they are missing. */
const NODE_FLAGS = ["--expose-gc", "--min-semi-space-size=64", "--max-semi-space-size=64"];
const DATASETS = ["metrics/roic", "screens/traditional"];
const YEARS = 10;

interface RedactorLike {
  redact(text: string): string;
}
type RedactorClass = new (apiKey: string) => RedactorLike;

/** R1's answers: every ticker x year x dataset of its model, whole-dataset mode, as the envelope's text. */
async function fetchAnswers(count: number): Promise<{ texts: string[]; demoKey: string }> {
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", latencyMs: 0 });
  try {
    const universe = sandboxUniverse(1, new Date());
    const firstYear = universe.lastYear - YEARS + 1;
    const tickers = universe.stocks.filter((s) => s.firstYear <= firstYear).map((s) => s.ticker);
    const urls: string[] = [];
    for (const ticker of tickers) {
      for (let y = 0; y < YEARS; y++) {
        for (const p of DATASETS) {
          const dataset = findDataset(p)!;
          const names = dataset.datapoints.slice(0, 10).map((d) => d.name);
          const cell = {
            kind: "datapoint" as const,
            ticker,
            dataset,
            name: names[0]!,
            period: { year: firstYear + y },
          };
          urls.push(boundUrl(sandbox.baseUrl, { key: "", cell, names }));
        }
      }
      if (urls.length >= count) break;
    }
    const texts: string[] = new Array<string>(Math.min(count, urls.length));
    const headers = requestHeaders(sandbox.demoKey);
    await runPool(urls.slice(0, texts.length), 6, async (url, i) => {
      const response = await fetch(url, { headers });
      texts[i] = await response.text();
      if (!response.ok) throw new Error(`${url}: ${response.status} ${texts[i]!.slice(0, 200)}`);
    });
    return { texts, demoKey: sandbox.demoKey };
  } finally {
    await sandbox.close();
  }
}

const keyName = (key: string, demoKey: string): string =>
  key === demoKey ? "demo key" : "random 40-character key";

/** How many answers are also redacted with the key echoed in them. */
const ECHOING = 600;

/** The key's encodings an answer echoes it in: as the envelope's JSON string in JSON writes them. */
const ECHOES: ((key: string) => string)[] = [
  (key) => key,
  (key) => encodeURIComponent(key).replace(/[A-Za-z0-9]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
  (key) => [...key].map((c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  (key) => [...key].map((c) => `&#${c.charCodeAt(0)};`).join(""),
  (key) => Buffer.from(`Authorization: ${key}`).toString("base64"),
  (key) => Buffer.from(key).toString("hex").toUpperCase(),
];

/** The answer with a record's filing type replaced by the key in encoding number i (mod their count). */
function withKey(text: string, key: string, i: number): string {
  const at = text.indexOf("10-K");
  if (at < 0) throw new Error(`no filing type in ${text.slice(0, 200)}`);
  return text.slice(0, at) + ECHOES[i % ECHOES.length]!(key) + text.slice(at + 4);
}

/** 40 letters and digits from a fixed seed. */
function randomKey(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const random = seededRandom(7);
  return Array.from({ length: 40 }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
}

let collections = 0;
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ["gc"] });

const gc = (): void => (globalThis as { gc?: () => void }).gc!();
const allocatedNow = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** CPU microseconds for one pass over every text. */
function timePass(r: RedactorLike, texts: readonly string[]): number {
  const start = process.cpuUsage();
  let sink = 0;
  for (const t of texts) sink += r.redact(t).length;
  const used = process.cpuUsage(start);
  if (sink < 0) console.log(sink);
  return used.user + used.system;
}

/**
 * Bytes allocated per text, counted in batches between full collections, less what the counting itself
 * allocates (measured with a redactor that returns each text as it is).
 */
function allocatedPerText(r: RedactorLike, texts: readonly string[]): number {
  const counting = allocatedBytes({ redact: (t) => t }, texts);
  return (allocatedBytes(r, texts) - counting) / texts.length;
}

function allocatedBytes(r: RedactorLike, texts: readonly string[]): number {
  let total = 0;
  const sink: string[] = [];
  let batch = 20;
  for (let i = 0; i < texts.length;) {
    const n = Math.min(batch, texts.length - i);
    gc();
    const seen = collections;
    const before = allocatedNow();
    for (let k = 0; k < n; k++) sink[k] = r.redact(texts[i + k]!);
    const after = allocatedNow();
    if (collections !== seen) {
      if (batch === 1) throw new Error("a collection ran within one answer's redaction");
      batch = Math.max(1, batch >> 1);
      continue;
    }
    total += after - before;
    i += n;
  }
  return total;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      answers: { type: "string" },
      rounds: { type: "string" },
      base: { type: "string" },
    },
    strict: true,
  });
  const count = Number(values.answers ?? 5000);
  const rounds = Math.max(1, Number(values.rounds ?? 5));
  const sides: { name: string; Redactor: RedactorClass }[] = [];
  if (values.base !== undefined) {
    const file = path.resolve(values.base, "src/api/redact.ts");
    const base = (await import(pathToFileURL(file).href)) as { Redactor: RedactorClass };
    sides.push({ name: "base", Redactor: base.Redactor });
  }
  sides.push({ name: "this tree", Redactor });

  const { texts, demoKey } = await fetchAnswers(count);
  const bytes = texts.reduce((s, t) => s + t.length, 0);
  console.log(
    `${texts.length} answers, ${round(bytes / texts.length / 1024, 2)} KB each on average ` +
      `(${new Date().toISOString()}, load average ${loadAverage()})`,
  );
  for (const key of [demoKey, randomKey()]) {
    const redactors = sides.map((s) => ({ name: s.name, r: new s.Redactor(key) }));
    // The same text out of every side, and unchanged (no answer holds the key).
    for (const t of texts) {
      for (const { name, r } of redactors) {
        if (r.redact(t) !== t)
          throw new Error(`${name} changed an answer without the key: ${t.slice(0, 200)}`);
      }
    }
    // Answers that echo the key, in one of its encodings each, inside a record's text: every side must
    // remove it, and alike (a cross-check of the sides, and what the full decoding costs).
    const echoing = texts.slice(0, ECHOING).map((t, i) => withKey(t, key, i));
    for (const t of echoing) {
      const outs = redactors.map(({ r }) => r.redact(t));
      if (outs.some((o) => o === t || o !== outs[0])) {
        throw new Error(`the sides redact differently: ${outs.map((o) => o.slice(0, 300)).join(" | ")}`);
      }
    }
    for (const { name, r } of redactors) {
      const us = median(Array.from({ length: rounds }, () => timePass(r, echoing))) / echoing.length;
      const allocated = allocatedPerText(r, echoing);
      console.log(
        `${keyName(key, demoKey)}, ${name}, ${echoing.length} answers echoing the key: ${round(us, 1)} µs, ` +
          `${Math.round(allocated).toLocaleString("en")} bytes allocated per answer`,
      );
    }
    const times = new Map<string, number[]>(redactors.map((s) => [s.name, []]));
    for (let i = 0; i < rounds; i++) {
      for (const { name, r } of i % 2 === 0 ? redactors : [...redactors].reverse()) {
        times.get(name)!.push(timePass(r, texts));
      }
    }
    for (const { name, r } of redactors) {
      const us = median(times.get(name)!) / texts.length;
      const allocated = allocatedPerText(r, texts);
      console.log(
        `${keyName(key, demoKey)}, ${name}: ` +
          `${round(us, 1)} µs of CPU per answer (median of ${rounds} passes; ` +
          `${times
            .get(name)!
            .map((t) => round(t / 1e6, 2))
            .join(", ")} s), ${Math.round(allocated).toLocaleString("en")} bytes allocated per answer`,
      );
    }
  }
}

const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

if (typeof (globalThis as { gc?: unknown }).gc !== "function") {
  const run = spawnSync(
    process.execPath,
    [...NODE_FLAGS, "--import", "tsx", __filename, ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  process.exit(run.status ?? 1);
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
