// What bench/warm-cpu.ts and bench/warm-ab.ts share: the workloads named on their command line, each written
// as a formula file with an empty cache directory beside it, against one sandbox at 1 ms a request, all in a
// temporary directory removed at the end (kept with FDQ_BENCH_KEEP=1). The caller fills each cache (its cold
// run) and then measures warm runs on it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "../src/sandbox";
import type { ChildConfig } from "./child-protocol";
import { sandboxUniverse } from "./universe";
import { buildWorkload, formulaText, WORKLOAD_IDS, workloadCells, type WorkloadId } from "./workloads";

/** The key the warm benches' sandbox accepts. */
export const WARM_KEY = "fdq-bench-warm";

export interface WarmWorkload {
  readonly id: WorkloadId;
  /** Cells of the workload: the divisor of CPU per cached cell. */
  readonly cells: number;
  /** The evaluating process's configuration: its formula file and its own cache directory. */
  readonly config: ChildConfig;
  readonly sandbox: RunningSandbox;
}

/** `--workloads W3,W4` as workload ids; an unknown one is an error. */
export function workloadIds(list: string): WorkloadId[] {
  const ids = list.split(",").map((w) => w.trim().toUpperCase());
  for (const id of ids) {
    if (!(WORKLOAD_IDS as readonly string[]).includes(id)) throw new Error(`Unknown workload ${id}`);
  }
  return ids as WorkloadId[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Runs `each` on every workload in turn, one sandbox and one temporary directory for all of them. */
export async function forEachWarmWorkload(
  ids: readonly WorkloadId[],
  each: (workload: WarmWorkload) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox({ port: 0, latencyMs: 1, maxConcurrent: 6, apiKeys: [WARM_KEY] });
  const workDir = mkdtempSync(path.join(tmpdir(), "fdq-bench-warm-"));
  try {
    const universe = sandboxUniverse(1, new Date());
    for (const id of ids) {
      const workload = buildWorkload(id, universe);
      const formulasFile = path.join(workDir, `${id}.txt`);
      writeFileSync(formulasFile, workload.formulas.map(formulaText).join("\n") + "\n");
      const cacheDir = path.join(workDir, `${id}-cache`);
      mkdirSync(cacheDir);
      const config: ChildConfig = {
        formulasFile,
        baseUrl: sandbox.baseUrl,
        cacheDir,
        concurrency: 6,
        billing: "per-request",
        passes: 1,
      };
      await each({ id, cells: workloadCells(workload).length, config, sandbox });
    }
  } finally {
    if (process.env.FDQ_BENCH_KEEP) console.log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
    await sandbox.close();
  }
}
