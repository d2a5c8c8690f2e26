// `fdq eval` with relative periods, run as a process against an in-process sandbox: what --json says a
// relative period resolved to, --budget counting the search for the latest period, and a warm run.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { serviceNumber } from "../functions/sandbox-oracle";
import { runFdq } from "./run-fdq";

let sandbox: RunningSandbox;
let home: string;
// The sandbox and the CLI share the real clock: the latest fiscal year of a December year-end company is last
// year (the refresh day may still be yesterday's in the early UTC hours: the same year but on 1 January).
const LAST_YEAR = new Date().getUTCFullYear() - 1;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  home = mkdtempSync(path.join(tmpdir(), "fdq-home-"));
});

afterAll(() => sandbox.close());

function fdq(args: string[], cacheDir: string) {
  return runFdq(
    ["eval", "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--cache-dir", cacheDir, ...args],
    { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "" },
  );
}

const formulaFile = (lines: string[]): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-model-")), "model.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
};

const DAY = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);

describe("fdq eval with relative periods", () => {
  it("--json carries the resolved year and period and the filing type beside each value", async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"));
    const file = formulaFile([
      '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")',
      '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY-1")',
    ]);
    const out = await fdq(["--json", "-f", file], cacheDir);
    expect(out.code).toBe(0);
    const values = await Promise.all(
      [LAST_YEAR, LAST_YEAR - 1].map((y) =>
        serviceNumber(sandbox, `metrics/roic/AAPL?datapoint=ROIC&year=${y}`),
      ),
    );
    const lines = out.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")',
        value: values[0],
        year: LAST_YEAR,
        period: 5,
        periodtype: "ANNUAL",
        filingtype: "10-K",
        refreshDay: DAY,
        resolved: expect.stringMatching(
          new RegExp(`^FY0 = fiscal ${LAST_YEAR}, resolved on refresh day \\d{4}-\\d{2}-\\d{2}$`),
        ),
      },
      {
        formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY-1")',
        value: values[1],
        year: LAST_YEAR - 1,
        period: 5,
        periodtype: "ANNUAL",
        filingtype: "10-K",
        refreshDay: DAY,
        resolved: expect.stringMatching(
          new RegExp(`^FY-1 = fiscal ${LAST_YEAR - 1}, resolved on refresh day`),
        ),
      },
    ]);
    expect(lines[0]!.refreshDay).toBe((lines[0]!.resolved as string).slice(-10));
  });

  it("--budget counts the search for the latest period, and a warm run sends nothing", async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"));
    const cells = [
      '=FDQ.DATAPOINT("MSFT","roic","ROIC","FY0")',
      '=FDQ.DATAPOINT("MSFT","roic","ROIC","FY-1")',
    ];
    const before = sandbox.stats().requests;
    const refused = await fdq(["--budget", "1", ...cells], cacheDir);
    expect(refused.code).toBe(3);
    // The day's stock coverage list (1 unit), two values (2 units) and one empty answer above the latest year
    // (no unit): what the cold run then spends.
    expect(refused.stderr).toBe(
      "fdq: this run would spend at most 3 quota units (4 requests not in today's cache; less if the day's ticker coverage list, asked first, does not list some tickers); --budget is 1. Nothing was sent.\n",
    );
    expect(sandbox.stats().requests).toBe(before);
    const cold = await fdq(["--budget", "3", "--stats", ...cells], cacheDir);
    expect(cold.code).toBe(0);
    expect(cold.stderr).toMatch(/^fdq stats: requests sent 4, units spent 3,/);
    const warm = await fdq(["--budget", "0", "--stats", ...cells], cacheDir);
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stderr).toMatch(/^fdq stats: requests sent 0, units spent 0,/);
  });
});
