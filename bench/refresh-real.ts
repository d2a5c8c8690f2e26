// `npm run bench:refresh`, workload R1: `fdq refresh` on a model of 50,000 FDQ cells whose arguments are all
// references (tickers in column A, years as header formulas, dataset and datapoint names in header rows), against
// the sandbox with production-like latency (80 ms a request, 6 served at a time), next to the lower bound's
// request time measured on the same sandbox. Targets: wall time <= 1.3 x the lower bound's, peak RSS under
// 400 MB. Prints one JSON line and writes it, with a table, to bench/results/latest-refresh.{jsonl,md}.
// Then what the change report costs (`--changes FILE`: the cells' values before the refresh are read and compared
// with the new ones): the refreshed workbook is refreshed again from a warm cache (no request, so no latency hides
// the work), with and without --changes, in alternating order, and the medians' difference is printed.
// Peak RSS is reported for each kind of run side by side: the timed run (no cache file), the first refresh with a
// cache file (what a user's morning refresh is: every answer fetched and saved) and the warm refreshes.
// Flags: --tickers N (default 250: 250 x 10 years x 20 names = 50,000 cells), --pairs N (default 3), --no-record.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULTS } from "../src/api";
import { startSandbox } from "../src/sandbox";
import { fetchAll } from "./baselines";
import { idealSeconds, lowerBoundRequests } from "./lower-bound";
import { round } from "./results-format";
import { buildR1 } from "./refresh-workbooks";
import { boundUrl } from "./wire";

const LATENCY_MS = 80;
const TARGET = { factor: 1.3, rssMb: 400 };

interface RefreshRun {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
  /** The process's peak resident memory, MB. */
  peakRssMb: number;
}

