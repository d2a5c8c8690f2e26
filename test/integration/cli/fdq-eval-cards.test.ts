// `fdq eval --json` of FDQ.CARD and of numbers with their source (--with-source), run as a process against an
// in-process sandbox: the values are printed as the add-in returns them to Excel (Excel's own JSON), and a second
// run on the same refresh day and cache directory sends nothing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULTS, FdqClient, RefreshDayClock } from "../../../src/api";
import { FileRecordStore } from "../../../src/api/node";
import { cacheFileFor } from "../../../src/cli/connection";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { BIN, runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;
let home: string;

type Json = Record<string, unknown>;

/** fdq eval against the test's sandbox, with its own cache directory unless told otherwise. */
function fdq(args: string[], cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"))): Promise<Run> {
  return runFdq(
    ["eval", "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--cache-dir", cacheDir, ...args],
    { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "" },
    [process.execPath, BIN],
  );
}

/** The JSON lines of a run, one object per formula. */
const lines = (run: Run): Json[] =>
  run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Json);

const props = (value: unknown): Record<string, Json> =>
  (value as { properties: Record<string, Json> }).properties;
const sectionTitles = (value: unknown): unknown[] =>
  (value as { layouts: { card: { sections: Json[] } } }).layouts.card.sections.map((s) => s.title);
const basic = (value: unknown): unknown => (value as Json).basicValue;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  home = mkdtempSync(path.join(tmpdir(), "fdq-home-"));
});

afterAll(() => sandbox.close());

describe("fdq eval --json '=FDQ.CARD(...)'", () => {
  let run: Run;
  let cards: Json[];

  beforeAll(async () => {
    run = await fdq([
      "--json",
      '=FDQ.CARD("AAPL")',
      '=FDQ.CARD("QQQ")',
      '=FDQ.CARD("GAFFX")',
      '=FDQ.CARD("ENRN:1")',
      '=FDQ.SECURITY("AAPL","sector_name")',
      '=FDQ.RATING("AAPL","gap")',
      '=FDQ.SECURITY("ENRN:1","last_trade_date")',
    ]);
    cards = lines(run);
  });

  it("prints the card as Excel's JSON: an Entity whose text is the name and ticker", () => {
    expect(run.code).toBe(0);
    const [aapl] = cards;
    expect(aapl!.formula).toBe('=FDQ.CARD("AAPL")');
    const value = aapl!.value as Json;
    expect(Object.keys(value)).toEqual(["type", "text", "properties", "layouts", "provider"]);
    expect(value.type).toBe("Entity");
    expect(value.text).toBe(`${basic(props(value)["Name"])} (AAPL)`);
  });

  it("carries the coverage fields and the six stock ratings with their words", () => {
    const value = cards[0]!.value;
    expect(props(value)["Sector"]).toEqual({ type: "String", basicValue: cards[4]!.value });
    const gap = cards[5]!.value as number;
    const words = ["", "Very Attractive", "Attractive", "Neutral", "Unattractive", "Very Unattractive"];
    expect(props(value)["GAP rating"]).toEqual({
      type: "Double",
      basicValue: gap,
      numberFormat: `0" - ${words[gap]}"`,
    });
    expect(Object.keys(props(value)).filter((k) => k.endsWith(" rating"))).toHaveLength(6);
  });

  it("ends with the provenance footer: refresh day, units spent this refresh day, source", () => {
    const value = cards[0]!.value;
    expect(sectionTitles(value)).toEqual(["Security", "Ratings", "Source"]);
    expect(props(value)["Units spent this refresh day"]).toEqual({ type: "Double", basicValue: 2 });
    expect(props(value)["Source"]).toEqual({
      type: "String",
      basicValue: `FDQ service (${new URL(sandbox.baseUrl).host}), fetched now`,
    });
  });

  it("gives an ETF, a mutual fund and an inactive ticker their own fields", () => {
    const [, etf, fund, inactive] = cards;
    expect(basic(props(etf!.value)["Security type"])).toBe("etf");
    expect(Object.keys(props(etf!.value))).toContain("Costs rating");
    expect(Object.keys(props(fund!.value))).toEqual(expect.arrayContaining(["Costs rating", "Cash rating"]));
    expect(basic(props(inactive!.value)["Security type"])).toBe("inactive");
    expect(basic(props(inactive!.value)["Last trade date"])).toBe(cards[6]!.value);
  });

  it("answers from the day cache on a second run the same refresh day: 0 requests", async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"));
    await fdq(["--json", '=FDQ.CARD("AAPL")'], cacheDir);
    const before = sandbox.stats().requests;
    const again = await fdq(["--json", "--stats", '=FDQ.CARD("AAPL")'], cacheDir);
    expect(sandbox.stats().requests - before).toBe(0);
    expect(again.stderr).toBe(
      "fdq stats: requests sent 0, units spent 0, cache hits 2, coalesced calls 0, retries 0, failures 0\n",
    );
    expect(props(lines(again)[0]!.value)["Source"]).toEqual({
      type: "String",
      basicValue: `FDQ service (${new URL(sandbox.baseUrl).host}), from this refresh day's cache`,
    });
  });

  it("prints the card's text without --json", async () => {
    const plain = await fdq(["--values-only", '=FDQ.CARD("AAPL")']);
    expect(plain.stdout).toBe(`${(cards[0]!.value as Json).text as string}\n`);
  });
});

