import {
  checkMonthTargets,
  checkTargets,
  markdownTable,
  monthTable,
  targetsTable,
  type MonthResult,
  type WorkloadResult,
} from "../../../bench/results-format";

const w1: WorkloadResult = {
  workload: "W1",
  title: "model",
  formulas: 22_500,
  cells: 22_500,
  requests: 1500,
  errors: 0,
  lower_bound_requests: 1500,
  cold_s: 26,
  lower_bound_s: 20,
  lower_bound_ideal_s: 20,
  warm_s: 0.9,
  warm_requests: 0,
  warm_process_s: 1.4,
  cpu_us_per_cached_cell: 21,
  peak_rss_mb: 299,
  per_cell_requests: 22_500,
  per_cell_s: 300,
  per_cell_sampled: true,
  naive_requests: 22_500,
  naive_s: 1800,
  naive_sampled: true,
  units_fast: 43_500,
  units_economy: 22_500,
  requests_economy: 22_500,
  units_bound: 22_500,
};

const m1: MonthResult = {
  workload: "M1",
  title: "month",
  cells: 2700,
  days: 21,
  first_day: "2026-03-02",
  last_day: "2026-03-30",
  restate: "2026-03-18",
  keep_days: 7,
  units_bound: 2700,
  units_first_day_strict: 2700,
  units_first_day_saver: 2700,
  units_month_strict: 56_700,
  units_month_saver: 18_684,
  client_units_month_strict: 56_700,
  client_units_month_saver: 18_684,
  units_by_day_strict: [],
  units_by_day_saver: [],
  requests_month_strict: 56_700,
  requests_month_saver: 18_684,
  plan: 10_000,
  max_cells_on_plan_strict: 476,
  max_cells_on_plan_saver: 1445,
  stale_cells_beyond_policy: 0,
  stale_cells_within_policy: 7128,
  stale_cells_strict: 0,
  error_cells: 0,
  seconds: 85.6,
};

describe("targets", () => {
  it("checks requests = lower bound, cold <= 1.3x, for W1 warm and peak RSS, and CPU per cached cell", () => {
    expect(checkTargets(w1).map((c) => [c.target, c.met, c.measured])).toEqual([
      ["requests = lower bound", true, "1500 vs 1500"],
      ["cold <= 1.3 x lower-bound time", true, "1.3x (1.3x of the ideal 20 s)"],
      ["warm < 1 s with 0 requests", true, "0.9 s, 0 requests"],
      ["peak RSS < 300 MB", true, "299 MB"],
      ["< 20 us CPU per cached cell", false, "21 us"],
      ["units_economy = units_bound", true, "22500 vs 22500 (fast plan: 43500)"],
    ]);
  });

  it("checks requests, cold time, CPU per cached cell and the economy's units on the other workloads", () => {
    const w3 = {
      ...w1,
      workload: "W3",
      requests: 3001,
      lower_bound_requests: 3000,
      cold_s: 26.1,
      cpu_us_per_cached_cell: 19.9,
      units_economy: 3001,
      units_bound: 3000,
    };
    expect(checkTargets(w3).map((c) => [c.target, c.met])).toEqual([
      ["requests = lower bound", false],
      ["cold <= 1.3 x lower-bound time", false],
      ["< 20 us CPU per cached cell", true],
      ["units_economy = units_bound", false],
    ]);
  });

  it("marks sampled baselines with * in the table and ends each row with the units", () => {
    const row = markdownTable([w1]).split("\n")[2];
    expect(row).toBe(
      "| W1 model | 22500 | 1500 | 1500 | 26 | 20 | 20 | 0.9 | 1.4 | 0 | 21 | 299 | 22500 | 300* | 22500 | 1800* | 43500 | 22500 | 22500 |",
    );
  });
});

describe("M1 targets", () => {
  it("checks the saver's units, staleness, cells on the plan, the first day and the time", () => {
    expect(checkMonthTargets(m1).map((c) => [c.target, c.met])).toEqual([
      ["units_month_saver <= 0.35 x units_month_strict", true],
      ["stale_cells_beyond_policy = 0", true],
      ["max_cells_on_plan_saver >= 3 x max_cells_on_plan_strict", true],
      ["first day costs its bound", true],
      ["finishes in < 3 minutes", true],
    ]);
  });

  it("misses when the saver saves nothing, or when either policy shows a value it does not allow", () => {
    const same = { ...m1, units_month_saver: 56_700, max_cells_on_plan_saver: 476 };
    expect(checkMonthTargets(same).map((c) => c.met)).toEqual([false, true, false, true, true]);
    expect(checkMonthTargets({ ...m1, stale_cells_strict: 1 })[1]!.met).toBe(false);
    expect(checkMonthTargets({ ...m1, units_first_day_saver: 2701 })[3]!.met).toBe(false);
  });

  it("prints one row per policy and the M1 targets after the workloads'", () => {
    expect(monthTable(m1).split("\n")[3]).toBe(
      "| saver, 7 days | 2700 | 21 | 2700 | 2700 | 18684 | 18684 | 10000 | 1445 | 0 | 7128 |",
    );
    const rows = targetsTable([w1], m1).split("\n");
    expect(rows.at(-1)).toBe("| M1 | finishes in < 3 minutes | 85.6 s | yes |");
  });
});
