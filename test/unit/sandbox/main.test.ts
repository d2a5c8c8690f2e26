// The sandbox CLI's flags.
import { optionsFromArgs } from "../../../src/sandbox/main";

describe("optionsFromArgs", () => {
  it("defaults to port 4010, seed 1, no extra keys, string bodies and no faults", () => {
    expect(optionsFromArgs([])).toEqual({
      port: 4010,
      host: "127.0.0.1",
      apiKeys: [],
      bodyAsObject: false,
      seed: 1,
      latencyMs: 0,
      maxConcurrent: 0,
      faults: { rate429: 0, rate503: 0, dropRate: 0, malformedRate: 0 },
    });
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
    ]);
    expect(opts).toMatchObject({
      port: 0,
      apiKeys: ["k1", "k2"],
      bodyAsObject: true,
      latencyMs: 25,
      maxConcurrent: 8,
      seed: 9,
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
});
