import { DEFAULTS } from "../../../src/api";
import { parseBenchOptions } from "../../../bench/options";

describe("bench flags", () => {
  it("defaults to 80 ms per request and the request module's own concurrency as the server cap", () => {
    expect(parseBenchOptions([])).toEqual({
      latencyMs: 80,
      maxConcurrent: DEFAULTS.concurrency,
      workloads: ["W1", "W2", "W3", "W4"],
      naiveBudgetS: 3,
      perCellBudgetS: 3,
      seed: 1,
      write: true,
      verbose: false,
    });
  });

  it("takes the latency, the concurrency cap and a subset of workloads as flags", () => {
    const options = parseBenchOptions([
      "--latency-ms",
      "0",
      "--max-concurrent",
      "16",
      "--workloads",
      "w2,W4",
    ]);
    expect([options.latencyMs, options.maxConcurrent, options.workloads]).toEqual([0, 16, ["W2", "W4"]]);
  });

  it("takes the month M1, alone or with the others, but does not run it by default", () => {
    expect(parseBenchOptions(["--workloads", "m1"]).workloads).toEqual(["M1"]);
    expect(parseBenchOptions(["--workloads", "W1,M1"]).workloads).toEqual(["W1", "M1"]);
    expect(parseBenchOptions([]).workloads).not.toContain("M1");
  });

  it("refuses an unknown workload and a cap that is not positive, naming the flag", () => {
    expect(() => parseBenchOptions(["--workloads", "W5"])).toThrow(
      "Unknown workload W5; the workloads are W1, W2, W3, W4, M1",
    );
    expect(() => parseBenchOptions(["--max-concurrent", "0"])).toThrow(
      "--max-concurrent must be a positive number, not 0",
    );
  });
});
