// `npx tsx bench/profile-summary.ts FILE.cpuprofile [N]`: the functions and source files that took the
// most self time in a V8 CPU profile (as written by `node --cpu-prof`, e.g. via FDQ_BENCH_CPU_PROF).
import { readFileSync } from "node:fs";
import * as path from "node:path";

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
}

function shortUrl(url: string): string {
  const root = path.join(__dirname, "..") + path.sep;
  const file = url.replace(/^file:\/\//, "");
  return file.startsWith(root) ? file.slice(root.length) : file || "(native)";
}

/** Self time per key (a function or a file), largest first. */
export function selfTimes(profile: CpuProfile, keyOf: (node: ProfileNode) => string): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const key = keyOf(node);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals]
    .map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 }))
    .sort((a, b) => b.ms - a.ms);
}

/**
 * Inclusive time per key: a sample counts once for every key on its stack (a function and all it called).
 * Garbage collection and idle time are sampled at the root, so they are never inside another key.
 */
export function inclusiveTimes(profile: CpuProfile, keyOf: (node: ProfileNode) => string): SelfTime[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) seen.add(keyOf(node));
    }
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    for (const key of seen) totals.set(key, (totals.get(key) ?? 0) + ms);
  });
  return [...totals]
    .map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 }))
    .sort((a, b) => b.ms - a.ms);
}

function main(): void {
  const [file, count = "25"] = process.argv.slice(2);
  if (!file) {
    console.error("Usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [N]");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const n = Number(count);
  const byFunction = selfTimes(profile, (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}`;
  });
  const byFile = selfTimes(profile, (node) => shortUrl(node.callFrame.url));
  const total = profile.timeDeltas.reduce((sum, ms) => sum + ms, 0) / 1000;
  console.log(`Profiled ${Math.round(total)} ms.\n`);
  console.log("Self time by function (ms):");
  for (const row of byFunction.slice(0, n)) console.log(`${String(row.ms).padStart(9)}  ${row.name}`);
  console.log("\nSelf time by file (ms):");
  for (const row of byFile.slice(0, n)) console.log(`${String(row.ms).padStart(9)}  ${row.name}`);
  const inclusive = inclusiveTimes(profile, (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}`;
  });
  console.log("\nInclusive time by function (ms):");
  for (const row of inclusive.slice(0, n)) console.log(`${String(row.ms).padStart(9)}  ${row.name}`);
}

if (require.main === module) main();