describe("fdq eval --card-metric", () => {
  it("adds each metric to the card's Key metrics, named by its datapoint, the latest period taking the bare name", async () => {
    const run = await fdq([
      "--json",
      "--card-metric",
      "roic:ROIC:FY-1",
      "--card-metric",
      "roic:ROIC:FY0",
      '=FDQ.CARD("AAPL")',
      '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")',
    ]);
    const [card, plain] = lines(run);
    expect(sectionTitles(card!.value)).toEqual(["Security", "Ratings", "Key metrics", "Source"]);
    expect(basic(props(card!.value)["ROIC"])).toBe(plain!.value);
    expect(basic(props(props(card!.value)["ROIC FY-1"])["Period asked"])).toBe("FY-1");
  });

  it("refuses a metric without a relative period, naming the form", async () => {
    const run = await fdq(["--card-metric", "roic:ROIC:2023", '=FDQ.CARD("AAPL")']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "fdq: --card-metric roic:ROIC:2023: give DATASET:NAME:PERIOD with a relative period, e.g. roic:ROIC:FY0 or enhanced:FREE_CASH_FLOW:FY0.\n" +
        'Run "fdq --help" for the usage.\n',
    );
  });

  it("is counted by --budget: coverage, ratings, the metric and the day's coverage list", async () => {
    const run = await fdq(["--budget", "1", "--card-metric", "roic:ROIC:FY0", '=FDQ.CARD("AAPL")']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "fdq: this run would spend at most 4 quota units (5 requests not in today's cache; less if the day's ticker coverage list, asked first, does not list some tickers); --budget is 1. Nothing was sent.\n",
    );
  });
});

describe("fdq eval --json --with-source", () => {
  it("prints a number as a Double with its basicValue and the period FY0 resolved to", async () => {
    const plain = lines(await fdq(["--json", '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")']))[0]!;
    expect(plain.value).toEqual(expect.any(Number));
    const run = await fdq(["--json", "--with-source", '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")']);
    const [sourced] = lines(run);
    expect(Object.keys(sourced!)).toEqual(["formula", "value"]);
    const value = sourced!.value as Json;
    expect(value).toMatchObject({ type: "Double", basicValue: plain.value, numberFormat: "0.00%" });
    expect(props(value)["Period"]).toEqual({
      type: "String",
      basicValue: `FY0 = fiscal ${plain.year as number}`,
    });
    expect(props(value)["Refresh day"]).toEqual({ type: "String", basicValue: plain.refreshDay });
  });

  it("leaves errors and text as they are", async () => {
    const args = [
      '=FDQ.DATAPOINT("AAPL","roic","NO_SUCH",2023)',
      '=FDQ.SECTOR("TECHNOLOGYSEC","CATEGORY_TYPE")',
    ];
    const plain = lines(await fdq(["--json", ...args]));
    expect(lines(await fdq(["--json", "--with-source", ...args]))).toEqual(plain);
  });
});

describe("fdq eval --json --with-source: Restated since the day before", () => {
  it("says what the service sent the day before for a number it restated since, and not known for one first asked today", async () => {
    const DAY_MS = 86_400_000;
    // The service restates the closed fiscal years from today's UTC date on; its clock starts a day earlier.
    let serviceNow = new Date(Date.now() - DAY_MS);
    const service = await startSandbox({
      port: 0,
      now: () => serviceNow,
      restate: new Date().toISOString().slice(0, 10),
    });
    try {
      const cacheDir = mkdtempSync(path.join(tmpdir(), "fdq-cache-"));
      const file = cacheFileFor(cacheDir, service.baseUrl, service.demoKey);
      // Yesterday's run, in the CLI's own cache file (as fdq writes it, with yesterday's clock).
      const yesterday = new FdqClient({
        baseUrl: service.baseUrl,
        apiKey: service.demoKey,
        storage: new FileRecordStore(file, 10_000_000),
        maxPersistChars: DEFAULTS.maxFilePersistChars,
        now: () => Date.now() - DAY_MS,
      });
      const before = await yesterday.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 });
      await yesterday.close();
      serviceNow = new Date();
      const dayBefore = new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now() - DAY_MS);
      const cells = [
        '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
        '=FDQ.DATAPOINT("MSFT","roic","ROIC",2023)',
      ];
      const run = () =>
        runFdq(
          [
            "eval",
            "--base-url",
            service.baseUrl,
            "--api-key",
            service.demoKey,
            "--cache-dir",
            cacheDir,
            "--json",
            "--with-source",
            ...cells,
          ],
          { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "" },
          [process.execPath, BIN],
        );
      const restated = (r: Run) => lines(r).map((line) => props(line.value)["Restated since the day before"]);
      const first = await run();
      const today = lines(first)[0]!.value as Json;
      expect(basic(today)).not.toBe(before.value);
      const expected = [
        { type: "String", basicValue: `yes: was ${before.record.datavalue} on ${dayBefore}` },
        { type: "String", basicValue: "not known: no value kept from the day before" },
      ];
      expect(restated(first)).toEqual(expected);
      // A second run the same day reads the values the first kept (the day before's answers are gone from the file).
      expect(restated(await run())).toEqual(expected);
    } finally {
      await service.close();
    }
  });
});
