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
  /** Quota units of the cold run (per-request billing, the fast plan), metered by the sandbox. */
  readonly units_fast: number;
  /** Quota units of a second cold run under per-datapoint billing against a fresh sandbox. */
  readonly units_economy: number;
  /** Requests of that per-datapoint run. */
  readonly requests_economy: number;
  /** The fewest units any client can spend: distinct datapoint x security x period, plus 1 per rating call. */
  readonly units_bound: number;
}

/** M1: a model refreshed on each trading day of a month, under the strict policy and under the saver. */
export interface MonthResult {
  readonly workload: "M1";
  readonly title: string;
  readonly cells: number;
  /** Refresh days (trading days, weekends skipped), the first and the last. */
  readonly days: number;
  readonly first_day: string;
  readonly last_day: string;
  /** The sandbox restates past fiscal years from this day on. */
  readonly restate: string;
  readonly keep_days: number;
  readonly units_bound: number;
  readonly units_first_day_strict: number;
  readonly units_first_day_saver: number;
  /** Units of the 21 refreshes, metered by the sandbox. */
  readonly units_month_strict: number;
  readonly units_month_saver: number;
  /** The same as counted by the clients (stats().unitsSpent), summed over the days. */
  readonly client_units_month_strict: number;
  readonly client_units_month_saver: number;
  readonly units_by_day_strict: readonly number[];
  readonly units_by_day_saver: readonly number[];
  readonly requests_month_strict: number;
  readonly requests_month_saver: number;
  readonly plan: number;
  /** Cells x plan / units of the month: the model scaled linearly from the measured units per cell. */
  readonly max_cells_on_plan_strict: number;
  readonly max_cells_on_plan_saver: number;
  /** Cell-days of the saver whose value differs from that day's answer beyond what the saver allows. */
  readonly stale_cells_beyond_policy: number;
  /** Cell-days of the saver showing an earlier answer the policy allows (a closed, non-(SP) value kept). */
  readonly stale_cells_within_policy: number;
  /** Cell-days of the strict run that differ from that day's answer (strict allows none). */
  readonly stale_cells_strict: number;
  /** Cell-days answered with an error, by either policy's client or by the reference client. */
  readonly error_cells: number;
  /** Wall time of the whole month (both policies and the reference client). */
  readonly seconds: number;
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

export function jsonLine(
  result: WorkloadResult | MonthResult,
  settings: RunSettings,
  machine: Machine,
): string {
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
      { target: "peak RSS < 300 MB", met: result.peak_rss_mb < 300, measured: `${result.peak_rss_mb} MB` },
    );
  }
  // Every workload's cached cells, W3 and W4 included (issue 21).
  checks.push({
    target: "< 20 us CPU per cached cell",
    met: result.cpu_us_per_cached_cell < 20,
    measured: `${round(result.cpu_us_per_cached_cell, 1)} us`,
  });
  checks.push({
    target: "units_economy = units_bound",
    met: result.units_economy === result.units_bound,
    measured: `${result.units_economy} vs ${result.units_bound} (fast plan: ${result.units_fast})`,
  });
  return checks;
}

/** M1's targets. */
export function checkMonthTargets(m: MonthResult): TargetCheck[] {
  return [
    {
      target: "units_month_saver <= 0.35 x units_month_strict",
      met: m.units_month_saver <= 0.35 * m.units_month_strict,
      measured: `${m.units_month_saver} vs ${m.units_month_strict} (${round(m.units_month_saver / m.units_month_strict, 3)}x)`,
    },
    {
      target: "stale_cells_beyond_policy = 0",
      met: m.stale_cells_beyond_policy === 0 && m.stale_cells_strict === 0,
      measured:
        `saver ${m.stale_cells_beyond_policy} (${m.stale_cells_within_policy} cell-days kept within the policy), ` +
        `strict ${m.stale_cells_strict}`,
    },
    {
      target: "max_cells_on_plan_saver >= 3 x max_cells_on_plan_strict",
      met: m.max_cells_on_plan_saver >= 3 * m.max_cells_on_plan_strict,
      measured: `${m.max_cells_on_plan_saver} vs ${m.max_cells_on_plan_strict} (${round(m.max_cells_on_plan_saver / m.max_cells_on_plan_strict, 2)}x)`,
    },
    {
      target: "first day costs its bound",
      met: m.units_first_day_strict === m.units_bound && m.units_first_day_saver === m.units_bound,
      measured: `strict ${m.units_first_day_strict}, saver ${m.units_first_day_saver}, bound ${m.units_bound}`,
    },
    { target: "finishes in < 3 minutes", met: m.seconds < 180, measured: `${round(m.seconds, 1)} s` },
  ];
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
    "| Workload | Cells | Requests | Lower bound req. | Cold s | Lower bound s | Ideal s | Warm s | Warm process s | Warm req. | CPU us / cached cell | Peak RSS MB | Per-cell req. | Per-cell s | Naive req. | Naive s | Units fast | Units economy | Units bound |";
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
      r.units_fast,
      r.units_economy,
      r.units_bound,
    ].join(" | "),
  );
  return [header, rule, ...rows.map((row) => `| ${row} |`)].join("\n");
}

/** M1 as a table: one row per policy. */
export function monthTable(m: MonthResult): string {
  return [
    "| M1 policy | Cells | Days | Units first day | Units bound | Units month | Requests month | Plan | Max cells on plan | Stale beyond policy | Kept within policy |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    `| strict | ${m.cells} | ${m.days} | ${m.units_first_day_strict} | ${m.units_bound} | ${m.units_month_strict} | ${m.requests_month_strict} | ${m.plan} | ${m.max_cells_on_plan_strict} | ${m.stale_cells_strict} | 0 |`,
    `| saver, ${m.keep_days} days | ${m.cells} | ${m.days} | ${m.units_first_day_saver} | ${m.units_bound} | ${m.units_month_saver} | ${m.requests_month_saver} | ${m.plan} | ${m.max_cells_on_plan_saver} | ${m.stale_cells_beyond_policy} | ${m.stale_cells_within_policy} |`,
  ].join("\n");
}

export function targetsTable(results: readonly WorkloadResult[], month?: MonthResult): string {
  const lines = ["| Workload | Target | Measured | Met |", "|---|---|---|---|"];
  const all: [string, TargetCheck[]][] = results.map((r) => [r.workload, checkTargets(r)]);
  if (month) all.push([month.workload, checkMonthTargets(month)]);
  for (const [workload, checks] of all) {
    for (const check of checks) {
      lines.push(`| ${workload} | ${check.target} | ${check.measured} | ${check.met ? "yes" : "**no**"} |`);
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
