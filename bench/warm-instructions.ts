// `npx tsx bench/warm-instructions.ts [--workloads W1,W3] [--base DIR] [--floor]`: instructions per cached cell, counted by
// valgrind's callgrind, which counts instructions rather than time: the same figure whatever the load, and
// whatever the machine's memory costs. On the project's machine the CPU per cell of the same code moved by a
// factor of three to four between days (a page fault there costs about 16 µs, bench/README.md); instruction
// counts are how two trees, or two days, compare.
//
// For each workload: the cache filled once (by this tree), then two warm processes under callgrind, one that
// stops before evaluating (`passes: 0`: Node's start-up and module loading) and one that evaluates once; the
// difference is the evaluation's, divided by the cells. Both run with `node --single-threaded`: under callgrind
// every thread runs in turn, so V8's background compiler would finish its work at other points of the program
// than it does natively, and the interpreter would run more or less of it from one run to the next; one thread
// makes the count nearly repeatable (within about 8% from run to run: V8's heuristics still vary). --base DIR
// counts another checkout the same way, on a cache its own cold run fills (a checkout made by
// `git archive <commit> | tar -x -C DIR` with a node_modules link).
// --floor counts bench/floor-child.ts (the floor of a warm run, see bench/warm-floor.ts) the same way, on this tree's
// cache, and prints the product's count over the floor's: the ratio of bench/warm-floor.ts in instructions.
// --second also counts a process that evaluates twice (the second pass on the same cache, in the same process):
// the second pass's count is the evaluation on code V8 has already compiled and optimised, so first minus second
// is what the first run's compilation and warm-up cost per cell (for the product and, with --floor, the floor).
// --out DIR keeps each process's callgrind profile there (`W3-this-tree-passes1.callgrind`...): Node's own
// functions are named (the interpreter's bytecode handlers, builtins, the compilers, the garbage collector);
// `npx tsx bench/callgrind-diff.ts START EVALUATED --cells N` subtracts the start-up's profile by function.
// --predictable-gc runs every counted process with V8's --predictable-gc-schedule (heap growth, idle and memory-
// reducing collections fixed rather than timed): V8 schedules collections by allocation rate over time, and under
// callgrind time runs about fifty times slower and moves with the machine's load, so without it the same tree's
// count moved by up to 14% between runs (bench/README.md, tenth round). --repeat N counts each evaluating process
// N times and prints every count and their median.
// Slow: callgrind runs Node about fifty times slower (W3 about 2 minutes per process).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { ChildConfig } from "./child-protocol";
import { runEvaluator } from "./measure";
import { forEachWarmWorkload, median, WARM_KEY, workloadIds } from "./warm-workloads";

const FLOOR = path.join(__dirname, "floor-child.ts");
/** `--out DIR`: where callgrind's profiles are kept (by function: bench/callgrind-diff.ts); dropped otherwise. */
let outDir: string | undefined;
/** `--predictable-gc` adds V8's fixed collection schedule. */
let nodeFlags = ["--single-threaded"];

