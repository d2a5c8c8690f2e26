import { checkTargets, markdownTable, type WorkloadResult } from "../../../bench/results-format";

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
};

describe("targets", () => {
  it("checks requests = lower bound, cold <= 1.3x, and for W1 warm, CPU per cached cell and peak RSS", () => {
    expect(checkTargets(w1).map((c) => [c.target, c.met, c.measured])).toEqual([
      ["requests = lower bound", true, "1500 vs 1500"],
      ["cold <= 1.3 x lower-bound time", true, "1.3x (1.3x of the ideal 20 s)"],
      ["warm < 1 s with 0 requests", true, "0.9 s, 0 requests"],
      ["< 20 us CPU per cached cell", false, "21 us"],
      ["peak RSS < 300 MB", true, "299 MB"],
    ]);
  });

  it("checks only requests and cold time on the other workloads", () => {
    const w2 = { ...w1, workload: "W2", requests: 2701, lower_bound_requests: 2700, cold_s: 26.1 };
    expect(checkTargets(w2).map((c) => c.met)).toEqual([false, false]);
  });

  it("marks sampled baselines with * in the table", () => {
    const row = markdownTable([w1]).split("\n")[2];
    expect(row).toBe(
      "| W1 model | 22500 | 1500 | 1500 | 26 | 20 | 20 | 0.9 | 1.4 | 0 | 21 | 299 | 22500 | 300* | 22500 | 1800* |",
    );
  });
});
