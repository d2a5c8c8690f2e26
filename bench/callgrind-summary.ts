// `npx tsx bench/callgrind-summary.ts START EVALUATED CELLS [FLOOR_START FLOOR_EVALUATED]`: where a warm run's
// instructions went, per cached cell, from the callgrind files `bench/warm-instructions.ts --keep DIR` leaves (the
// process stopped before evaluating, and the one that evaluated; with the floor's two, side by side). Each
// function's own instructions (callgrind_annotate's self cost, the evaluated process's minus the start-up's) are
// put in one of V8's parts by its name: Node's binary carries the names of V8's C++ and of its builtins (the
// interpreter's handlers, the inline caches), while code V8 generates at run time (baseline and optimised
// JavaScript) has none and is counted as "generated code".
import { spawnSync } from "node:child_process";

/** V8's parts, by the names of their functions; the first that matches counts (JsonParser is no JavaScript parser). */
const PARTS: readonly (readonly [string, RegExp])[] = [
  ["JSON.parse and JSON.stringify", /Json/],
  [
    "optimising compiler (TurboFan)",
    /compiler::|Pipeline|turboshaft|RegisterAllocat|InstructionSelector|CodeGenerator|LiveRange|Zone/,
  ],
  [
    "garbage collector",
    /Heap|Scaveng|Mark|Sweep|Evacuat|Remembered|SlotSet|heap::|Worklist|RecordWrite|Collector|MemoryChunk|LiveObject|Pretenuring|Page|Ephemeron|GlobalHandles|FreeList|SizeFromMap|Visitor/,
  ],
  [
    "parser and bytecode compiler (first calls)",
    /Parser|Scanner|Preparse|Bytecode(Generator|ArrayBuilder|ArrayWriter)|Ast|Scope::|ConstantArrayBuilder|FunctionLiteral|Compiler::|UnoptimizedCompile|Rewriter|SharedFunctionInfo|FeedbackMetadata|baseline::|Assembler/,
  ],
  ["interpreter, inline caches and builtins", /Builtins_/],
  ["other V8 runtime", /v8::internal/],
  ["malloc and memory copies", /malloc|free|memcpy|memset|memmove/],
  ["generated code (baseline, optimised)", /^\?\?\?:0x/],
];
const OTHER = "other (Node, libuv, libc)";

/** Each function's own instructions in a callgrind file. */
function selfCosts(file: string): Map<string, number> {
  const run = spawnSync("callgrind_annotate", ["--threshold=100", file], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`callgrind_annotate ${file} failed: ${run.stderr}`);
  const costs = new Map<string, number>();
  for (const line of run.stdout.split("\n")) {
    const m = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!m || m[2]!.startsWith("PROGRAM TOTALS")) continue;
    const name = m[2]!.trim();
    costs.set(name, (costs.get(name) ?? 0) + Number(m[1]!.replace(/,/g, "")));
  }
  return costs;
}

function partOf(name: string): string {
  for (const [part, pattern] of PARTS) if (pattern.test(name)) return part;
  return OTHER;
}

/** Instructions per part: each function's in the evaluated process minus its own in the start-up's. */
function byPart(startFile: string, evaluatedFile: string): Map<string, number> {
  const start = selfCosts(startFile);
  const evaluated = selfCosts(evaluatedFile);
  const parts = new Map<string, number>();
  for (const name of new Set([...start.keys(), ...evaluated.keys()])) {
    const part = partOf(name);
    parts.set(part, (parts.get(part) ?? 0) + (evaluated.get(name) ?? 0) - (start.get(name) ?? 0));
  }
  return parts;
}

function main(): void {
  const [startFile, evaluatedFile, cellsText, floorStart, floorEvaluated] = process.argv.slice(2);
  const cells = Number(cellsText);
  if (!startFile || !evaluatedFile || !(cells > 0)) {
    throw new Error("usage: callgrind-summary.ts START EVALUATED CELLS [FLOOR_START FLOOR_EVALUATED]");
  }
  const product = byPart(startFile, evaluatedFile);
  const floor = floorStart && floorEvaluated ? byPart(floorStart, floorEvaluated) : undefined;
  const k = (n: number | undefined): string => `${((n ?? 0) / cells / 1000).toFixed(1)} k`;
  const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  const rows = [...product.keys()].sort((a, b) => (product.get(b) ?? 0) - (product.get(a) ?? 0));
  console.log(`| Part | Instructions per cached cell${floor ? " | Floor" : ""} |`);
  console.log(`| ---- | ---: ${floor ? "| ---: " : ""}|`);
  for (const part of rows) {
    console.log(`| ${part} | ${k(product.get(part))}${floor ? ` | ${k(floor.get(part))}` : ""} |`);
  }
  console.log(`| total | ${k(total(product))}${floor ? ` | ${k(total(floor))}` : ""} |`);
}

main();
