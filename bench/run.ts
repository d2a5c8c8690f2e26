// `npm run bench`: fills each workload with the product (as `fdq eval -f` does) against the sandbox
// under realistic latency and a server-side concurrency cap, side by side with the naive client, a
// per-cell client and the lower bound; prints a markdown table and one JSON line per workload.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "../src/sandbox";
import { fetchAll, type FetchRun } from "./baselines";
import { idealSeconds, lowerBoundRequests } from "./lower-bound";
import { runEvaluator, type EvaluatorRun } from "./measure";
import { parseBenchOptions, USAGE, type BenchOptions } from "./options";
import {
  describeMachine,
  jsonLine,
  machineLine,
  markdownTable,
  round,
  targetsTable,
  type RunSettings,
  type WorkloadResult,
} from "./results-format";
import { extrapolateSeconds, planSample, sampleIndexes } from "./sampling";
import { sandboxUniverse } from "./universe";
import { boundUrl, cellUrl } from "./wire";
import { buildWorkload, formulaText, workloadCells, type Workload } from "./workloads";

/** The sandbox data the universe is read from. */
const SANDBOX_SEED = 1;

interface Baseline {
  readonly seconds: number;
  readonly sampled: boolean;
}

/** Runs `urls` whole, or a seeded sample scaled up when the whole would overrun the budget. */
async function runBaseline(
  urls: readonly string[],
  concurrency: number,
  budgetS: number,
  options: BenchOptions,
  apiKey: string,
): Promise<Baseline> {
  const plan = planSample(urls.length, options.latencyMs / 1000, concurrency, budgetS);
  const picked = sampleIndexes(urls.length, plan.size, options.seed).map((i) => urls[i] as string);
  const run = await fetchAll(picked, concurrency, apiKey);
  warnFailures("baseline", run);
  return {
    seconds: extrapolateSeconds(run.seconds, picked.length, urls.length, concurrency),
    sampled: plan.sampled,
  };
}

function warnFailures(what: string, run: FetchRun): void {
  if (run.failures > 0) console.error(`warning: ${run.failures} of ${run.requests} ${what} requests failed`);
}

