// `npx tsx bench/callgrind-diff.ts START.callgrind EVALUATED.callgrind --cells N [--top 40]`: where a warm
// evaluation's instructions go, by function and by kind of work. The two profiles are of the same warm process
// stopped before its evaluation and run through it (`bench/warm-instructions.ts --out DIR` keeps them, as
// `W3-this-tree-passes0.callgrind` and `...-passes1.callgrind`); their difference by function, per cell, is the
// evaluation's. Node's own code is named (Debian's node keeps its symbols): the garbage collector, the parser and
// the compilers, the interpreter's bytecode handlers and the other builtins (inline caches, JSON, strings); code
// V8 generated at run time (baseline and optimised JavaScript) has no name and is counted as one kind.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

/** What each kind of work is recognised by, in order: the first that matches a function's name wins. */
const KINDS: readonly [string, RegExp][] = [
  ["code generated at run time (baseline, optimised JavaScript)", /^\?\?\?:0x[0-9a-f]+ \[\?\?\?\]$/],
  ["JSON parsing and serialising", /JsonParser|JsonStringifier|JsonString/],
  ["the interpreter's bytecode handlers", /Builtins_\w*Handler\b/],
  ["write barrier", /Builtins_RecordWrite/],
  [
    "garbage collector",
    /Heap|Scaveng|MarkCompact|Marking|Sweeper|Evacuat|heap::|GCTracer|MemoryAllocator|cppgc|RememberedSet|SlotSet|MemoryChunk|PagedSpace|NewSpace|SemiSpace|LargeObjectSpace|Worklist|BodyDescriptor|ObjectVisitor|FreeList|Compactor|PointersUpdating|RootVisitor/,
  ],
  [
    "TurboFan (optimising compiler)",
    /compiler::|turboshaft|OptimizedCompilationJob|TurbofanCompilationJob|PipelineImpl/,
  ],
  [
    "parsing JavaScript source (a function's first call compiles it lazily)",
    /Parser|Scanner|Utf16CharacterStream|AstValueFactory|AstNode|AstRaw|Scope::|DeclarationScope|AstStringConstants/,
  ],
  [
    "bytecode and baseline compilers",
    /interpreter::|baseline::|Compiler::|Zone|Assembler|BytecodeAnalysis|SourcePosition|FeedbackVector|FeedbackMetadata|SharedFunctionInfo|CompilationCache|Deoptimiz|Sparkplug/,
  ],
  ["other builtins (inline caches, strings, arrays, promises, regular expressions)", /Builtins_/],
  ["C library (malloc, memcpy)", /\[\/usr\/lib\/x86_64-linux-gnu\/libc\.so\.6\]|libc\.so/],
  ["other runtime and library code (V8 runtime, ICU, OpenSSL, Node)", /./],
];

/** Self instructions by function name, as callgrind_annotate prints them. */
function selfCounts(file: string): Map<string, number> {
  const out = spawnSync(
    "callgrind_annotate",
    ["--threshold=100", "--auto=no", "--show-percs=no", "--inclusive=no", file],
    { encoding: "utf8", maxBuffer: 1 << 28 },
  );
  if (out.status !== 0) throw new Error(`callgrind_annotate failed on ${file}: ${out.stderr}`);
  const counts = new Map<string, number>();
  for (const line of out.stdout.split("\n")) {
    const m = /^\s*([\d,]+)\s+(\S.*)$/.exec(line);
    if (!m || m[2] === "PROGRAM TOTALS") continue;
    const name = m[2]!;
    counts.set(name, (counts.get(name) ?? 0) + Number(m[1]!.replace(/,/g, "")));
  }
  return counts;
}

/** A C++ name without its template and call arguments (`Heap` in an argument's type says nothing of the function). */
function bareName(name: string): string {
  let bare = name;
  for (let previous = ""; previous !== bare;) {
    previous = bare;
    bare = bare.replace(/<[^<>]*>/g, "").replace(/\([^()]*\)/g, "");
  }
  return bare;
}

function kindOf(name: string): string {
  const bare = bareName(name);
  return KINDS.find(([, pattern]) => pattern.test(bare))![0];
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { cells: { type: "string" }, top: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  const [startFile, evaluatedFile] = positionals;
  const cells = Number(values.cells);
  if (!startFile || !evaluatedFile || !(cells > 0))
    throw new Error("usage: callgrind-diff.ts START.callgrind EVALUATED.callgrind --cells N [--top 40]");
  const start = selfCounts(startFile);
  const evaluated = selfCounts(evaluatedFile);
  const diff = new Map<string, number>();
  for (const [name, n] of evaluated) diff.set(name, n - (start.get(name) ?? 0));
  for (const [name, n] of start) if (!evaluated.has(name)) diff.set(name, -n);
  const total = [...diff.values()].reduce((a, b) => a + b, 0);
  const byKind = new Map<string, number>();
  for (const [name, n] of diff) byKind.set(kindOf(name), (byKind.get(kindOf(name)) ?? 0) + n);
  const k = (n: number): string => (n / cells / 1000).toFixed(1).padStart(7);
  console.log(
    `Evaluation: ${k(total)} k instructions per cell (${cells} cells)\n\nBy kind of work (k per cell, share):`,
  );
  for (const [kind, n] of [...byKind].sort((a, b) => b[1] - a[1]))
    console.log(`${k(n)}  ${((n / total) * 100).toFixed(0).padStart(3)}%  ${kind}`);
  const top = Number(values.top ?? "40");
  console.log(`\nBy function, the ${top} largest (k per cell):`);
  for (const [name, n] of [...diff].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${k(n)}  ${name.length > 150 ? `${name.slice(0, 147)}...` : name}`);
}

main();
