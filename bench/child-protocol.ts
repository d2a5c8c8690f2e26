// What the measuring process and the evaluating child process say to each other.
import type { BillingModel } from "../src/api";

/** Passed in FDQ_BENCH_CHILD; the API key travels separately in FDQ_BENCH_API_KEY, never in argv. */
export interface ChildConfig {
  readonly formulasFile: string;
  readonly baseUrl: string;
  readonly cacheDir: string;
  /** Passed as `fdq eval --concurrency`. */
  readonly concurrency: number;
  /**
   * Passed as `fdq eval --billing`: `per-request` for the timed runs (the fast plan, whole datasets),
   * `per-datapoint` for the units-economy run (the vendor's unit, the request module's default).
   */
  readonly billing: BillingModel;
  /** Evaluations in a row in the same process; the second and later ones find the cache in memory. */
  readonly passes: number;
}

export interface PassResult {
  readonly seconds: number;
  /** User + system CPU of the process over the evaluation. */
  readonly cpuUs: number;
  /** Of which system CPU: in a new process mostly the kernel's page faults as the heap grows. */
  readonly systemUs: number;
  /** Minor page faults over the evaluation (memory touched for the first time). */
  readonly pageFaults: number;
  readonly cells: number;
  readonly errors: number;
  /** A few error texts, to say why cells failed. */
  readonly errorSamples: readonly string[];
  /**
   * The floor only (bench/floor-child.ts): of cpuUs, the CPU spent reading and parsing the formula file and the
   * cache file, before any cell is looked at.
   */
  readonly readingUs?: number;
}

export interface ChildReport {
  readonly passes: readonly PassResult[];
  /** Peak resident set of the child over its whole life. */
  readonly maxRssMb: number;
  readonly evaluator: string;
}

/** Marks the child's report among anything else it prints. */
export const REPORT_PREFIX = "FDQ_BENCH_REPORT ";
export const CONFIG_ENV = "FDQ_BENCH_CHILD";
export const KEY_ENV = "FDQ_BENCH_API_KEY";

/** What a pass found, as the evaluating side counts it. */
export type PassOutcome = Pick<PassResult, "cells" | "errors" | "errorSamples" | "readingUs">;

/**
 * Runs one pass and measures it as every evaluating child does: wall time, the process's CPU (user + system,
 * all its threads) and its minor page faults, from just before `run` to just after it.
 */
export async function measuredPass(run: () => PassOutcome | Promise<PassOutcome>): Promise<PassResult> {
  const faultsBefore = process.resourceUsage().minorPageFault;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const outcome = await run();
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const pageFaults = process.resourceUsage().minorPageFault - faultsBefore;
  return { seconds, cpuUs: cpu.user + cpu.system, systemUs: cpu.system, pageFaults, ...outcome };
}

/** Prints the child's report, the line the measuring process reads, with the process's peak RSS. */
export function writeReport(passes: readonly PassResult[], evaluator: string): void {
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const report: ChildReport = { passes, maxRssMb, evaluator };
  process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(report)}\n`);
}
