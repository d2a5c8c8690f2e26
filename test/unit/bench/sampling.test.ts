import { extrapolateSeconds, planSample, sampleIndexes } from "../../../bench/sampling";

describe("sampled baselines", () => {
  it("scales a sequential sample's time linearly with the number of requests", () => {
    expect(extrapolateSeconds(2, 100, 22_500)).toBe(450);
  });

  it("scales a concurrent sample's time by rounds of `concurrency` requests", () => {
    // 100 requests 8 at a time take 13 rounds; 1,000 take 125.
    expect(extrapolateSeconds(1.3, 100, 1000, 8)).toBeCloseTo(12.5, 10);
  });

  it("reports a whole run as measured and refuses an empty sample", () => {
    expect(extrapolateSeconds(3, 500, 500, 4)).toBe(3);
    expect(() => extrapolateSeconds(1, 0, 10)).toThrow("A sample must hold at least one request");
  });

  it("picks a seeded uniform sample: distinct, in range, ascending, repeatable", () => {
    const a = sampleIndexes(1000, 50, 7);
    expect(a).toHaveLength(50);
    expect(new Set(a).size).toBe(50);
    expect(a.every((i) => i >= 0 && i < 1000)).toBe(true);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(sampleIndexes(1000, 50, 7)).toEqual(a);
    expect(sampleIndexes(1000, 50, 8)).not.toEqual(a);
    expect(sampleIndexes(3, 5, 1)).toEqual([0, 1, 2]);
  });

  it("runs a baseline whole when it fits the time budget, else the largest sample that does", () => {
    expect(planSample(100, 0.08, 1, 10)).toEqual({ size: 100, sampled: false });
    // 10 s at 80 ms per request: 125 sequential requests, or 125 rounds of 16.
    expect(planSample(22_500, 0.08, 1, 10)).toEqual({ size: 125, sampled: true });
    expect(planSample(22_500, 0.08, 16, 10)).toEqual({ size: 2000, sampled: true });
    expect(planSample(22_500, 0.08, 1, 1, 200)).toEqual({ size: 200, sampled: true });
  });
});
