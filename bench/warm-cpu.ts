// `npx tsx bench/warm-cpu.ts [--workloads W3,W4] [--runs 5]`: the CPU per cached cell alone, repeated. Fills
// each workload once against the sandbox at 1 ms a request, then starts `--runs` warm evaluating processes on
// the same cache (as `npm run bench` does once) and prints each run's CPU µs per cell and their median: on a
// shared machine one warm run is noisy, the median of several compares a change before and after.
// FDQ_BENCH_CPU_PROF=DIR profiles the warm processes only (whole processes); FDQ_BENCH_EVAL_PROF=DIR profiles
// only their measured evaluation (see evaluate-child.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startSandbox } from "../src/sandbox";
import type { ChildConfig } from "./child-protocol";
import { runEvaluator } from "./measure";
import { sandboxUniverse } from "./universe";
import { buildWorkload, formulaText, WORKLOAD_IDS, workloadCells, type WorkloadId } from "./workloads";

const KEY = "fdq-bench-warm";

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { workloads: { type: "string" }, runs: { type: "string" } },
    strict: true,
  });
  const ids = (values.workloads ?? WORKLOAD_IDS.join(",")).split(",").map((w) => w.trim().toUpperCase());
  for (const id of ids) {
    if (!(WORKLOAD_IDS as readonly string[]).includes(id)) throw new Error(`Unknown workload ${id}`);
  }
  const runs = Math.max(1, Math.floor(Number(values.runs ?? "5")));
  const profileDir = process.env.FDQ_BENCH_CPU_PROF;
  const evalProfileDir = process.env.FDQ_BENCH_EVAL_PROF;
  delete process.env.FDQ_BENCH_CPU_PROF; // the cold run is not profiled
  delete process.env.FDQ_BENCH_EVAL_PROF;
  const sandbox = await startSandbox({ port: 0, latencyMs: 1, maxConcurrent: 6, apiKeys: [KEY] });
  const workDir = mkdtempSync(path.join(tmpdir(), "fdq-bench-warm-"));
  try {
    const universe = sandboxUniverse(1, new Date());
    for (const id of ids as WorkloadId[]) {
      const workload = buildWorkload(id, universe);
      const cells = workloadCells(workload).length;
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
      await runEvaluator(config, KEY);
      if (profileDir) process.env.FDQ_BENCH_CPU_PROF = profileDir;
      if (evalProfileDir) process.env.FDQ_BENCH_EVAL_PROF = evalProfileDir;
      const before = sandbox.stats().requests;
      const perCell: number[] = [];
      for (let i = 0; i < runs; i++) {
        const { report } = await runEvaluator(config, KEY);
        const pass = report.passes[0];
        if (!pass || pass.errors > 0) throw new Error(`${id}: the warm run failed: ${JSON.stringify(pass)}`);
        perCell.push(Math.round((pass.cpuUs / cells) * 10) / 10);
      }
      delete process.env.FDQ_BENCH_CPU_PROF;
      delete process.env.FDQ_BENCH_EVAL_PROF;
      const requests = sandbox.stats().requests - before;
      console.log(
        `${id}: ${cells} cells, ${requests} warm requests, CPU µs per cached cell ${perCell.join(", ")}; median ${median(perCell)}`,
      );
    }
  } finally {
    if (process.env.FDQ_BENCH_KEEP) console.log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