/** Instructions of one warm process of `tree` evaluating `passes` times; `label` names its kept profile. */
async function instructions(
  label: string,
  config: ChildConfig,
  passes: number,
  tree?: string,
  child?: string,
): Promise<number> {
  const out = outDir === undefined ? "/dev/null" : path.join(outDir, `${label}-passes${passes}.callgrind`);
  const { report, stderr } = await runEvaluator({ ...config, passes }, WARM_KEY, {
    wrapper: ["valgrind", "--tool=callgrind", `--callgrind-out-file=${out}`],
    nodeFlags,
    ...(tree === undefined ? {} : { tree }),
    ...(child === undefined ? {} : { child }),
  });
  const errors = report.passes.reduce((sum, p) => sum + p.errors, 0);
  if (errors > 0) throw new Error(`a warm run under callgrind failed: ${JSON.stringify(report.passes[0])}`);
  const collected = /Collected : (\d+)/.exec(stderr)?.[1];
  if (!collected) throw new Error(`callgrind printed no count:\n${stderr.slice(-2000)}`);
  return Number(collected);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      workloads: { type: "string" },
      base: { type: "string" },
      floor: { type: "boolean" },
      second: { type: "boolean" },
      out: { type: "string" },
      "predictable-gc": { type: "boolean" },
      repeat: { type: "string" },
    },
    strict: true,
  });
  if (spawnSync("valgrind", ["--version"]).status !== 0)
    throw new Error("valgrind is not installed (Debian: apt-get install valgrind)");
  const ids = workloadIds(values.workloads ?? "W1,W3");
  if (values.out) mkdirSync((outDir = path.resolve(values.out)), { recursive: true });
  if (values["predictable-gc"]) nodeFlags = [...nodeFlags, "--predictable-gc-schedule"];
  const repeat = Math.max(1, Number(values.repeat ?? 1));
  /** The evaluation's instructions per cell, `repeat` times (each a new process), and their median. */
  const perCellCounts = async (
    label: string,
    own: ChildConfig,
    startUp: number,
    cells: number,
    tree?: string,
    child?: string,
  ) => {
    const counts: number[] = [];
    for (let i = 0; i < repeat; i++) {
      counts.push(Math.round(((await instructions(label, own, 1, tree, child)) - startUp) / cells));
    }
    return { counts, perCell: median(counts) };
  };
  const shown = (counts: number[]): string =>
    counts.length > 1 ? ` (each: ${counts.map((c) => (c / 1000).toFixed(1)).join(", ")} k)` : "";
  const trees: [string, string | undefined][] = [["this tree", undefined]];
  /** With --second: the second pass's instructions per cell, in a process that evaluated once before. */
  const secondPass = async (
    label: string,
    config: ChildConfig,
    evaluated: number,
    cells: number,
    tree?: string,
    child?: string,
  ) => {
    if (!values.second) return "";
    const twice = await instructions(label, config, 2, tree, child);
    return `; second pass in the same process ${((twice - evaluated) / cells / 1000).toFixed(1)} k per cell`;
  };
  if (values.base) trees.push([`base ${values.base}`, path.resolve(values.base)]);
  await forEachWarmWorkload(ids, async ({ id, cells, config, sandbox }) => {
    let ownPerCell = 0;
    for (const [name, tree] of trees) {
      // Each tree fills a cache of its own (its cold run): another tree's cache format may differ.
      const own: ChildConfig = { ...config, cacheDir: path.join(config.cacheDir, name.replace(/\W+/g, "-")) };
      mkdirSync(own.cacheDir, { recursive: true });
      await runEvaluator(own, WARM_KEY, tree === undefined ? {} : { tree });
      const before = sandbox.stats().requests;
      const label = `${id}-${name.replace(/\W+/g, "-")}`;
      const startUp = await instructions(label, own, 0, tree);
      const { counts, perCell } = await perCellCounts(label, own, startUp, cells, tree);
      const evaluated = startUp + perCell * cells;
      // A tree that could not read its cache would fetch: its count would not be a warm run's.
      const requests = sandbox.stats().requests - before;
      if (requests > 0) throw new Error(`${id} ${name}: the warm run sent ${requests} requests`);
      if (tree === undefined) ownPerCell = perCell;
      const second = await secondPass(label, own, evaluated, cells, tree);
      console.log(
        `${id} ${name}: ${cells} cells; start-up ${(startUp / 1e6).toFixed(0)} M instructions, evaluation ` +
          `${((evaluated - startUp) / 1e6).toFixed(0)} M: ${(perCell / 1000).toFixed(1)} k instructions per cached cell` +
          shown(counts) +
          second,
      );
    }
    if (values.floor) {
      // On this tree's cache (filled above, in its own folder), the floor's process stopped before its work and
      // the one that does it: passes 0 makes the floor child report without reading anything.
      const own: ChildConfig = { ...config, cacheDir: path.join(config.cacheDir, "this-tree") };
      // Run once outside callgrind first, as the product's cold run does for the product: a file tsx has not
      // compiled before (its cache is per path) is compiled in the first process that loads it, which would
      // charge that compilation to the start-up count alone (W1's floor then counted 15-17 k instead of 38-40 k).
      await runEvaluator(own, WARM_KEY, { child: FLOOR });
      const startUp = await instructions(`${id}-floor`, own, 0, undefined, FLOOR);
      const { counts, perCell } = await perCellCounts(`${id}-floor`, own, startUp, cells, undefined, FLOOR);
      const evaluated = startUp + perCell * cells;
      const second = await secondPass(`${id}-floor`, own, evaluated, cells, undefined, FLOOR);
      console.log(
        `${id} floor: start-up ${(startUp / 1e6).toFixed(0)} M instructions, evaluation ` +
          `${((evaluated - startUp) / 1e6).toFixed(0)} M: ${(perCell / 1000).toFixed(1)} k instructions per ` +
          `cached cell${shown(counts)}; product / floor ${(ownPerCell / perCell).toFixed(2)}` +
          second,
      );
    }
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
