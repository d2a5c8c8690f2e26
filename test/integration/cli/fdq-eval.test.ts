// `fdq eval` run as a process (bin/fdq.js, as `npx fdq` runs it) against an in-process sandbox.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findDataset } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { serviceNumber, serviceRecords } from "../functions/sandbox-oracle";

const ROOT = path.resolve(__dirname, "../../..");
const BIN = path.join(ROOT, "bin/fdq.js");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let sandbox: RunningSandbox;
let home: string;

function run(
  args: string[],
  env: Record<string, string> = {},
  command = [process.execPath, BIN],
): Promise<Run> {
  const [file, ...pre] = command as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(
      file,
      [...pre, ...args],
      // A private cache home: no test reads or writes the user's cache.
      { cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "", ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

/** fdq against the test's sandbox, with its own cache directory unless told otherwise. */
function fdq(args: string[], cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"))): Promise<Run> {
  return run([
    "eval",
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    sandbox.demoKey,
    "--cache-dir",
    cacheDir,
    ...args,
  ]);
}

function formulaFile(lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-model-")), "model.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const STATS =
  /^fdq stats: requests sent (\d+), cache hits (\d+), coalesced calls (\d+), retries (\d+), failures (.+)$/m;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  home = mkdtempSync(path.join(tmpdir(), "fdq-home-"));
});

afterAll(() => sandbox.close());

describe("fdq eval", () => {
  it("prints a formula's value", async () => {
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const out = await fdq(['=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)']);
    expect(out).toEqual({ code: 0, stdout: `${expected}\n`, stderr: "" });
  });

  it("prints an Excel error as its code, a space and the message, and still exits 0", async () => {
    const out = await fdq([
      '=FDQ.DATAPOINT("AAPL","metrics/roic","NO_SUCH",2023)',
      'fdq.rating("AAPL","colour")',
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout.split("\n")).toEqual([
      "#N/A The requested datapoint was not found.",
      expect.stringMatching(/^#VALUE! field must be one of overall, .* \(got "colour"\)\.$/),
      "",
    ]);
  });

  it("evaluates a file, one result per formula in order, spills as tab-separated rows", async () => {
    const records = await serviceRecords(sandbox, "reconciliation/net-income-to-nopat/AAPL?year=2023");
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const file = formulaFile([
      "# comment lines and blank lines are skipped",
      '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
      "",
      '=FDQ.DATASET("AAPL","net-income-to-nopat",2023)',
      '=FDQ.SECTOR("TECHNOLOGYSEC","CATEGORY_TYPE")',
    ]);
    const out = await fdq(["-f", file]);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toBe(String(roic));
    expect(lines.slice(1, 1 + records.length)).toEqual(
      records.map((r) => `${r.datapoint}\t${Number(r.datavalue)}`),
    );
    expect(lines.slice(1 + records.length)).toEqual(["sector", ""]);
  });

  it("prints one JSON value per formula with --json", async () => {
    const file = formulaFile([
      '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
      '=FDQ.SECURITY("AAPL","name")',
      '=FDQ.SERIES("NFLX","roic","ROIC",2009,2010)',
      '=FDQ.INFO("NO_SUCH")',
    ]);
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const nflx2010 = await serviceNumber(sandbox, "metrics/roic/NFLX?datapoint=ROIC&year=2010");
    const out = await fdq(["--json", "-f", file]);
    expect(out.code).toBe(0);
    expect(
      out.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      roic,
      "Aplo Synthetic Holdings",
      [[{ error: "#N/A", message: "The requested data was not found." }, nflx2010]],
      { error: "#N/A", message: "The requested datapoint was not found." },
    ]);
  });

  it("reports requests, cache hits, coalesced calls and retries on stderr with --stats", async () => {
    const before = sandbox.stats().requests;
    const out = await fdq([
      "--stats",
      '=FDQ.DATAPOINT("MSFT","roic","ROIC",2021)',
      '=FDQ.DATAPOINT("MSFT","roic","NOPAT",2021)',
      '=FDQ.DATAPOINT("MSFT","roic","ROIC",2021,4)',
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      "fdq stats: requests sent 2, cache hits 0, coalesced calls 1, retries 0, failures 0\n",
    );
    expect(sandbox.stats().requests - before).toBe(2);
  });

  it("exits 2 with a message for formulas it does not support, evaluating none", async () => {
    const before = sandbox.stats().requests;
    const out = await fdq(['=FDQ.RATING("AAPL")', '=FDQ.DATAPOINT(A1,"roic","ROIC",2023)']);
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'fdq: formula 2: Cell references are not supported: A1; use a literal value (at character 16)\nRun "fdq --help" for the usage.\n',
    });
    expect(sandbox.stats().requests).toBe(before);
    expect((await run(["eval", "--frobnicate", "x"])).code).toBe(2);
    expect((await run(["price", "x"])).stderr).toBe(
      'fdq: unknown command "price"\nRun "fdq --help" for the usage.\n',
    );
  });

  it("takes the service and key from FDQ_BASE_URL and FDQ_API_KEY", async () => {
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2022");
    const env = { FDQ_BASE_URL: sandbox.baseUrl, FDQ_API_KEY: sandbox.demoKey };
    expect(await run(["eval", "--no-cache", '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)'], env)).toEqual({
      code: 0,
      stdout: `${expected}\n`,
      stderr: "",
    });
    const refused = await run(["eval", "--no-cache", '=FDQ.RATING("AAPL")'], {
      ...env,
      FDQ_API_KEY: "wrong",
    });
    expect(refused.stdout).toBe(
      "#N/A The FDQ service refused the API key (403). Check the key given with --api-key or FDQ_API_KEY.\n",
    );
  });
});

describe("one Excel recalculation's worth of cells", () => {
  it("costs one request for 500 DATAPOINT cells of one ticker, dataset and period, and none again the same day", async () => {
    const names = findDataset("metrics/roic")?.datapoints.map((d) => d.name) ?? [];
    expect(names.length).toBeGreaterThan(10);
    const file = formulaFile(
      Array.from(
        { length: 500 },
        (_, i) => `=FDQ.DATAPOINT("AAPL","roic","${names[i % names.length]}",2023)`,
      ),
    );
    const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-shared-cache-"));

    const before = sandbox.stats().requests;
    const first = await fdq(["--stats", "-f", file], cacheDir);
    expect(first.code).toBe(0);
    expect(sandbox.stats().requests - before).toBe(1);
    expect(first.stderr).toMatch(STATS);
    const [, sent, , coalesced] = STATS.exec(first.stderr) ?? [];
    expect([sent, coalesced]).toEqual(["1", "499"]);
    const values = first.stdout.trimEnd().split("\n");
    expect(values).toHaveLength(500);
    expect(values.every((v) => Number.isFinite(Number(v)))).toBe(true);

    const second = await fdq(["--stats", "-f", file], cacheDir);
    expect(second.stdout).toBe(first.stdout);
    expect(sandbox.stats().requests - before).toBe(1);
    expect(second.stderr).toBe(
      "fdq stats: requests sent 0, cache hits 500, coalesced calls 0, retries 0, failures 0\n",
    );
  });
});

describe("fdq eval --sandbox", () => {
  it("evaluates the example model on an embedded sandbox, every formula to a value", async () => {
    const out = await run(["eval", "--sandbox", "--stats", "-f", "examples/model.txt"]);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(/#N\/A|#VALUE!/);
    expect(out.stdout.split("\n")[0]).toBe("Aplo Synthetic Holdings");
    expect(out.stderr).toMatch(
      /^fdq stats: requests sent \d+, cache hits \d+, coalesced calls \d+, retries 0, failures 0\n$/,
    );
  }, 60_000);

  it("is what `npx fdq` runs from the project root", async () => {
    const out = await run(["--help"], {}, ["npx", "fdq"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Usage:\n {2}fdq eval \[options\] FORMULA\.\.\./);
  });
});

describe("fdq eval: usage errors, cache warnings and hints", () => {
  const USAGE_HINT = 'Run "fdq --help" for the usage.\n';

  it("exits 2 for a formula file with no formula and for an empty --api-key, sending nothing", async () => {
    const before = sandbox.stats().requests;
    const empty = formulaFile(["# only a comment", ""]);
    expect(await fdq(["-f", empty])).toEqual({
      code: 2,
      stdout: "",
      stderr: `fdq: ${empty} holds no formula (only blank lines and # comments).\n${USAGE_HINT}`,
    });
    expect(await run(["eval", "--api-key", "", '=FDQ.RATING("AAPL")'])).toEqual({
      code: 2,
      stdout: "",
      stderr: `fdq: --api-key is empty: give the key, or leave the option out to use FDQ_API_KEY or the local sandbox's demo key.\n${USAGE_HINT}`,
    });
    expect(sandbox.stats().requests).toBe(before);
  });

  it("warns on stderr and runs without the file cache when the cache directory cannot be written", async () => {
    const blocker = formulaFile(["x"]); // a file: no directory can be made below it
    const cacheDir = path.join(blocker, "cache");
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const out = await fdq(['=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)'], cacheDir);
    expect(out).toEqual({
      code: 0,
      stdout: `${expected}\n`,
      stderr: `fdq: warning: cannot write the cache directory ${cacheDir} (ENOTDIR): running without the file cache.\n`,
    });
  });

  it("prints a damaged cache file's warning on stderr, not stdout", async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"));
    const url = new URL(sandbox.baseUrl);
    writeFileSync(path.join(cacheDir, `127.0.0.1_${url.port}_v1.json`), "not json");
    const out = await fdq(['=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)'], cacheDir);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^-?\d/);
    expect(out.stderr).toMatch(
      /^fdq: warning: The saved FDQ cache could not be read and was discarded \(.+\)\.\n$/,
    );
  });

  it("names its own options, not the task pane, when the service cannot be reached", async () => {
    const out = await run([
      "eval",
      "--no-cache",
      "--base-url",
      "http://127.0.0.1:9/v1",
      '=FDQ.RATING("AAPL")',
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      /^#N\/A Could not reach the FDQ service \(.+\)\. Check the network connection and the base URL \(--base-url or FDQ_BASE_URL\)\.\n$/,
    );
  }, 60_000);
});
