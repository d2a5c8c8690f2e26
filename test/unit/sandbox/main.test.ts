// The sandbox CLI's flags.
import { optionsFromArgs } from "../../../src/sandbox/main";

describe("optionsFromArgs", () => {
  it("reads --no-data and --clock (a fixed day, at noon UTC), and refuses other values", () => {
    const opts = optionsFromArgs(["--no-data", "not-found", "--clock", "2027-01-05"]);
    expect(opts.noData).toBe("not-found");
    expect(opts.now?.().toISOString()).toBe("2027-01-05T12:00:00.000Z");
    expect(() => optionsFromArgs(["--no-data", "none"])).toThrow(
      '--no-data needs "error", "empty" or "not-found", got "none"',
    );
    expect(() => optionsFromArgs(["--clock", "2027-02-30"])).toThrow(
      '--clock needs a date YYYY-MM-DD, got "2027-02-30"',
    );
  });

  it("defaults to port 4010, seed 1, no extra keys, string bodies, no faults, no quota, paths in endpoints", () => {
    expect(optionsFromArgs([])).toEqual({
      port: 4010,
      host: "127.0.0.1",
      apiKeys: [],
      bodyAsObject: false,
      seed: 1,
      latencyMs: 0,
      maxConcurrent: 0,
      faults: { rate429: 0, rate503: 0, dropRate: 0, malformedRate: 0 },
      refreshWindow: false,
      endpointNames: "paths",
      cors: "permissive",
    });
    expect(Object.keys(optionsFromArgs([]))).not.toContain("quota");
    expect(Object.keys(optionsFromArgs([]))).not.toContain("restate");
  });

  it("reads every flag, --api-key repeatedly", () => {
    const opts = optionsFromArgs([
      "--port",
      "0",
      "--api-key",
      "k1",
      "--api-key",
      "k2",
      "--body-object",
      "--latency-ms",
      "25",
      "--max-concurrent",
      "8",
      "--fault-429",
      "0.1",
      "--fault-503",
      "0.2",
      "--fault-drop",
      "0.05",
      "--fault-malformed",
      "0.03",
      "--seed",
      "9",
      "--quota",
      "500",
      "--refresh-window",
      "--restate",
      "2025-09-01",
      "--endpoint-names",
      "groups",
      "--cors",
      "off",
    ]);
    expect(opts).toMatchObject({
      port: 0,
      apiKeys: ["k1", "k2"],
      bodyAsObject: true,
      latencyMs: 25,
      maxConcurrent: 8,
      seed: 9,
      quota: 500,
      refreshWindow: true,
      restate: "2025-09-01",
      endpointNames: "groups",
      cors: "off",
    });
    expect(opts.faults).toEqual({ rate429: 0.1, rate503: 0.2, dropRate: 0.05, malformedRate: 0.03 });
  });

  it("adds the comma-separated keys of FDQ_SANDBOX_API_KEYS to the --api-key keys", () => {
    expect(optionsFromArgs(["--api-key", "k1"], { FDQ_SANDBOX_API_KEYS: "k2,k3" }).apiKeys).toEqual([
      "k1",
      "k2",
      "k3",
    ]);
  });

  it("rejects unknown flags and non-numeric values", () => {
    expect(() => optionsFromArgs(["--nope"])).toThrow();
    expect(() => optionsFromArgs(["--latency-ms", "soon"])).toThrow(
      '--latency-ms needs a non-negative number, got "soon"',
    );
  });

  it("rejects a --quota that is not a non-negative integer", () => {
    for (const bad of ["-1", "1.5", "many", ""])
      expect(() => optionsFromArgs([`--quota=${bad}`])).toThrow(
        `--quota needs a non-negative integer, got "${bad}"`,
      );
    expect(optionsFromArgs(["--quota", "0"]).quota).toBe(0);
  });

  it("rejects a --restate that is not a calendar date YYYY-MM-DD", () => {
    for (const bad of ["2025-02-30", "2025-9-01", "tomorrow", "2025-09-01T00:00:00Z"])
      expect(() => optionsFromArgs(["--restate", bad])).toThrow(
        `--restate needs a date YYYY-MM-DD, got "${bad}"`,
      );
  });

  it("accepts only paths or groups for --endpoint-names", () => {
    expect(optionsFromArgs(["--endpoint-names", "paths"]).endpointNames).toBe("paths");
    expect(() => optionsFromArgs(["--endpoint-names", "names"])).toThrow(
      '--endpoint-names needs "paths" or "groups", got "names"',
    );
  });

  it("accepts only off or permissive for --cors, naming both", () => {
    expect(optionsFromArgs(["--cors", "permissive"]).cors).toBe("permissive");
    expect(optionsFromArgs(["--cors=off"]).cors).toBe("off");
    for (const bad of ["on", "OFF", "none", ""])
      expect(() => optionsFromArgs(["--cors", bad])).toThrow(
        `--cors needs "off" or "permissive", got "${bad}"`,
      );
  });
});
