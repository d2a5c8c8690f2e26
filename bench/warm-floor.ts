// `npx tsx bench/warm-floor.ts [--workloads W1,W2,W3,W4] [--pairs 5]`: the product's CPU per cached cell beside
// the floor of the same warm run on the same machine (bench/floor-child.ts: the least work the run needs,
// written plainly and checking nothing), warm process by warm process in alternating order on one cache per
// workload. On this project's VM a page touched for the first time costs 16-22 µs (bench/page-faults.ts), so
// the absolute figures move from day to day; the floor says what the machine charges for the bytes alone
// today, and the ratio says how much the product adds to it. Both are divided by the workload's cells (a
// DATASET's datapoints, a SERIES's years); the floor must count the same cells as the product, with no error.
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runEvaluator } from "./measure";
import { forEachWarmWorkload, median, WARM_KEY, workloadIds } from "./warm-workloads";

const FLOOR = path.join(__dirname, "floor-child.ts");

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { workloads: { type: "string" }, pairs: { type: "string" } },
    strict: true,
  });
  const ids = workloadIds(values.workloads ?? "W1,W2,W3,W4");
  const pairs = Math.max(1, Math.floor(Number(values.pairs ?? "5")));
  await forEachWarmWorkload(ids, async ({ id, cells, config, sandbox }) => {
    await runEvaluator(config, WARM_KEY); // fills the cache
    const perCell = { product: [] as number[], floor: [] as number[] };
    const faults = { product: [] as number[], floor: [] as number[] };
    const reading: number[] = [];
    const ratios: number[] = [];
    // What the product's tally counts (a spill's every element): the floor must count the same.
    let counted: number | undefined;
    let dropped = 0;
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (["product", "floor"] as const) : (["floor", "product"] as const);
      const requestsBefore = sandbox.stats().requests;
      for (const which of order) {
        const { report } = await runEvaluator(config, WARM_KEY, which === "floor" ? { child: FLOOR } : {});
        const pass = report.passes[0];
        counted ??= pass?.cells;
        if (!pass || pass.errors > 0 || pass.cells !== counted) {
          throw new Error(`${id}: the ${which}'s warm run failed: ${JSON.stringify(pass)}`);
        }
        perCell[which].push(Math.round((pass.cpuUs / cells) * 10) / 10);
        faults[which].push(Math.round((pass.pageFaults / cells) * 100) / 100);
        if (which === "floor") reading.push((pass.readingUs ?? NaN) / cells);
      }
      // A product run that sent requests was not warm (the refresh day turned since the cache was filled, at
      // 5:20 US Central): the pair is dropped and run again on the cache it refilled, at most twice.
      const sent = sandbox.stats().requests - requestsBefore;
      if (sent > 0 && dropped < 2) {
        dropped++;
        console.log(`${id}: a product run sent ${sent} requests (not a warm run): pair dropped`);
        perCell.product.pop();
        perCell.floor.pop();
        faults.product.pop();
        faults.floor.pop();
        reading.pop();
        i--;
        continue;
      }
      if (sent > 0) throw new Error(`${id}: the product's warm runs keep sending requests (${sent})`);
      ratios.push(perCell.product[i]! / perCell.floor[i]!);
    }
    const product = median(perCell.product);
    const floor = median(perCell.floor);
    console.log(
      `${id}: CPU µs per cached cell, product ${perCell.product.join(", ")} (median ${product.toFixed(1)}, page faults per cell ` +
        `${median(faults.product).toFixed(2)}); floor ${perCell.floor.join(", ")} (median ${floor.toFixed(1)}, page faults per cell ` +
        `${median(faults.floor).toFixed(2)}, of which reading and parsing the two files ${median(reading).toFixed(1)}); product / floor ${(product / floor).toFixed(2)} ` +
        `(pair by pair ${ratios.map((r) => r.toFixed(2)).join(", ")}: median ${median(ratios).toFixed(2)})`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
