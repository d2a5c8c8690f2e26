// `npx tsx bench/warm-ab.ts --base DIR [--workloads W3,W4] [--pairs 10]`: CPU per cached cell of this tree
// against another checkout of the project (DIR, e.g. `git archive <commit> | tar -x -C DIR` with a
// node_modules link), warm process by warm process in alternating order, each tree on a cache of its own per
// workload (filled by its own cold run: the trees' cache formats may differ). On a shared machine the load
// changes from minute to minute; interleaving puts both trees under the same load, which two `warm-cpu.ts`
// runs one after the other do not.
import { mkdirSync } from "node:fs";
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
  await forEachWarmWorkload(ids, async ({ id, cells, config, sandbox }) => {
    const own = (tree: string): ChildConfig => {
      const cacheDir = path.join(config.cacheDir, tree);
      mkdirSync(cacheDir, { recursive: true });
      return { ...config, cacheDir };
    };
    const configs = { base: own("base"), this: own("this") };
    await baseMeasure.runEvaluator(configs.base, WARM_KEY);
    await runEvaluator(configs.this, WARM_KEY);
    const before = sandbox.stats().requests;
    const perCell = { base: [] as number[], this: [] as number[] };
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (["base", "this"] as const) : (["this", "base"] as const);
      for (const tree of order) {
        const run = tree === "base" ? baseMeasure.runEvaluator : runEvaluator;
        const { report } = await run(configs[tree], WARM_KEY);
        const pass = report.passes[0];
        if (!pass || pass.errors > 0) throw new Error(`${id}: a warm run failed: ${JSON.stringify(pass)}`);
        perCell[tree].push(Math.round((pass.cpuUs / cells) * 10) / 10);
      }
    }
    // A run that could not read its cache fetched: its figure would not be a warm run's.
    const requests = sandbox.stats().requests - before;
    if (requests > 0) throw new Error(`${id}: the warm runs sent ${requests} requests`);
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
