// Quota units on the command line (issue 10), `fdq` run as a process against in-process sandboxes that
// meter units by the vendor's rule: --stats units, `fdq usage`, --budget, --billing, and a quota spent
// mid-run ("Limit Exceeded"), which the usage ledger in the cache file remembers until --plan-raised.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accountTag, centralDay, type UsageReport } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { universeFor } from "../../../src/sandbox/universe";
import { serviceRecords } from "../functions/sandbox-oracle";
import { TestBook } from "../../support/xlsx-corpus/test-book";
import { runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  home = mkdtempSync(path.join(tmpdir(), "fdq-home-"));
});

afterAll(() => sandbox.close());

const tempDir = (prefix: string): string => mkdtempSync(path.join(tmpdir(), prefix));

/** fdq COMMAND against `on` (default the test's sandbox), with a private cache home. */
function fdq(
  command: string,
  args: string[],
  cacheDir = tempDir("fdq-cache-"),
  on: RunningSandbox = sandbox,
): Promise<Run> {
  return runFdq(
    [command, "--base-url", on.baseUrl, "--api-key", on.demoKey, "--cache-dir", cacheDir, ...args],
    { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "", FDQ_BILLING: "" },
  );
}

const STATS =
  /^fdq stats: requests sent (\d+), units spent (\d+), cache hits (\d+), coalesced calls (\d+), retries (\d+), failures (.+)$/m;

function stats(run: Run): { sent: number; units: number } {
  const match = STATS.exec(run.stderr);
  if (!match) throw new Error(`no stats line in: ${run.stderr}`);
  return { sent: Number(match[1]), units: Number(match[2]) };
}

/** What the sandbox saw while `action` ran: requests, and units the demo key spent (its own count). */
async function seen<T>(
  action: () => Promise<T>,
  on: RunningSandbox = sandbox,
): Promise<{ result: T; requests: number; units: number }> {
  const requests = on.stats().requests;
  const units = on.usage();
  const result = await action();
  return { result, requests: on.stats().requests - requests, units: on.usage() - units };
}

const ROIC_SIZE = findDataset("metrics/roic")?.datapoints.length ?? 0;
/**
 * The stock coverage list a run asks once per refresh day before its first data request (1 request, 1 unit),
 * unless its cache directory has it today.
 */
const LIST = 1;

/** Stocks the sandbox (seed 1, its default) covers from 2014 on. */
const STOCKS = universeFor(1)
  .list("stock")
  .filter((s) => s.firstYear <= 2014)
  .map((s) => s.ticker);
const [S1, S2] = STOCKS.slice(3) as [string, string];

describe("--stats", () => {
  it("reports the units the run spent, equal to the sandbox's own count", async () => {
    const run = await seen(() =>
      fdq("eval", [
        "--stats",
        '=FDQ.DATAPOINT("AAPL","roic","ROIC",2019)',
        '=FDQ.DATAPOINT("AAPL","roic","NOPAT",2019)',
        '=FDQ.DATASET("AAPL","net-income-to-nopat",2019)',
        '=FDQ.SERIES("NFLX","roic","ROIC",2009,2011)', // 2009 has no data: a 404 costs nothing
        '=FDQ.RATING("AAPL")',
        '=FDQ.SECTOR("TECHNOLOGYSEC","CATEGORY_TYPE")',
        '=FDQ.SECURITY("AAPL","name")',
        '=FDQ.INFO("ROIC")',
        '=FDQ.COVERAGE("sector")',
      ]),
    );
    expect(run.result.code).toBe(0);
    const { sent, units } = stats(run.result);
    expect(units).toBe(run.units);
    expect(sent).toBe(run.requests);
    // 2 datapoints, a whole dataset (a unit a record), 2 years of a series, and 5 other calls.
    expect(units).toBeGreaterThan(2 + 2 + 5);
  });
});

