// `npx tsx bench/warm-ab.ts --base DIR [--workloads W3,W4] [--pairs 10]`: CPU per cached cell of this tree
// against another checkout of the project (DIR, e.g. `git archive <commit> | tar -x -C DIR` with a
// node_modules link), warm process by warm process in alternating order on one cache per workload. On a
// shared machine the load changes from minute to minute; interleaving puts both trees under the same load,
// which two `warm-cpu.ts` runs one after the other do not. The cache is filled by the base tree.
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { ChildConfig } from "./child-protocol";
import { runEvaluator, type EvaluatorRun } from "./measure";
import { forEachWarmWorkload, median, WARM_KEY, workloadIds } from "./warm-workloads";

type Run = (config: ChildConfig, apiKey: string) => Promise<EvaluatorRun>;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { base: { type: "string" }, workloads: { type: "string" }, pairs: { type: "string" } },
    strict: true,
  });
  if (!values.base)
    throw new Error("Usage: npx tsx bench/warm-ab.ts --base DIR [--workloads W3,W4] [--pairs 10]");
  const baseMeasure = (await import(path.resolve(values.base, "bench/measure.ts"))) as { runEvaluator: Run };
  const ids = workloadIds(values.workloads ?? "W3,W4");
  const pairs = Math.max(1, Math.floor(Number(values.pairs ?? "10")));
  await forEachWarmWorkload(ids, async ({ id, cells, config }) => {
    await baseMeasure.runEvaluator(config, WARM_KEY);
    const perCell = { base: [] as number[], this: [] as number[] };
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (["base", "this"] as const) : (["this", "base"] as const);
      for (const tree of order) {
        const run = tree === "base" ? baseMeasure.runEvaluator : runEvaluator;
        const { report } = await run(config, WARM_KEY);
        const pass = report.passes[0];
        if (!pass || pass.errors > 0) throw new Error(`${id}: a warm run failed: ${JSON.stringify(pass)}`);
        perCell[tree].push(Math.round((pass.cpuUs / cells) * 10) / 10);
      }
    }
    const round = (x: number): number => Math.round(x * 10) / 10;
    const [base, self] = [round(median(perCell.base)), round(median(perCell.this))];
    console.log(
      `${id}: CPU µs per cached cell, base ${perCell.base.join(", ")} (median ${base}); this tree ` +
        `${perCell.this.join(", ")} (median ${self}); this / base ${(self / base).toFixed(2)}`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
