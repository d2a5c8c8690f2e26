// The benchmark's output: one JSON line per workload, a markdown table, and the machine it ran on.
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, totalmem } from "node:os";

export interface WorkloadResult {
  readonly workload: string;
  readonly title: string;
  readonly formulas: number;
  readonly cells: number;
  /** Requests the product sent on a cold cache, counted at the sandbox. */
  readonly requests: number;
  /** Cells the product answered with an error on the cold pass (0 when every formula has data). */
  readonly errors: number;
  readonly lower_bound_requests: number;
  readonly cold_s: number;
  /** Measured: a plain fetch loop sending the lower-bound requests at the concurrency limit. */
  readonly lower_bound_s: number;
  /** The floor no client can beat: ceil(lower-bound requests / concurrency limit) x latency. */
  readonly lower_bound_ideal_s: number;
  readonly warm_s: number;
  readonly warm_requests: number;
  /** The warm run as a user of `fdq eval` waits for it: Node's start-up and module loading included. */
  readonly warm_process_s: number;
  readonly cpu_us_per_cached_cell: number;
  readonly peak_rss_mb: number;
  readonly per_cell_requests: number;
  readonly per_cell_s: number;
  readonly per_cell_sampled: boolean;
  readonly naive_requests: number;
  readonly naive_s: number;
  readonly naive_sampled: boolean;
}

export interface Machine {
  readonly nproc: number;
  readonly cpu_model: string;
  readonly memory_gb: number;
  readonly node: string;
  readonly date: string;
}

export interface RunSettings {
  readonly latency_ms: number;
  readonly max_concurrent: number;
  readonly evaluator: string;
}

function cpuModel(): string {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    if (line) return line.slice(line.indexOf(":") + 1).trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? "unknown";
}

export function describeMachine(now = new Date()): Machine {
  return {
    nproc: availableParallelism(),
    cpu_model: cpuModel(),
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: now.toISOString(),
  };
}

export function jsonLine(result: WorkloadResult, settings: RunSettings, machine: Machine): string {
  return JSON.stringify({ ...result, settings, machine });
}

export interface TargetCheck {
  readonly target: string;
  readonly met: boolean;
  readonly measured: string;
}

/** The targets, checked against one workload's figures. */
export function checkTargets(result: WorkloadResult): TargetCheck[] {
  const checks: TargetCheck[] = [
    {
      target: "requests = lower bound",
      met: result.requests === result.lower_bound_requests,
      measured: `${result.requests} vs ${result.lower_bound_requests}`,
    },
    {
      target: "cold <= 1.3 x lower-bound time",
      met: result.cold_s <= 1.3 * result.lower_bound_s,
      measured:
        `${round(result.cold_s / result.lower_bound_s, 2)}x ` +
        `(${round(result.cold_s / result.lower_bound_ideal_s, 2)}x of the ideal ${result.lower_bound_ideal_s} s)`,
    },
  ];
  if (result.workload === "W1") {
    checks.push(
      {
        target: "warm < 1 s with 0 requests",
        met: result.warm_s < 1 && result.warm_requests === 0,
        measured: `${round(result.warm_s, 3)} s, ${result.warm_requests} requests`,
      },
      {
        target: "< 20 us CPU per cached cell",
        met: result.cpu_us_per_cached_cell < 20,
        measured: `${round(result.cpu_us_per_cached_cell, 1)} us`,
      },
      { target: "peak RSS < 300 MB", met: result.peak_rss_mb < 300, measured: `${result.peak_rss_mb} MB` },
    );
  }
  return checks;
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function seconds(value: number, sampled = false): string {
  return `${value < 10 ? round(value, 2) : round(value, 1)}${sampled ? "*" : ""}`;
}

export function markdownTable(results: readonly WorkloadResult[]): string {
  const header =
    "| Workload | Cells | Requests | Lower bound req. | Cold s | Lower bound s | Ideal s | Warm s | Warm process s | Warm req. | CPU us / cached cell | Peak RSS MB | Per-cell req. | Per-cell s | Naive req. | Naive s |";
  const rule = `|${header
    .split("|")
    .slice(1, -1)
    .map((_, i) => (i === 0 ? "---" : "---:"))
    .join("|")}|`;
  const rows = results.map((r) =>
    [
      `${r.workload} ${r.title}`,
      r.cells,
      r.requests,
      r.lower_bound_requests,
      seconds(r.cold_s),
      seconds(r.lower_bound_s),
      seconds(r.lower_bound_ideal_s),
      seconds(r.warm_s),
      seconds(r.warm_process_s),
      r.warm_requests,
      round(r.cpu_us_per_cached_cell, 1),
      r.peak_rss_mb,
      r.per_cell_requests,
      seconds(r.per_cell_s, r.per_cell_sampled),
      r.naive_requests,
      seconds(r.naive_s, r.naive_sampled),
    ].join(" | "),
  );
  return [header, rule, ...rows.map((row) => `| ${row} |`)].join("\n");
}

export function targetsTable(results: readonly WorkloadResult[]): string {
  const lines = ["| Workload | Target | Measured | Met |", "|---|---|---|---|"];
  for (const result of results) {
    for (const check of checkTargets(result)) {
      lines.push(
        `| ${result.workload} | ${check.target} | ${check.measured} | ${check.met ? "yes" : "**no**"} |`,
      );
    }
  }
  return lines.join("\n");
}

export function machineLine(machine: Machine, settings: RunSettings): string {
  return (
    `Machine: ${machine.nproc} cores (${machine.cpu_model}), ${machine.memory_gb} GB RAM, Node ${machine.node}, ` +
    `${machine.date}. Sandbox: ${settings.latency_ms} ms per request, at most ${settings.max_concurrent} requests ` +
    `served at a time. Evaluator: ${settings.evaluator}.`
  );
}