describe("fdq usage", () => {
  it("shows the units of two runs on one cache directory by day and dataset, as the sandbox counted them", async () => {
    const cacheDir = tempDir("fdq-usage-");
    const first = await seen(() =>
      fdq(
        "eval",
        ['=FDQ.DATAPOINT("MSFT","roic","ROIC",2018)', '=FDQ.DATAPOINT("MSFT","roic","NOPAT",2018)'],
        cacheDir,
      ),
    );
    const second = await seen(() =>
      fdq(
        "eval",
        [
          '=FDQ.DATAPOINT("MSFT","roic","ROIC",2018)', // cached: costs nothing again
          '=FDQ.DATAPOINT("MSFT","roic","ROIC",2017)',
          '=FDQ.RATING("MSFT")',
        ],
        cacheDir,
      ),
    );
    expect([first.result.code, second.result.code]).toEqual([0, 0]);
    // The second run reads today's coverage list from the cache directory.
    expect([first.units, second.units]).toEqual([LIST + 2, 2]);

    const usage = await seen(() => fdq("usage", ["--json"], cacheDir));
    expect(usage.requests).toBe(0);
    expect(usage.result.code).toBe(0);
    const report = JSON.parse(usage.result.stdout) as UsageReport;
    const today = centralDay(Date.now());
    expect(report).toEqual({
      month: today.slice(0, 7),
      units: first.units + second.units,
      byDay: { [today]: first.units + second.units },
      byDataset: { coverage: LIST, "metrics/roic": 3, ratings: 1 },
      exhausted: false,
      resetsOn: expect.stringMatching(/^\d{4}-\d{2}-01$/),
    });

    const plain = await fdq("usage", ["--plan", "1000"], cacheDir);
    expect(plain.code).toBe(0);
    expect(plain.stdout.split("\n")).toEqual([
      `FDQ quota units of ${report.month} (US Central time), as counted by fdq in ${cacheDir}${path.sep}127.0.0.1_${new URL(sandbox.baseUrl).port}_v1.${accountTag(sandbox.demoKey)}.json:`,
      `  5 of 1,000 units used (0.5%), 995 left; the quota resets on ${report.resetsOn}.`,
      "By day:",
      `  ${today}  5`,
      "By dataset:",
      "  metrics/roic  3",
      "  coverage      1",
      "  ratings       1",
      "",
    ]);
  });

  it("counts from zero for a cache directory without a ledger, of the 10,000-unit plan by default", async () => {
    const out = await fdq("usage", []);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/\n {2}0 of 10,000 units used \(0\.0%\), 10,000 left; /);
    expect(out.stdout).toMatch(/\nBy day:\n {2}none\nBy dataset:\n {2}none\n$/);
  });

  it("refuses arguments, --plan 0 and eval's options (exit 2)", async () => {
    expect((await fdq("usage", ["now"])).code).toBe(2);
    expect((await fdq("usage", ["--plan", "0"])).stderr).toMatch(
      /^fdq: --plan must be a whole number of 1 or more quota units, not "0"\.\n/,
    );
    expect((await fdq("usage", ["--stats"])).code).toBe(2);
  });
});

