// `npm run bench`: fills each workload with the product (as `fdq eval -f` does) against the sandbox
// under realistic latency and a server-side concurrency cap, side by side with the naive client, a
// per-cell client and the lower bound, and counts the quota units of the fast plan (per-request billing)
// and of the economy plan (per-datapoint billing); prints a markdown table and one JSON line per workload.
// `--workloads M1` (npm run bench:month) measures a month of daily refreshes instead (bench/month.ts).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "../src/sandbox";
import { fetchAll, type FetchRun } from "./baselines";
import type { ChildConfig } from "./child-protocol";
import { idealSeconds, lowerBoundRequests, unitsBound } from "./lower-bound";
import { runEvaluator, type EvaluatorRun } from "./measure";
import { measureMonth, MONTH } from "./month";
import { parseBenchOptions, USAGE, type BenchOptions } from "./options";
import {
  describeMachine,
  jsonLine,
  machineLine,
  markdownTable,
  monthTable,
  round,
  targetsTable,
  type MonthResult,
  type RunSettings,
  type WorkloadResult,
} from "./results-format";
import { extrapolateSeconds, planSample, sampleIndexes } from "./sampling";
import { sandboxUniverse } from "./universe";
import { boundUrl, cellUrl } from "./wire";
import {
  buildWorkload,
  formulaText,
  MONTH_WORKLOAD_ID,
  workloadCells,
  type Workload,
  type WorkloadId,
} from "./workloads";

/** The sandbox data the universe is read from. */
const SANDBOX_SEED = 1;
/** The product's key on the timed sandbox: its units are metered apart from the baselines' (demo key). */
const PRODUCT_KEY = "fdq-bench-product";
/** The units-economy run only counts units: a short latency keeps it quick. */
const ECONOMY_LATENCY_MS = 1;

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
  // The product is run as a user would against a service serving `cap` requests at a time, on an account
  // billed per request: the fast plan, every dataset asked whole.
  const child: Omit<ChildConfig, "passes"> = {
    formulasFile,
    baseUrl,
    cacheDir,
    concurrency: cap,
    billing: "per-request",
  };

  const boundUrls = bound.map((r) => boundUrl(baseUrl, r));
  const lowerBound = await fetchAll(boundUrls, cap, demoKey);
  warnFailures("lower-bound", lowerBound);

  const evaluate = async (label: string): Promise<EvaluatorRun & { requests: number; units: number }> => {
    const [before, unitsBefore] = [sandbox.stats().requests, sandbox.usage(PRODUCT_KEY)];
    const run = await runEvaluator({ ...child, passes: 1 }, PRODUCT_KEY);
    const requests = sandbox.stats().requests - before;
    const units = sandbox.usage(PRODUCT_KEY) - unitsBefore;
    if (options.verbose)
      console.error(`${workload.id} ${label}: ${JSON.stringify({ requests, units, ...run })}`);
    return { ...run, requests, units };
  };
  const { report: cold, requests, units: unitsFast } = await evaluate("cold");
  const { report: warm, requests: warmRequests, processSeconds: warmProcessS } = await evaluate("warm");
  const economy = await economyRun(child, workDir, workload.id, options);

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
      units_fast: unitsFast,
      units_economy: economy.units,
      requests_economy: economy.requests,
      units_bound: unitsBound(cells),
    },
  };
}

/**
 * The units of the same workload on an account billed per datapoint: a second cold run, in a fresh process
 * with a fresh cache, against a fresh sandbox (its meter starts at 0) at a short latency.
 */
