// `npm run bench:refresh`: `fdq refresh` on a model of 20,000 FDQ cells whose arguments are all references
// (tickers in column A, years as header formulas, dataset and datapoint names in header rows), against the
// sandbox with production-like latency (80 ms a request, 6 served at a time), next to the lower bound's
// request time measured on the same sandbox. Target (issue 12): seconds <= 1.3 x lower bound + 10 s, peak
// RSS under 600 MB. Prints one JSON line. Flags: --tickers N (default 100: 100 x 10 years x 20 names).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import ExcelJS from "exceljs";
import { DEFAULTS } from "../src/api/defaults";
import { findDataset } from "../src/catalog";
import { startSandbox } from "../src/sandbox";
import { fetchAll } from "./baselines";
import { idealSeconds, lowerBoundRequests } from "./lower-bound";
import { round } from "./results-format";
import { sandboxUniverse } from "./universe";
import { boundUrl } from "./wire";
import type { CellFetch } from "./workloads";

const LATENCY_MS = 80;
const YEARS = 10;
const DATASETS = ["metrics/roic", "screens/traditional"];
const NAMES_PER_DATASET = 10;
const TARGET = { factor: 1.3, plusSeconds: 10, rssMb: 600 };

interface Model {
  readonly cells: CellFetch[];
  readonly file: string;
}

/** Row 1 years (B1 a constant, the rest =previous+1 per block), row 2 names, row 3 datasets, tickers from A4. */
async function buildModel(dir: string, tickerCount: number): Promise<Model> {
  const universe = sandboxUniverse(1, new Date());
  const firstYear = universe.lastYear - YEARS + 1;
  const tickers = universe.stocks
    .filter((s) => s.firstYear <= firstYear)
    .slice(0, tickerCount)
    .map((s) => s.ticker);
  const columns = DATASETS.flatMap((path) => {
    const dataset = findDataset(path)!;
    return dataset.datapoints
      .slice(0, NAMES_PER_DATASET)
      .flatMap((d) =>
        Array.from({ length: YEARS }, (_, i) => ({ dataset, name: d.name, year: firstYear + i })),
      );
  });
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Model");
  columns.forEach((c, i) => {
    const col = i + 2;
    const first = i % YEARS === 0;
    sheet.getCell(1, col).value = first ? c.year : { formula: `${sheet.getCell(1, col - 1).address}+1` };
    sheet.getCell(2, col).value = c.name;
    sheet.getCell(3, col).value = c.dataset.path;
  });
  const cells: CellFetch[] = [];
  tickers.forEach((ticker, r) => {
    const row = r + 4;
    sheet.getCell(row, 1).value = ticker;
    columns.forEach((c, i) => {
      const letter = sheet.getCell(1, i + 2).address.replace(/\d+$/, "");
      sheet.getCell(row, i + 2).value = {
        formula: `_xldudf_FDQ_DATAPOINT($A${row},${letter}$3,${letter}$2,${letter}$1)`,
      } as ExcelJS.CellFormulaValue;
      cells.push({ kind: "datapoint", ticker, dataset: c.dataset, name: c.name, period: { year: c.year } });
    });
  });
  const file = path.join(dir, "model.xlsx");
  await book.xlsx.writeFile(file);
  return { cells, file };
}

/** Runs `fdq refresh` as a user would (bin/fdq.js), with the test preload that records the peak RSS. */
function runRefresh(
  args: string[],
  rssFile: string,
): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
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
    child.on("close", (code) =>
      resolve({ code: code ?? 1, stdout, stderr, seconds: (performance.now() - start) / 1000 }),
    );
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tickers: { type: "string" } }, strict: true });
  const tickerCount = Number(values.tickers ?? 100);
  const cap = DEFAULTS.concurrency;
  const sandbox = await startSandbox({
    port: 0,
    host: "127.0.0.1",
    latencyMs: LATENCY_MS,
    maxConcurrent: cap,
  });
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-bench-refresh-"));
  try {
    const model = await buildModel(dir, tickerCount);
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
    const boundSeconds = TARGET.factor * lowerBound.seconds + TARGET.plusSeconds;
    const peakRssMb = Math.round(Number(readFileSync(rssFile, "utf8")) / 1024);
    console.log(
      JSON.stringify({
        workload: "refresh-real",
        cells: model.cells.length,
        requests,
        lower_bound_requests: bound.length,
        seconds: round(run.seconds, 2),
        lower_bound_s: round(lowerBound.seconds, 2),
        lower_bound_ideal_s: round(idealSeconds(bound.length, cap, LATENCY_MS), 2),
        bound_seconds: round(boundSeconds, 2),
        peak_rss_mb: peakRssMb,
        within_target: run.seconds <= boundSeconds && peakRssMb < TARGET.rssMb,
        latency_ms: LATENCY_MS,
        max_concurrent: cap,
        summary: run.stdout.trim(),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

void main();
