// `fdq eval` run as a process (bin/fdq.js, as `npx fdq` runs it) against an in-process sandbox.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accountTag } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { serviceNumber, serviceRecords } from "../functions/sandbox-oracle";

import { BIN, runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;
let home: string;

function run(
  args: string[],
  env: Record<string, string> = {},
  command = [process.execPath, BIN],
): Promise<Run> {
  // A private cache home: no test reads or writes the user's cache.
  return runFdq(
    args,
    { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "", ...env },
    command,
  );
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

/** The default output: each formula, padded to the longest, two spaces, then its value's lines. */
function labelled(rows: [formula: string, value: string][]): string {
  const width = Math.max(...rows.map(([formula]) => formula.length));
  return rows
    .flatMap(([formula, value]) =>
      value.split("\n").map((line, i) => `${(i === 0 ? formula : "").padEnd(width)}  ${line}\n`),
    )
    .join("");
}

const USAGE_HINT = 'Run "fdq --help" for the usage.\n';

const STATS =
  /^fdq stats: requests sent (\d+), units spent (\d+), cache hits (\d+), coalesced calls (\d+), retries (\d+), failures (.+)$/m;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  home = mkdtempSync(path.join(tmpdir(), "fdq-home-"));
});

afterAll(() => sandbox.close());