describe("--budget", () => {
  const cells = [
    `=FDQ.DATAPOINT("${S1}","roic","ROIC",2016)`,
    `=FDQ.DATAPOINT("${S1}","roic","NOPAT",2016)`,
    `=FDQ.DATAPOINT("${S2}","roic","ROIC",2016)`,
    `=FDQ.DATASET("${S2}","roic",2015)`,
    '=FDQ.RATING("ZZZZ","colour")', // refused by its own arguments: no request
  ];
  const estimate = LIST + 3 + ROIC_SIZE;

  it("refuses a run estimated above it with exit status 3, sending nothing; runs one within it", async () => {
    const cacheDir = tempDir("fdq-budget-");
    const over = await seen(() => fdq("eval", ["--budget", String(estimate - 1), ...cells], cacheDir));
    expect(over.result).toEqual({
      code: 3,
      stdout: "",
      stderr: `fdq: this run would spend at most ${estimate} quota units (5 requests not in today's cache; less if the day's ticker coverage list, asked first, does not list some tickers); --budget is ${(estimate - 1).toLocaleString("en-US")}. Nothing was sent.\n`,
    });
    expect([over.requests, over.units]).toEqual([0, 0]);

    const within = await seen(() =>
      fdq("eval", ["--stats", "--budget", String(estimate), ...cells], cacheDir),
    );
    expect(within.result.code).toBe(0);
    expect(within.requests).toBe(5);
    expect(within.units).toBe(estimate); // the sandbox's records are the catalog's: the estimate is exact
    expect(stats(within.result)).toEqual({ sent: 5, units: within.units });

    // Everything is in today's cache now: the run costs nothing, within any budget.
    const cached = await seen(() => fdq("eval", ["--budget", "0", ...cells], cacheDir));
    expect(cached.result.code).toBe(0);
    expect(cached.requests).toBe(0);
  });

  it("prices a dataset's cells by the billing: per datapoint 1 a name, per request 1 a request", async () => {
    const two = cells.slice(0, 2);
    const perDatapoint = await fdq("eval", ["--no-cache", "--budget", "1", ...two]);
    // Each with the day's coverage list (1 unit under either billing).
    expect(perDatapoint.stderr).toMatch(
      /would spend at most 3 quota units \(3 requests not in today's cache; less if /,
    );
    const perRequest = await fdq("eval", ["--no-cache", "--billing", "per-request", "--budget", "0", ...two]);
    expect(perRequest.stderr).toMatch(
      /would spend at most 2 quota units \(2 requests not in today's cache; less if /,
    );
    expect([perDatapoint.code, perRequest.code]).toEqual([3, 3]);
  });

  it("refuses a workbook refresh over it, writing nothing", async () => {
    const dir = tempDir("fdq-budget-book-");
    const input = path.join(dir, "model.xlsx");
    const output = path.join(dir, "out.xlsx");
    const book = new TestBook();
    book.addWorksheet("Model").getCell("A1").value = { formula: `FDQ.DATASET("${S1}","roic",2014)` };
    book.writeFile(input);
    const run = await seen(() => fdq("refresh", [input, "-o", output, "--budget", "10"]));
    expect(run.result).toEqual({
      code: 3,
      stdout: "",
      stderr: `fdq: this run would spend at most ${LIST + ROIC_SIZE} quota units (2 requests not in today's cache; less if the day's ticker coverage list, asked first, does not list some tickers); --budget is 10. Nothing was sent.\n`,
    });
    expect(run.requests).toBe(0);
    expect(existsSync(output)).toBe(false);
  });

  it("must be a whole number of 0 or more (exit 2)", async () => {
    const out = await fdq("eval", ["--budget", "1.5", '=FDQ.RATING("AAPL")']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      /^fdq: --budget must be a whole number of 0 or more quota units, not "1\.5"\.\n/,
    );
  });
});

describe("--billing", () => {
  const names = ['"ROIC"', '"NOPAT"', '"CAPITAL_INVESTED"'].map(
    (name) => `=FDQ.DATAPOINT("MSFT","metrics/roic",${name},2020)`,
  );

  it("per-datapoint (the default): 3 names of a dataset for one ticker and year cost 3 units, after the coverage list", async () => {
    const run = await seen(() => fdq("eval", ["--no-cache", "--stats", ...names]));
    expect(run.result.code).toBe(0);
    expect([run.requests, run.units]).toEqual([LIST + 3, LIST + 3]);
    expect(stats(run.result)).toEqual({ sent: LIST + 3, units: LIST + 3 });
  });

  it("per-request: the same cells share the whole dataset's request, a unit a record at the sandbox", async () => {
    const records = await serviceRecords(sandbox, "metrics/roic/MSFT?year=2020");
    const run = await seen(() =>
      fdq("eval", ["--no-cache", "--stats", "--billing", "per-request", ...names]),
    );
    expect(run.result.code).toBe(0);
    expect([run.requests, run.units]).toEqual([LIST + 1, LIST + records.length]);
    // The account is billed per request, so fdq counts the list and the one data request as 1 unit each.
    expect(stats(run.result)).toEqual({ sent: LIST + 1, units: LIST + 1 });
  });

  it("takes FDQ_BILLING, and refuses another model (exit 2)", async () => {
    const env = {
      ...process.env,
      XDG_CACHE_HOME: home,
      FDQ_BASE_URL: sandbox.baseUrl,
      FDQ_API_KEY: sandbox.demoKey,
    };
    const run = await seen(() =>
      runFdq(["eval", "--no-cache", "--stats", ...names], { ...env, FDQ_BILLING: "per-request" }),
    );
    expect(run.requests).toBe(LIST + 1);
    const wrong = await runFdq(["eval", "--no-cache", ...names], { ...env, FDQ_BILLING: "monthly" });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^fdq: FDQ_BILLING must be per-datapoint or per-request, not "monthly"\.\n/);
  });
});

describe("a quota spent mid-run", () => {
  const QUOTA_MESSAGE = "The monthly quota of this FDQ API key is used up (429: Limit Exceeded).";
  const roic = (ticker: string, year: number): string => `=FDQ.DATAPOINT("${ticker}","roic","ROIC",${year})`;
  const TICKERS = STOCKS.slice(0, 6);

  it("shows the quota message in the cells after the refusal, and sends nothing more until --plan-raised", async () => {
    const limited = await startSandbox({ port: 0, quota: LIST + 3 });
    try {
      const cacheDir = tempDir("fdq-quota-");
      // One request at a time, in cell order: the coverage list and three are served, the fourth is refused,
      // the rest not sent.
      const first = await seen(
        () =>
          fdq(
            "eval",
            ["--stats", "--values-only", "--concurrency", "1", ...TICKERS.map((t) => roic(t, 2021))],
            cacheDir,
            limited,
          ),
        limited,
      );
      expect(first.result.code).toBe(0);
      expect([first.requests, first.units]).toEqual([LIST + 4, LIST + 3]);
      const values = first.result.stdout.trimEnd().split("\n");
      expect(values).toHaveLength(6);
      expect(values.slice(0, 3).every((v) => Number.isFinite(Number(v)))).toBe(true);
      for (const cell of values.slice(3)) {
        expect(cell.startsWith(`#N/A ${QUOTA_MESSAGE}`)).toBe(true);
        expect(cell).toMatch(/If your plan was raised, run "fdq usage --plan-raised"\.$/);
      }
      expect(stats(first.result)).toEqual({ sent: LIST + 4, units: LIST + 3 });
      expect(first.result.stderr).toMatch(/failures QuotaExhaustedError 3$/m);

      // The ledger in the cache file remembers: a new run sends nothing, even for cells not asked before.
      const second = await seen(
        () => fdq("eval", ["--values-only", roic("AAPL", 2020), '=FDQ.RATING("MSFT")'], cacheDir, limited),
        limited,
      );
      expect(second.requests).toBe(0);
      expect(
        second.result.stdout
          .split("\n")
          .slice(0, 2)
          .map((v) => v.slice(0, 5 + QUOTA_MESSAGE.length)),
      ).toEqual([`#N/A ${QUOTA_MESSAGE}`, `#N/A ${QUOTA_MESSAGE}`]);

      // One truth once the service refused: when, what the ledger counted, when it resets; no "left".
      const report = JSON.parse((await fdq("usage", ["--json"], cacheDir, limited)).stdout) as UsageReport;
      const today = centralDay(Date.now());
      expect([report.units, report.exhausted, report.exhaustedOn]).toEqual([LIST + 3, true, today]);
      const usage = await fdq("usage", [], cacheDir, limited);
      expect(usage.stdout.split("\n").slice(1, 3)).toEqual([
        `  Used up: the service refused on ${today} (429 Limit Exceeded); the ledger counted 4 units this month; the quota resets on ${report.resetsOn}.`,
        `  fdq sends no request until ${report.resetsOn}. If your plan was raised, run "fdq usage --plan-raised".`,
      ]);
      expect(usage.stdout).not.toMatch(/left/);

      const raised = await fdq("usage", ["--plan-raised", "--json"], cacheDir, limited);
      expect(raised.stderr).toBe("fdq: noted that the plan was raised: requests are sent again.\n");
      expect(JSON.parse(raised.stdout) as UsageReport).toMatchObject({ units: LIST + 3, exhausted: false });
      expect(JSON.parse(raised.stdout)).not.toHaveProperty("exhaustedOn");

      // Requests are sent again (this sandbox's quota is still spent, so it refuses the first again).
      const third = await seen(
        () => fdq("eval", ["--values-only", roic("AAPL", 2020)], cacheDir, limited),
        limited,
      );
      expect(third.requests).toBe(1);
      expect(third.result.stdout.startsWith(`#N/A ${QUOTA_MESSAGE}`)).toBe(true);
    } finally {
      await limited.close();
    }
    // Several fdq processes one after another: well under 30 s alone, more on a machine busy with the run.
  }, 90_000);
});