/** Runs `fdq refresh` as a user would (bin/fdq.js), with the test preload that records the peak RSS. */
function runRefresh(args: string[], rssFile: string): Promise<RefreshRun> {
  const preload = path.join(__dirname, "../test/support/max-rss.js");
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--require", preload, path.join(__dirname, "../bin/fdq.js"), ...args],
      {
        env: { ...process.env, FDQ_TEST_MAX_RSS_FILE: rssFile },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - start) / 1000;
      let peakRssMb = NaN;
      try {
        peakRssMb = Math.round(Number(readFileSync(rssFile, "utf8")) / 1024);
        rmSync(rssFile);
      } catch {
        // no figure: the process did not reach its exit handler
      }
      resolve({ code: code ?? 1, stdout, stderr, seconds, peakRssMb });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tickers: { type: "string" },
      pairs: { type: "string" },
      "no-record": { type: "boolean", default: false },
    },
    strict: true,
  });
  const tickerCount = Number(values.tickers ?? 250);
  const cap = DEFAULTS.concurrency;
  const sandbox = await startSandbox({
    port: 0,
    host: "127.0.0.1",
    latencyMs: LATENCY_MS,
    maxConcurrent: cap,
  });
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-bench-refresh-"));
  try {
    const model = await buildR1(dir, tickerCount);
    const bound = lowerBoundRequests(model.cells);
    const lowerBound = await fetchAll(
      bound.map((r) => boundUrl(sandbox.baseUrl, r)),
      cap,
      sandbox.demoKey,
    );
    const before = sandbox.stats().requests;
    const rssFile = path.join(dir, "rss");
    const run = await runRefresh(
      [
        "refresh",
        model.file,
        "-o",
        path.join(dir, "out.xlsx"),
        "--base-url",
        sandbox.baseUrl,
        "--api-key",
        sandbox.demoKey,
        "--no-cache",
        "--billing",
        "per-request",
        "--concurrency",
        String(cap),
      ],
      rssFile,
    );
    if (run.code !== 0) throw new Error(`fdq refresh exited ${run.code}: ${run.stderr.slice(-2000)}`);
    const requests = sandbox.stats().requests - before;
    const boundSeconds = TARGET.factor * lowerBound.seconds;
    const peakRssMb = run.peakRssMb;
    const result = {
      workload: "R1",
      cells: model.cells.length,
      requests,
      lower_bound_requests: bound.length,
      seconds: round(run.seconds, 2),
      lower_bound_s: round(lowerBound.seconds, 2),
      lower_bound_ideal_s: round(idealSeconds(bound.length, cap, LATENCY_MS), 2),
      bound_seconds: round(boundSeconds, 2),
      peak_rss_mb: peakRssMb,
      within_target: run.seconds <= boundSeconds && peakRssMb < TARGET.rssMb,
      /** Filled in below: the first refresh with a cache file, and the largest of the warm ones. */
      peak_rss_cache_file_mb: NaN,
      peak_rss_warm_mb: NaN,
      latency_ms: LATENCY_MS,
      max_concurrent: cap,
      summary: run.stdout.trim(),
    };
    const changes = await changeReportCost(model.file, dir, sandbox.baseUrl, sandbox.demoKey, {
      pairs: Math.max(1, Number(values.pairs ?? 3)),
      rssFile,
    });
    const { peakRss, ...report } = changes;
    result.peak_rss_cache_file_mb = peakRss.cacheFile;
    result.peak_rss_warm_mb = peakRss.warm;
    result.within_target &&= Math.max(peakRss.cacheFile, peakRss.warm) < TARGET.rssMb;
    const line = JSON.stringify({ ...result, change_report: report });
    console.log(line);
    if (!values["no-record"]) record({ ...result, change_report: report }, line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/**
 * Warm refreshes of the refreshed model (its cache filled by one refresh first), with and without `--changes`,
 * alternating: the wall time of each (a warm refresh sends no request: its time is its work) and the report's rows.
 */
async function changeReportCost(
  model: string,
  dir: string,
  baseUrl: string,
  apiKey: string,
  o: { pairs: number; rssFile: string },
): Promise<{
  without_s: number;
  with_s: number;
  extra_s: number;
  changes: number;
  pairs: number;
  peakRss: { cacheFile: number; warm: number };
}> {
  const cacheDir = path.join(dir, "cache");
  const refreshed = path.join(dir, "refreshed.xlsx");
  const args = (input: string, out: string): string[] => [
    "refresh",
    input,
    "-o",
    out,
    "--base-url",
    baseUrl,
    "--api-key",
    apiKey,
    "--cache-dir",
    cacheDir,
    "--billing",
    "per-request",
  ];
  const first = await runRefresh(args(model, refreshed), o.rssFile);
  if (first.code !== 0) throw new Error(`fdq refresh exited ${first.code}: ${first.stderr.slice(-2000)}`);
  const times = { without: [] as number[], with: [] as number[] };
  let warmRss = 0;
  let changes = 0;
  for (let i = 0; i < o.pairs; i++) {
    for (const report of i % 2 === 0 ? [false, true] : [true, false]) {
      const file = path.join(dir, "changes.json");
      const extra = report ? ["--changes", file] : [];
      const run = await runRefresh([...args(refreshed, path.join(dir, "again.xlsx")), ...extra], o.rssFile);
      if (run.code !== 0) throw new Error(`fdq refresh exited ${run.code}: ${run.stderr.slice(-2000)}`);
      (report ? times.with : times.without).push(run.seconds);
      warmRss = Math.max(warmRss, run.peakRssMb);
      if (report) changes = (JSON.parse(readFileSync(file, "utf8")) as unknown[]).length;
    }
  }
  const [without, withReport] = [median(times.without), median(times.with)];
  return {
    without_s: round(without, 2),
    with_s: round(withReport, 2),
    extra_s: round(withReport - without, 2),
    changes,
    pairs: o.pairs,
    peakRss: { cacheFile: first.peakRssMb, warm: warmRss },
  };
}

/** bench/results/latest-refresh.{jsonl,md}: the figures beside W1-W4's (bench/results/latest.md). */
function record(r: Record<string, unknown>, line: string): void {
  const changes = r.change_report as {
    without_s: number;
    with_s: number;
    extra_s: number;
    changes: number;
    pairs: number;
  };
  const results = path.join(__dirname, "results");
  writeFileSync(path.join(results, "latest-refresh.jsonl"), `${line}\n`);
  const cpus = os.cpus();
  const md =
    "# fdq refresh benchmark (latest run)\n\n" +
    `Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GB RAM, Node ${process.version}, ${new Date().toISOString()}, ` +
    `load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} (the lower bound and the refresh run one ` +
    "after the other: on a shared machine their ratio moves with its load). " +
    `Sandbox: ${LATENCY_MS} ms per request, at most ${String(r.max_concurrent)} requests served at a time. ` +
    "Command: `npm run bench:refresh` (bench/refresh-real.ts): `fdq refresh model.xlsx -o out.xlsx --billing " +
    "per-request` as a process (no cache file), peak RSS of that process; beside it the peak RSS of the first " +
    "refresh with a cache file (`--cache-dir`: every answer fetched and saved, as a user's morning refresh) and the " +
    "largest of the warm refreshes.\n\n" +
    "| Workload | Cells | Requests | Lower bound req. | Wall s | Lower bound s | Ideal s | Wall / lower bound | Peak RSS MB | Peak RSS MB, with cache file | Peak RSS MB, warm |\n" +
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
    `| R1 refresh: ${String(r.cells)} FDQ cells (tickers x 10 years x 20 datapoints of 2 datasets) | ${String(r.cells)} | ` +
    `${String(r.requests)} | ${String(r.lower_bound_requests)} | ${String(r.seconds)} | ${String(r.lower_bound_s)} | ` +
    `${String(r.lower_bound_ideal_s)} | ${round(Number(r.seconds) / Number(r.lower_bound_s), 2)}x | ${String(r.peak_rss_mb)} | ` +
    `${String(r.peak_rss_cache_file_mb)} | ${String(r.peak_rss_warm_mb)} |\n\n` +
    "## Targets\n\n| Workload | Target | Measured | Met |\n|---|---|---|---|\n" +
    `| R1 | wall <= ${TARGET.factor} x lower-bound time | ${round(Number(r.seconds) / Number(r.lower_bound_s), 2)}x | ` +
    `${Number(r.seconds) <= Number(r.bound_seconds) ? "yes" : "**no**"} |\n` +
    `| R1 | peak RSS < ${TARGET.rssMb} MB, every run | ${String(r.peak_rss_mb)} MB timed, ${String(r.peak_rss_cache_file_mb)} MB ` +
    `with a cache file, ${String(r.peak_rss_warm_mb)} MB warm | ` +
    `${Math.max(Number(r.peak_rss_mb), Number(r.peak_rss_cache_file_mb), Number(r.peak_rss_warm_mb)) < TARGET.rssMb ? "yes" : "**no**"} |\n\n` +
    `Summary line: ${String(r.summary)}\n\n` +
    `What the change report costs (\`--changes FILE\`, warm refreshes of the refreshed workbook, no request, ` +
    `alternating, medians of ${String(changes.pairs)} each): without ${String(changes.without_s)} s, with ` +
    `${String(changes.with_s)} s (${String(changes.changes)} changes reported): ${String(changes.extra_s)} s more.\n`;
  writeFileSync(path.join(results, "latest-refresh.md"), md);
}

void main();