async function measureWorkload(
  workload: Workload,
  sandbox: RunningSandbox,
  options: BenchOptions,
  workDir: string,
): Promise<{ result: WorkloadResult; evaluator: string }> {
  const cells = workloadCells(workload);
  const bound = lowerBoundRequests(cells);
  const formulasFile = path.join(workDir, `${workload.id}.txt`);
  writeFileSync(formulasFile, workload.formulas.map(formulaText).join("\n") + "\n");
  const cacheDir = path.join(workDir, `${workload.id}-cache`);
  mkdirSync(cacheDir);
  const { baseUrl, demoKey } = sandbox;
  const cap = options.maxConcurrent;
  // The product is run as a user would against a service serving `cap` requests at a time.
  const child = { formulasFile, baseUrl, cacheDir, concurrency: cap };

  const boundUrls = bound.map((r) => boundUrl(baseUrl, r));
  const lowerBound = await fetchAll(boundUrls, cap, demoKey);
  warnFailures("lower-bound", lowerBound);

  const evaluate = async (label: string): Promise<EvaluatorRun & { requests: number }> => {
    const before = sandbox.stats().requests;
    const run = await runEvaluator({ ...child, passes: 1 }, demoKey);
    const requests = sandbox.stats().requests - before;
    if (options.verbose) console.error(`${workload.id} ${label}: ${JSON.stringify({ requests, ...run })}`);
    return { ...run, requests };
  };
  const { report: cold, requests } = await evaluate("cold");
  const { report: warm, requests: warmRequests, processSeconds: warmProcessS } = await evaluate("warm");

  const urls = cells.map((c) => cellUrl(baseUrl, c));
  // When every cell already needs its own request (W3), the per-cell client is the lower bound: reuse it.
  const perCell =
    urls.length === boundUrls.length && new Set([...urls, ...boundUrls]).size === urls.length
      ? { seconds: lowerBound.seconds, sampled: false }
      : await runBaseline(urls, cap, options.perCellBudgetS, options, demoKey);
  const naive = await runBaseline(urls, 1, options.naiveBudgetS, options, demoKey);

  const coldPass = cold.passes[0];
  const warmPass = warm.passes[0];
  if (!coldPass || !warmPass) throw new Error("The evaluating process reported no evaluation");
  if (coldPass.errors > 0) {
    console.error(
      `warning: ${workload.id}: ${coldPass.errors} of ${coldPass.cells} cells failed, e.g. ${coldPass.errorSamples.join("; ")}`,
    );
  }
  return {
    evaluator: cold.evaluator,
    result: {
      workload: workload.id,
      title: workload.title,
      formulas: workload.formulas.length,
      cells: cells.length,
      requests,
      errors: coldPass.errors,
      lower_bound_requests: bound.length,
      cold_s: round(coldPass.seconds, 3),
      lower_bound_s: round(lowerBound.seconds, 3),
      lower_bound_ideal_s: round(idealSeconds(bound.length, cap, options.latencyMs), 3),
      warm_s: round(warmPass.seconds, 3),
      warm_requests: warmRequests,
      warm_process_s: round(warmProcessS, 3),
      cpu_us_per_cached_cell: round(warmPass.cpuUs / cells.length, 2),
      peak_rss_mb: Math.max(cold.maxRssMb, warm.maxRssMb),
      per_cell_requests: cells.length,
      per_cell_s: round(perCell.seconds, 2),
      per_cell_sampled: perCell.sampled,
      naive_requests: cells.length,
      naive_s: round(naive.seconds, 2),
      naive_sampled: naive.sampled,
    },
  };
}

function writeResults(results: readonly WorkloadResult[], settings: RunSettings): void {
  const machine = describeMachine();
  const dir = path.join(__dirname, "results");
  mkdirSync(dir, { recursive: true });
  const md = [
    "# Benchmark results (latest run)",
    "",
    machineLine(machine, settings),
    "",
    markdownTable(results),
    "",
    "\\* sampled: a seeded random sample of the cells was run and its time scaled up to the whole workload.",
    "",
    "## Targets",
    "",
    targetsTable(results),
    "",
  ].join("\n");
  writeFileSync(path.join(dir, "latest.md"), md);
  writeFileSync(
    path.join(dir, "latest.jsonl"),
    results.map((r) => jsonLine(r, settings, machine)).join("\n") + "\n",
  );
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const sandbox = await startSandbox({
    port: 0,
    latencyMs: options.latencyMs,
    maxConcurrent: options.maxConcurrent,
  });
  const workDir = mkdtempSync(path.join(tmpdir(), "fdq-bench-"));
  const started = performance.now();
  try {
    const universe = sandboxUniverse(SANDBOX_SEED, new Date());
    const results: WorkloadResult[] = [];
    let evaluator = "";
    for (const id of options.workloads) {
      const measured = await measureWorkload(buildWorkload(id, universe), sandbox, options, workDir);
      evaluator = measured.evaluator;
      results.push(measured.result);
      console.log(jsonLine(measured.result, settingsOf(options, evaluator), describeMachine()));
    }
    const settings = settingsOf(options, evaluator);
    console.log(
      `\n${machineLine(describeMachine(), settings)}\n\n${markdownTable(results)}\n\n${targetsTable(results)}`,
    );
    console.log(`\nTotal bench time: ${round((performance.now() - started) / 1000, 1)} s`);
    if (options.write) writeResults(results, settings);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await sandbox.close();
  }
}

function settingsOf(options: BenchOptions, evaluator: string): RunSettings {
  return { latency_ms: options.latencyMs, max_concurrent: options.maxConcurrent, evaluator };
}

void main();
