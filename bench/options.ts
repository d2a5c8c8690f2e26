// `npm run bench -- [flags]`: the sandbox's conditions and how much of each baseline to run.
import { parseArgs } from "node:util";
import { DEFAULTS } from "../src/api";
import { MONTH_WORKLOAD_ID, WORKLOAD_IDS } from "./workloads";

/** Every workload `--workloads` takes: the recalculations W1-W4 and the month M1. */
export const ALL_WORKLOAD_IDS = [...WORKLOAD_IDS, MONTH_WORKLOAD_ID] as const;
export type AnyWorkloadId = (typeof ALL_WORKLOAD_IDS)[number];
/** `npm run bench` without --workloads: W1-W4 (M1 is `npm run bench:month`, about 1.5 minutes more). */
export const DEFAULT_WORKLOADS: readonly AnyWorkloadId[] = WORKLOAD_IDS;

export interface BenchOptions {
  /** Added by the sandbox to every request. */
  readonly latencyMs: number;
  /** Requests the sandbox serves at a time (the rest wait), and the baselines' concurrency. */
  readonly maxConcurrent: number;
  readonly workloads: readonly AnyWorkloadId[];
  /** Most seconds a baseline may run before it is sampled instead. */
  readonly naiveBudgetS: number;
  readonly perCellBudgetS: number;
  readonly seed: number;
  /** Write bench/results/latest.{md,jsonl}. */
  readonly write: boolean;
  /** Print every evaluating process's own report on stderr. */
  readonly verbose: boolean;
}

export const USAGE = `Usage: npm run bench -- [options]
  --latency-ms N        per-request latency added by the sandbox (default 80)
  --max-concurrent N    requests the sandbox serves at a time, the concurrency of the per-cell and
                        lower-bound baselines, and the product's \`fdq eval --concurrency\` (default
                        ${DEFAULTS.concurrency}, the request module's own default)
  --workloads LIST      comma-separated subset of W1,W2,W3,W4,M1 (default W1,W2,W3,W4; M1, a month of
                        daily refreshes measured in quota units, is \`npm run bench:month\`)
  --naive-budget-s N    seconds the sequential baseline may run per workload before sampling (default 3)
  --per-cell-budget-s N seconds the per-cell baseline may run per workload before sampling (default 3)
  --seed N              seed of the baselines' random samples (default 1)
  --no-write            do not update bench/results/latest.md and latest.jsonl
  --verbose             print each evaluating process's report (passes, CPU, peak RSS) on stderr
Environment: FDQ_BENCH_CPU_PROF=DIR writes a .cpuprofile of every evaluating process into DIR;
FDQ_BENCH_EVAL_PROF=DIR one of each measured evaluation only (no start-up or module loading).`;

function positive(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`--${name} must be a ${allowZero ? "non-negative" : "positive"} number, not ${text}`);
  }
  return value;
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      "latency-ms": { type: "string" },
      "max-concurrent": { type: "string" },
      workloads: { type: "string" },
      "naive-budget-s": { type: "string" },
      "per-cell-budget-s": { type: "string" },
      seed: { type: "string" },
      "no-write": { type: "boolean" },
      verbose: { type: "boolean" },
    },
    strict: true,
  });
  const workloads = (values.workloads ?? DEFAULT_WORKLOADS.join(","))
    .split(",")
    .map((w) => w.trim().toUpperCase())
    .filter((w) => w !== "");
  for (const w of workloads) {
    if (!(ALL_WORKLOAD_IDS as readonly string[]).includes(w)) {
      throw new Error(`Unknown workload ${w}; the workloads are ${ALL_WORKLOAD_IDS.join(", ")}`);
    }
  }
  return {
    latencyMs: positive("latency-ms", values["latency-ms"], 80, true),
    maxConcurrent: Math.floor(positive("max-concurrent", values["max-concurrent"], DEFAULTS.concurrency)),
    workloads: workloads as AnyWorkloadId[],
    naiveBudgetS: positive("naive-budget-s", values["naive-budget-s"], 3),
    perCellBudgetS: positive("per-cell-budget-s", values["per-cell-budget-s"], 3),
    seed: Math.floor(positive("seed", values.seed, 1, true)),
    write: values["no-write"] !== true,
    verbose: values.verbose === true,
  };
}