describe("fdq eval", () => {
  it("prints a formula and its value", async () => {
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const out = await fdq(['=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)']);
    expect(out).toEqual({
      code: 0,
      stdout: `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)  ${expected}\n`,
      stderr: "",
    });
  });

  it("prints an Excel error as its code, a space and the message, and still exits 0", async () => {
    const out = await fdq([
      '=FDQ.DATAPOINT("AAPL","metrics/roic","NO_SUCH",2023)',
      'fdq.rating("AAPL","colour")',
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout.split("\n")).toEqual([
      '=FDQ.DATAPOINT("AAPL","metrics/roic","NO_SUCH",2023)  #VALUE! datapoint "NO_SUCH" is not in dataset metrics/roic.',
      expect.stringMatching(
        /^fdq\.rating\("AAPL","colour"\) {27}#VALUE! field must be one of overall, .* \(got "colour"\)\.$/,
      ),
      "",
    ]);
  });

  it("evaluates a file, one result per formula in order beside its formula, a spill's rows under each other", async () => {
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
    expect(out).toEqual({
      code: 0,
      stdout: labelled([
        ['=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)', String(roic)],
        [
          '=FDQ.DATASET("AAPL","net-income-to-nopat",2023)',
          records.map((r) => `${r.datapoint}\t${Number(r.datavalue)}`).join("\n"),
        ],
        ['=FDQ.SECTOR("TECHNOLOGYSEC","CATEGORY_TYPE")', "sector"],
      ]),
      stderr: "",
    });
    // The layout itself, spelled out: the values in one column, two spaces after the longest formula.
    const lines = out.stdout.split("\n");
    expect(lines[0]).toBe(`=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)${" ".repeat(6)}  ${roic}`);
    expect(lines[1]).toBe(
      `=FDQ.DATASET("AAPL","net-income-to-nopat",2023)  ${records[0]?.datapoint}\t${Number(records[0]?.datavalue)}`,
    );
    expect(lines[2]).toBe(`${" ".repeat(49)}${records[1]?.datapoint}\t${Number(records[1]?.datavalue)}`);
  });

  it("prints the values alone with --values-only: one per formula, spills as tab-separated rows", async () => {
    const records = await serviceRecords(sandbox, "reconciliation/net-income-to-nopat/AAPL?year=2023");
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const file = formulaFile([
      '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
      '=FDQ.DATASET("AAPL","net-income-to-nopat",2023)',
      '=FDQ.SECTOR("TECHNOLOGYSEC","CATEGORY_TYPE")',
      '=FDQ.INFO("NO_SUCH")',
    ]);
    const out = await fdq(["--values-only", "-f", file]);
    expect(out).toEqual({
      code: 0,
      stdout: [
        String(roic),
        ...records.map((r) => `${r.datapoint}\t${Number(r.datavalue)}`),
        "sector",
        "#N/A The requested datapoint was not found.",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("cuts a formula longer than 60 characters to 59 and an ellipsis in its label", async () => {
    const long = '=FDQ.DATAPOINT("AAPL","metrics/roic","CAPITAL_INVESTED_ADJUSTED",2023)';
    expect(long.length).toBeGreaterThan(60);
    expect('=FDQ.DATAPOINT("AAPL","metrics/roic","CAPITAL_INVESTED_ADJU…').toBe(`${long.slice(0, 59)}…`);
    const value = await serviceNumber(
      sandbox,
      "metrics/roic/AAPL?datapoint=CAPITAL_INVESTED_ADJUSTED&year=2023",
    );
    const out = await fdq([long, '=FDQ.RATING("AAPL","name")']);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","CAPITAL_INVESTED_ADJU…  ' +
        `${value}\n` +
        `=FDQ.RATING("AAPL","name")${" ".repeat(34)}  Aplo Synthetic Holdings\n`,
    );
  });

  it("prints one JSON object per formula with --json, carrying its formula", async () => {
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
    expect(out.stdout.split("\n")[1]).toBe(
      '{"formula":"=FDQ.SECURITY(\\"AAPL\\",\\"name\\")","value":"Aplo Synthetic Holdings"}',
    );
    expect(
      out.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      // Where each value came from: the record's period and filing type, and the refresh day of the answer.
      {
        formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
        value: roic,
        year: 2023,
        period: 5,
        periodtype: "ANNUAL",
        filingtype: "10-K",
        refreshDay: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
      { formula: '=FDQ.SECURITY("AAPL","name")', value: "Aplo Synthetic Holdings" },
      {
        formula: '=FDQ.SERIES("NFLX","roic","ROIC",2009,2010)',
        value: [[{ error: "#N/A", message: "The requested data was not found." }, nflx2010]],
        sources: [
          null,
          {
            year: 2010,
            period: 5,
            periodtype: "ANNUAL",
            filingtype: "10-K",
            refreshDay: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          },
        ],
      },
      { formula: '=FDQ.INFO("NO_SUCH")', error: "#N/A", message: "The requested datapoint was not found." },
    ]);
    const bare = await fdq(["--json", "--values-only", "-f", file]);
    expect(bare.stdout.trimEnd().split("\n")[1]).toBe('"Aplo Synthetic Holdings"');
  });

  it("prints a malformed line of a file as its usage error in its place, evaluates the others, and exits 2", async () => {
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2021");
    const file = formulaFile([
      '=FDQ.DATAPOINT("AAPL","roic","ROIC",2021)',
      "# line 3 refers to a cell",
      '=FDQ.DATAPOINT(A1,"roic","ROIC",2021)',
      '=FDQ.SECURITY("AAPL","name")',
    ]);
    const problem = "Cell references are not supported: A1; use a literal value (at character 16)";
    const before = sandbox.stats().requests;
    const out = await fdq(["-f", file]);
    expect(out).toEqual({
      code: 2,
      stdout: labelled([
        ['=FDQ.DATAPOINT("AAPL","roic","ROIC",2021)', String(roic)],
        ['=FDQ.DATAPOINT(A1,"roic","ROIC",2021)', `usage error at line 3: ${problem}`],
        ['=FDQ.SECURITY("AAPL","name")', "Aplo Synthetic Holdings"],
      ]),
      stderr: `fdq: ${file}:3: ${problem}\n${USAGE_HINT}`,
    });
    expect(sandbox.stats().requests).toBeGreaterThan(before);

    const json = await fdq(["--json", "-f", file]);
    expect(json.code).toBe(2);
    expect(json.stdout.trimEnd().split("\n")[1]).toBe(
      JSON.stringify({
        formula: '=FDQ.DATAPOINT(A1,"roic","ROIC",2021)',
        line: 3,
        error: "usage",
        message: problem,
      }),
    );
    const values = await fdq(["--values-only", "-f", file]);
    expect(values).toEqual({
      code: 2,
      stdout: `${roic}\nusage error at line 3: ${problem}\nAplo Synthetic Holdings\n`,
      stderr: `fdq: ${file}:3: ${problem}\n${USAGE_HINT}`,
    });
  });

  it("reports requests, units, cache hits, coalesced calls and retries on stderr with --stats", async () => {
    const before = sandbox.stats().requests;
    // Billed per request, the two annual datapoints of one dataset share the whole dataset's request; the day's
    // stock coverage list comes first (1 request, 1 unit; the calls waiting for it are not coalesced calls).
    const out = await fdq([
      "--stats",
      "--billing",
      "per-request",
      '=FDQ.DATAPOINT("MSFT","roic","ROIC",2021)',
      '=FDQ.DATAPOINT("MSFT","roic","NOPAT",2021)',
      '=FDQ.DATAPOINT("MSFT","roic","ROIC",2021,4)',
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      "fdq stats: requests sent 3, units spent 3, cache hits 0, coalesced calls 1, retries 0, failures 0\n",
    );
    expect(sandbox.stats().requests - before).toBe(3);
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
      'fdq: unknown command "price"; the commands are eval, refresh, repair, freeze, thaw, new, retrofit, search, usage, serve.\nRun "fdq --help" for the usage.\n',
    );
  });

  it("takes the service and key from FDQ_BASE_URL and FDQ_API_KEY", async () => {
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2022");
    const env = { FDQ_BASE_URL: sandbox.baseUrl, FDQ_API_KEY: sandbox.demoKey };
    expect(await run(["eval", "--no-cache", '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)'], env)).toEqual({
      code: 0,
      stdout: `=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)  ${expected}\n`,
      stderr: "",
    });
    const refused = await run(["eval", "--no-cache", "--values-only", '=FDQ.RATING("AAPL")'], {
      ...env,
      FDQ_API_KEY: "wrong",
    });
    expect(refused.stdout).toBe(
      "#N/A The FDQ service refused the API key (403). Check the key given with --api-key or FDQ_API_KEY.\n",
    );
  });
});

describe("one Excel recalculation's worth of cells", () => {
  it("costs one request for 500 DATAPOINT cells of one ticker, dataset and period (after the day's coverage list), and none again the same day", async () => {
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
    const first = await fdq(["--stats", "--values-only", "-f", file], cacheDir);
    expect(first.code).toBe(0);
    expect(sandbox.stats().requests - before).toBe(2);
    expect(first.stderr).toMatch(STATS);
    // The stock coverage list (1 unit), then every name of the dataset: one whole request, which costs a unit
    // per record it returns.
    const [, sent, units, , coalesced] = STATS.exec(first.stderr) ?? [];
    expect([sent, units, coalesced]).toEqual(["2", String(1 + names.length), "499"]);
    const values = first.stdout.trimEnd().split("\n");
    expect(values).toHaveLength(500);
    expect(values.every((v) => Number.isFinite(Number(v)))).toBe(true);

    const second = await fdq(["--stats", "--values-only", "-f", file], cacheDir);
    expect(second.stdout).toBe(first.stdout);
    expect(sandbox.stats().requests - before).toBe(2);
    expect(second.stderr).toBe(
      "fdq stats: requests sent 0, units spent 0, cache hits 500, coalesced calls 0, retries 0, failures 0\n",
    );
  });
});

describe("fdq eval --sandbox", () => {
  it("evaluates the example model on an embedded sandbox, every formula to a value", async () => {
    const out = await run(["eval", "--sandbox", "--stats", "-f", "examples/model.txt"]);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(/#N\/A|#VALUE!/);
    expect(out.stdout.split("\n")[0]).toMatch(/^=FDQ\.SECURITY\("AAPL","name"\) +Aplo Synthetic Holdings$/);
    expect(out.stderr).toMatch(
      /^fdq stats: requests sent \d+, units spent \d+, cache hits \d+, coalesced calls \d+, retries 0, failures 0\n$/,
    );
  }, 60_000);

  it("is what `npx fdq` runs from the project root", async () => {
    const out = await run(["--help"], {}, ["npx", "fdq"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Usage:\n {2}fdq eval \[options\] FORMULA\.\.\./);
  });
});

describe("fdq eval: usage errors, cache warnings and hints", () => {
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
      stdout: `=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)  ${expected}\n`,
      stderr: `fdq: warning: cannot write the cache directory ${cacheDir} (ENOTDIR): running without the file cache.\n`,
    });
  });

  it("prints a damaged cache file's warning on stderr, not stdout", async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"));
    const url = new URL(sandbox.baseUrl);
    writeFileSync(
      path.join(cacheDir, `127.0.0.1_${url.port}_v1.${accountTag(sandbox.demoKey)}.json`),
      "not json",
    );
    const out = await fdq(['=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)'], cacheDir);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^=FDQ\.DATAPOINT\("AAPL","roic","ROIC",2023\) {2}-?\d/);
    // The file holds the day's cache and the usage ledger; whichever reads it first warns, once.
    expect(out.stderr).toMatch(
      /^fdq: warning: The (saved FDQ cache|FDQ usage ledger) could not be read.* \(.+\).*\.\n$/,
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
      /^=FDQ\.RATING\("AAPL"\) {2}#N\/A Could not reach the FDQ service \(.+\)\. Check the network connection and the base URL \(--base-url or FDQ_BASE_URL\)\.\n$/,
    );
  }, 60_000);
});