async function economyRun(
  child: Omit<ChildConfig, "passes">,
  workDir: string,
  id: string,
  options: BenchOptions,
): Promise<{ units: number; requests: number }> {
  const sandbox = await startSandbox({
    port: 0,
    seed: SANDBOX_SEED,
    latencyMs: ECONOMY_LATENCY_MS,
    maxConcurrent: options.maxConcurrent,
  });
  try {
    const cacheDir = path.join(workDir, `${id}-economy-cache`);
    mkdirSync(cacheDir);
    const config = {
      ...child,
      baseUrl: sandbox.baseUrl,
      cacheDir,
      billing: "per-datapoint",
      passes: 1,
    } as const;
    const { report } = await runEvaluator(config, sandbox.demoKey);
    const errors = report.passes[0]?.errors ?? 0;
    if (errors > 0) console.error(`warning: ${id} economy run: ${errors} cells failed`);
    const result = { units: sandbox.usage(), requests: sandbox.stats().requests };
    if (options.verbose) console.error(`${id} economy: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await sandbox.close();
  }
}

/** The M1 part of the report: its table and how its figures are made. */
function monthSection(month: MonthResult): string[] {
  return [
    `M1: ${month.title}; ${month.days} trading days ${month.first_day} to ${month.last_day} at 15:00 UTC on an ` +
      `injected clock, restatement from ${month.restate}, per-datapoint billing, a new client per day over one ` +
      `stored cache per policy, ${MONTH.latencyMs} ms per request. Max cells on plan: the model scaled linearly ` +
      `from the measured units per cell.`,
    "",
    monthTable(month),
  ];
}

/**
 * latest.md and latest.jsonl hold the workloads of one recalculation (W1-W4); latest-month.md and
 * latest-month.jsonl hold M1, so that `npm run bench` and `npm run bench:month` do not overwrite each other.
 */
function writeResults(
  results: readonly WorkloadResult[],
  settings: RunSettings,
  month: MonthResult | undefined,
  monthRunSettings: RunSettings,
): void {
  const machine = describeMachine();
  const dir = path.join(__dirname, "results");
  mkdirSync(dir, { recursive: true });
  const write = (
    name: string,
    lines: readonly string[],
    json: readonly (WorkloadResult | MonthResult)[],
    as: RunSettings,
  ): void => {
    writeFileSync(path.join(dir, `${name}.md`), lines.join("\n"));
    writeFileSync(
      path.join(dir, `${name}.jsonl`),
      json.map((r) => jsonLine(r, as, machine)).join("\n") + "\n",
    );
  };
  if (results.length > 0) {
    write(
      "latest",
      [
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
      ],
      results,
      settings,
    );
  }
  if (month) {
    write(
      "latest-month",
      [
        "# Benchmark results: M1, a month of daily refreshes (latest run)",
        "",
        machineLine(machine, monthRunSettings),
        "",
        ...monthSection(month),
        "",
        "## Targets",
        "",
        targetsTable([], month),
        "",
      ],
      [month],
      monthRunSettings,
    );
  }
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
    apiKeys: [PRODUCT_KEY],
  });
  const workDir = mkdtempSync(path.join(tmpdir(), "fdq-bench-"));
  const started = performance.now();
  try {
    const universe = sandboxUniverse(SANDBOX_SEED, new Date());
    const results: WorkloadResult[] = [];
    let evaluator = "";
    const timed = options.workloads.filter((id): id is WorkloadId => id !== MONTH_WORKLOAD_ID);
    for (const id of timed) {
      const measured = await measureWorkload(buildWorkload(id, universe), sandbox, options, workDir);
      evaluator = measured.evaluator;
      results.push(measured.result);
      console.log(jsonLine(measured.result, settingsOf(options, evaluator), describeMachine()));
    }
    let month: MonthResult | undefined;
    if (options.workloads.includes(MONTH_WORKLOAD_ID)) {
      month = await measureMonth({
        maxConcurrent: options.maxConcurrent,
        seed: SANDBOX_SEED,
        verbose: options.verbose,
      });
      console.log(jsonLine(month, monthSettings(options), describeMachine()));
    }
    const settings = settingsOf(options, evaluator);
    const report = [machineLine(describeMachine(), results.length > 0 ? settings : monthSettings(options))];
    if (results.length > 0) report.push(markdownTable(results));
    if (month) report.push(monthSection(month).join("\n"));
    report.push(targetsTable(results, month));
    console.log(`\n${report.join("\n\n")}`);
    console.log(`\nTotal bench time: ${round((performance.now() - started) / 1000, 1)} s`);
    if (options.write) writeResults(results, settings, month, monthSettings(options));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await sandbox.close();
  }
}

function settingsOf(options: BenchOptions, evaluator: string): RunSettings {
  return { latency_ms: options.latencyMs, max_concurrent: options.maxConcurrent, evaluator };
}

/** M1 runs at its own short latency, in the bench's process, with the request module's client. */
function monthSettings(options: BenchOptions): RunSettings {
  return {
    latency_ms: MONTH.latencyMs,
    max_concurrent: options.maxConcurrent,
    evaluator: "src/api FdqClient in-process (src/cli evaluateAll), a new client per refresh day",
  };
}

void main();
