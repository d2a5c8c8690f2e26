// `npx tsx bench/warm-cpu.ts [--workloads W3,W4] [--runs 5]`: the CPU per cached cell alone, repeated. Fills
// each workload once against the sandbox at 1 ms a request, then starts `--runs` warm evaluating processes on
// the same cache (as `npm run bench` does once) and prints each run's CPU µs per cell and their median: on a
// shared machine one warm run is noisy, the median of several compares a change before and after.
// FDQ_BENCH_CPU_PROF=DIR profiles the warm processes only (whole processes); FDQ_BENCH_EVAL_PROF=DIR profiles
// only their measured evaluation (see evaluate-child.ts).
import { parseArgs } from "node:util";
import { runEvaluator } from "./measure";
import { forEachWarmWorkload, median, WARM_KEY, workloadIds } from "./warm-workloads";
import { WORKLOAD_IDS } from "./workloads";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { workloads: { type: "string" }, runs: { type: "string" } },
    strict: true,
  });
  const ids = workloadIds(values.workloads ?? WORKLOAD_IDS.join(","));
  const runs = Math.max(1, Math.floor(Number(values.runs ?? "5")));
  const profileDir = process.env.FDQ_BENCH_CPU_PROF;
  const evalProfileDir = process.env.FDQ_BENCH_EVAL_PROF;
  delete process.env.FDQ_BENCH_CPU_PROF; // the cold run is not profiled
  delete process.env.FDQ_BENCH_EVAL_PROF;
  await forEachWarmWorkload(ids, async ({ id, cells, config, sandbox }) => {
    await runEvaluator(config, WARM_KEY);
    if (profileDir) process.env.FDQ_BENCH_CPU_PROF = profileDir;
    if (evalProfileDir) process.env.FDQ_BENCH_EVAL_PROF = evalProfileDir;
    const before = sandbox.stats().requests;
    const perCell: number[] = [];
    const faultsPerCell: number[] = [];
    const systemShare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { report } = await runEvaluator(config, WARM_KEY);
      const pass = report.passes[0];
      if (!pass || pass.errors > 0) throw new Error(`${id}: the warm run failed: ${JSON.stringify(pass)}`);
      perCell.push(Math.round((pass.cpuUs / cells) * 10) / 10);
      faultsPerCell.push(Math.round((pass.pageFaults / cells) * 100) / 100);
      systemShare.push(Math.round((pass.systemUs / pass.cpuUs) * 100));
    }
    delete process.env.FDQ_BENCH_CPU_PROF;
    delete process.env.FDQ_BENCH_EVAL_PROF;
    const requests = sandbox.stats().requests - before;
    console.log(
      `${id}: ${cells} cells, ${requests} warm requests, CPU µs per cached cell ${perCell.join(", ")}; median ${median(perCell)}; ` +
        `page faults per cell ${faultsPerCell.join(", ")}; system CPU ${systemShare.join("%, ")}%`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
