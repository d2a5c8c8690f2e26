#!/usr/bin/env node
// `npm test`: the type check, lint and format checks and the manifest's validation (side by side), then, if all
// passed, jest over the three tiers (unit, integration, browser). At the end it prints how long the whole took (each
// part's own time: the checks overlap) and the peak memory of all its processes together, beside jest's closing line
// `tests: N passed, N failed`:
//
//   npm test: 6 min 46 s (typecheck 54 s, eslint 48 s, format 46 s, import circles 12 s, validate 8 s, jest 5 min 52 s); peak memory 1.40 GB (...)
//
// The memory is that of this process and every process under it (jest and its workers, the sandboxes and gateways,
// fdq, Chromium, LibreOffice, Redis), read from /proc every 500 ms (a peak shorter than that can be missed): their
// proportional set sizes summed, which count a page several processes share once (Chromium's processes share
// much); the sum of their resident sizes, which counts it in each, is printed beside it as an upper bound. Where /proc
// is missing (not Linux) the memory is not given. Arguments go to jest (`npm test -- test/unit/api`).
const { Buffer } = require("node:buffer");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { setInterval, clearInterval } = require("node:timers");

const ROOT = path.resolve(__dirname, "..");
const SAMPLE_MS = 500;

/**
 * The stages, in order, each a list of steps [name, command, args, quiet] run at once: the checks side by side, then
 * jest. `npm run lint`'s three parts (eslint, prettier's check, the import circles) are steps of their own here: in
 * a row they were the longest check (about 45 s against the type check's 35 s on the 2-core machine); side by side
 * the two cores share all the checks' work. A quiet step's output (prettier's "Checking formatting...", the
 * validator's report, npm's own warnings) is kept and printed only when the step fails, so a green run prints
 * jest's lines and the closing ones.
 */
const npmRun = (name, script) => [name, "npm", ["run", "--silent", script], true];
const STAGES = [
  [
    npmRun("typecheck", "typecheck"),
    npmRun("eslint", "lint:eslint"),
    npmRun("format", "lint:format"),
    npmRun("import circles", "lint:cycles"),
    npmRun("validate", "validate"),
  ],
  [
    [
      "jest",
      process.execPath,
      [path.join(ROOT, "node_modules/jest/bin/jest.js"), ...process.argv.slice(2)],
      false,
    ],
  ],
];

/**
 * The memory of `root` and all its descendants, from /proc: `rss`, their resident memory summed (pages two
 * processes share count twice), and `pss`, their proportional share of it summed (a shared page counts once,
 * split between its processes: the memory the tree actually holds). Undefined without /proc.
 */
function treeMemory(root) {
  let entries;
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return undefined;
  }
  const children = new Map();
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // The process ended while being read.
    }
  }
  let rss = 0;
  let pss = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop();
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      rss += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      // Ended, or a kernel thread.
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { rss, pss };
}

function duration(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const gb = (bytes) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;

let peak;
let peakRss = 0;
let peakStep = "";
let current = "";
const sampler = setInterval(() => {
  const memory = treeMemory(process.pid);
  if (memory === undefined) return;
  peakRss = Math.max(peakRss, memory.rss);
  if (peak === undefined || memory.pss > peak) {
    peak = memory.pss;
    peakStep = current;
  }
}, SAMPLE_MS);

const children = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

/** Runs a step; a `quiet` one's output (stdout and stderr, in the order written) is printed only if it fails. */
function run(command, args, quiet) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(command, args, { cwd: ROOT, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    children.add(child);
    if (quiet) {
      child.stdout.on("data", (chunk) => output.push(chunk));
      child.stderr.on("data", (chunk) => output.push(chunk));
    }
    child.on("error", (err) => {
      process.stderr.write(`npm test: could not start ${command}: ${err.message}\n`);
      resolve(1);
    });
    // "close", not "exit": the pipes are drained by then.
    child.on("close", (code, signal) => {
      children.delete(child);
      const status = code ?? (signal ? 1 : 0);
      if (status !== 0 && output.length > 0) process.stderr.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

async function main() {
  const started = Date.now();
  const times = [];
  let status = 0;
  for (const stage of STAGES) {
    current = stage.map(([name]) => name).join(" + ");
    const results = await Promise.all(
      stage.map(async ([name, command, args, quiet]) => {
        const t = Date.now();
        const code = await run(command, args, quiet);
        return { code, time: `${name} ${duration(Date.now() - t)}${code === 0 ? "" : " (failed)"}` };
      }),
    );
    times.push(...results.map((r) => r.time));
    status = results.find((r) => r.code !== 0)?.code ?? 0;
    if (status !== 0) break;
  }
  clearInterval(sampler);
  const memory =
    peak === undefined
      ? "peak memory not measured (no /proc)"
      : `peak memory ${gb(peak)} (all its processes together, at the ${peakStep} step: proportional set size ` +
        `summed, sampled every ${SAMPLE_MS} ms; resident memory summed, shared pages counted twice: ${gb(peakRss)})`;
  process.stdout.write(`npm test: ${duration(Date.now() - started)} (${times.join(", ")}); ${memory}\n`);
  process.exitCode = status;
}

main();
