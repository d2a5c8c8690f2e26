// `npx tsx bench/refresh-memory.ts`: the peak resident memory of `fdq refresh` on R1's workbook (50,000 FDQ
// cells: bench/refresh-real.ts), on R2's (20 sheets of 100,000 plain values and formulas, and 1,000 FDQ cells:
// bench/refresh-workbooks.ts) and on R3's (1,000 FDQ cells and 1,000,000 plain values and formulas on one sheet),
// against the sandbox at 1 ms a request (the memory, not the wait, is measured),
// each run as a process under `/usr/bin/time -f "%e s %M KB"`. With --fdq DIR (repeatable) the same runs go
// through other trees' bin/fdq.js, alternating, and their refreshed workbooks are compared part by part.
// Flags: --fdq DIR (default: this tree), --rounds N (default 2), --tickers N (R1, default 250), --sheets N and
// --rows N (R2, default 20 and 10,000), --r3-rows N (R3, default 100,000), --books R1,R2,R3 (default all three).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { unzipSync } from "fflate";
import { startSandbox } from "../src/sandbox";
import { buildR1, buildR3, buildWide, type Model } from "./refresh-workbooks";

interface Run {
  readonly seconds: number;
  readonly peakMb: number;
  readonly summary: string;
}

/**
 * A refreshed file's parts in order, each as its name and the SHA-256 of its contents: a patched part deflated
 * differently (in pieces or at once) is the same part.
 */
function partsOf(file: string): string {
  const parts = unzipSync(readFileSync(file));
  return Object.entries(parts)
    .map(([name, content]) => `${name} ${createHash("sha256").update(content).digest("hex")}`)
    .join("\n");
}

/** One `fdq refresh` of `input` through `tree`'s bin/fdq.js, under /usr/bin/time. */
function refresh(tree: string, input: string, output: string, baseUrl: string, key: string): Promise<Run> {
  const args = [
    "-f",
    "%e s %M KB",
    process.execPath,
    path.join(tree, "bin/fdq.js"),
    "refresh",
    input,
    "-o",
    output,
    "--base-url",
    baseUrl,
    "--api-key",
    key,
    "--no-cache",
    "--billing",
    "per-request",
    "--concurrency",
    "6",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => {
      const m = /([\d.]+) s (\d+) KB\s*$/.exec(stderr);
      if (code !== 0 || !m) {
        reject(new Error(`fdq refresh (${tree}) exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      resolve({ seconds: Number(m[1]), peakMb: Math.round(Number(m[2]) / 1024), summary: stdout.trim() });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fdq: { type: "string", multiple: true },
      rounds: { type: "string" },
      tickers: { type: "string" },
      sheets: { type: "string" },
      rows: { type: "string" },
      "r3-rows": { type: "string" },
      books: { type: "string" },
    },
    strict: true,
  });
  const trees = (values.fdq ?? [path.join(__dirname, "..")]).map((t) => path.resolve(t));
  const rounds = Math.max(1, Number(values.rounds ?? 2));
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-bench-refresh-memory-"));
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", latencyMs: 1 });
  try {
    const wanted = new Set((values.books ?? "R1,R2,R3").split(",").map((b) => b.trim().toUpperCase()));
    const builders: [string, () => Promise<Model> | Model][] = [
      ["R1", () => buildR1(dir, Number(values.tickers ?? 250))],
      [
        "R2",
        () =>
          buildWide(dir, {
            sheets: Number(values.sheets ?? 20),
            rows: Number(values.rows ?? 10_000),
            tickers: 100,
          }),
      ],
      ["R3", () => buildR3(dir, { rows: Number(values["r3-rows"] ?? 100_000), tickers: 100 })],
    ];
    const books: [string, Model][] = [];
    for (const [name, build] of builders) if (wanted.has(name)) books.push([name, await build()]);
    const started = new Date().toISOString();
    const load = os.loadavg()[0]?.toFixed(1);
    const rows: string[] = [];
    for (const [name, book] of books) {
      const runs = new Map<string, Run[]>(trees.map((t) => [t, []]));
      const outputs = new Map<string, string>();
      for (let r = 0; r < rounds; r++) {
        for (const tree of r % 2 === 0 ? trees : [...trees].reverse()) {
          const out = path.join(dir, `${name}-${trees.indexOf(tree)}.xlsx`);
          runs.get(tree)?.push(await refresh(tree, book.file, out, sandbox.baseUrl, sandbox.demoKey));
          outputs.set(tree, out);
        }
      }
      const first = partsOf(outputs.get(trees[0] as string) as string);
      for (const tree of trees) {
        const same = partsOf(outputs.get(tree) as string) === first;
        const rs = runs.get(tree) as Run[];
        rows.push(
          `| ${name} (${book.cells.length.toLocaleString("en-US")} FDQ cells) | ${tree} | ` +
            `${rs.map((x) => x.peakMb).join(", ")} | ${rs.map((x) => x.seconds).join(", ")} | ` +
            `${same ? "yes" : "**no**"} |`,
        );
        console.error(`${name} ${tree}: ${rs[0]?.summary}`);
      }
    }
    const end = new Date().toISOString();
    console.log(
      `${started} - ${end}, load average ${load} at the start, ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end; sandbox at 1 ms a request, --no-cache --billing per-request\n\n` +
        "| Workbook | Tree | Peak RSS MB, each run | Wall s, each run | Same parts and contents as the first tree's |\n" +
        "|---|---|---:|---:|---|\n" +
        rows.join("\n"),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

void main();
