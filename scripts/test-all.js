#!/usr/bin/env node
// `npm test`: the type check, lint and format checks, the manifest's validation, then jest over the three tiers
// (unit, integration, browser), stopping at the first that fails, as the `&&` chain it replaces did. At the end it
// prints how long the whole took and the peak memory of all its processes together, beside jest's closing line
// `tests: N passed, N failed`:
//
//   npm test: 5 min 12 s (typecheck 41 s, lint 58 s, validate 4 s, jest 3 min 49 s); peak memory 1.41 GB (...)
//
// The memory is the sum of the resident memory of this process and every process under it (jest and its workers,
// the sandboxes and gateways, fdq, Chromium, LibreOffice, Redis), read from /proc every 500 ms: an upper bound
// (pages two processes share count twice), and a sample (a peak shorter than that can be missed). Where /proc
// is missing (not Linux) the memory is not given. Arguments go to jest (`npm test -- test/unit/api`).
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { setInterval, clearInterval } = require("node:timers");

const ROOT = path.resolve(__dirname, "..");
const SAMPLE_MS = 500;

/** The steps, in order: [name, command, args]. */
const STEPS = [
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["lint", "npm", ["run", "--silent", "lint"]],
  ["validate", "npm", ["run", "--silent", "validate"]],
  ["jest", process.execPath, [path.join(ROOT, "node_modules/jest/bin/jest.js"), ...process.argv.slice(2)]],
];

/** Resident bytes of `root` and all its descendants, from /proc; undefined without /proc. */
function treeRss(root) {
  let entries;
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return undefined;
  }
  const children = new Map();
  const rss = new Map();
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, "utf8");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const pid = Number(name);
      // Kernel threads have no VmRSS.
      rss.set(pid, Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(pid);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop();
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

function duration(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const gb = (bytes) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;

let peak;
let peakStep = "";
let current = "";
const sampler = setInterval(() => {
  const bytes = treeRss(process.pid);
  if (bytes !== undefined && (peak === undefined || bytes > peak)) {
    peak = bytes;
    peakStep = current;
  }
}, SAMPLE_MS);

let child;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (child) child.kill(signal);
  });
}

function run(command, args) {
  return new Promise((resolve) => {
    child = spawn(command, args, { cwd: ROOT, stdio: "inherit" });
    child.on("error", (err) => {
      process.stderr.write(`npm test: could not start ${command}: ${err.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const started = Date.now();
  const times = [];
  let status = 0;
  for (const [name, command, args] of STEPS) {
    current = name;
    const t = Date.now();
    status = await run(command, args);
    times.push(`${name} ${duration(Date.now() - t)}${status === 0 ? "" : " (failed)"}`);
    if (status !== 0) break;
  }
  clearInterval(sampler);
  const memory =
    peak === undefined
      ? "peak memory not measured (no /proc)"
      : `peak memory ${gb(peak)} (all its processes together, at the ${peakStep} step; resident memory summed, sampled every ${SAMPLE_MS} ms)`;
  process.stdout.write(`npm test: ${duration(Date.now() - started)} (${times.join(", ")}); ${memory}\n`);
  process.exitCode = status;
}

main();
