// Excel's formula value preview (CustomFunctionsRuntime 1.5): while a formula is edited Excel calls the
// functions of the selected part with `invocation.isInValuePreview` true. A preview answers from today's cache
// (relative periods resolved today included) with the value the entered cell shows, else #N/A saying what
// entering the formula costs; it never sends a request. Counted at an in-process sandbox on a fixed day.
import { configureSharedClient, resetSharedClient } from "../../../src/host/shared-client";
import { findDataset } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import {
  excelCaller,
  installCustomFunctionsGlobal,
  loadFunctionsAsExcelDoes,
  removeCustomFunctionsGlobal,
  type CellOutcome,
} from "./excel-harness";

// The sandbox's day and the client's refresh day (12:00 UTC is after the vendor's 05:20 Chicago refresh).
const DAY = new Date("2026-11-24T12:00:00Z");

let sandbox: RunningSandbox;
let excel: ReturnType<typeof excelCaller>;

/** What a call showed, and the requests and units that reached the sandbox meanwhile. */
async function measured(work: () => Promise<CellOutcome>) {
  const [requests, units] = [sandbox.stats().requests, sandbox.usage()];
  const outcome = await work();
  return { outcome, requests: sandbox.stats().requests - requests, units: sandbox.usage() - units };
}

const notFetched = (units: string) => ({
  code: "#N/A",
  message: `Not fetched for the preview: FDQ fetches this value when the formula is entered, which costs ${units}.`,
});

/** The price of a data call whose ticker's coverage today's cache does not know: the day's list decides the rest. */
const atMost = (units: string): string =>
  `at most ${units} (less if the day's ticker coverage list, asked first, does not list the ticker)`;

/** A fresh shared client: an empty cache, no latest period resolved. */
function freshClient(): void {
  configureSharedClient(
    { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey },
    { retry: { attempts: 1 }, now: () => DAY.getTime() },
  );
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => DAY });
  excel = excelCaller(installCustomFunctionsGlobal(), await loadFunctionsAsExcelDoes(), "web");
});

beforeEach(freshClient);

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
  removeCustomFunctionsGlobal();
});

const roicSize = findDataset("metrics/roic")!.datapoints.length;

/**
 * Every function, fixed and relative periods; the units an entered cell spends on a cold cache. A data call
 * (DATAPOINT, DATASET, SERIES) of a ticker whose coverage is not known today asks the day's stock coverage list
 * first: 1 unit more, once for all its calls, and its price is "at most" (a ticker the list does not list costs
 * the list alone).
 */
const CALLS: [string, [string, ...unknown[]], string, "at most" | "exact"][] = [
  ["DATAPOINT", ["DATAPOINT", "AAPL", "roic", "ROIC", 2023], "2 units", "at most"],
  ["DATAPOINT FY0", ["DATAPOINT", "AAPL", "roic", "ROIC", "FY0"], "2 units", "at most"],
  ["DATAPOINT FY-1", ["DATAPOINT", "AAPL", "roic", "ROIC", "FY-1"], "3 units", "at most"],
  ["DATAPOINT FQ0", ["DATAPOINT", "AAPL", "roic", "NOPAT", "FQ0"], "2 units", "at most"],
  ["DATAPOINT LTM", ["DATAPOINT", "AAPL", "roic", "NOPAT", "LTM"], "2 units", "at most"],
  ["DATASET", ["DATASET", "AAPL", "metrics/roic", 2023], `${1 + roicSize} units`, "at most"],
  ["DATASET FY0", ["DATASET", "AAPL", "roic", "FY0"], `${1 + roicSize} units`, "at most"],
  ["SERIES", ["SERIES", "AAPL", "roic", "ROIC", 2020, 2023], "5 units", "at most"],
  ["SERIES FY-2..FY0", ["SERIES", "AAPL", "roic", "ROIC", "FY-2", "FY0"], "4 units", "at most"],
  ["RATING", ["RATING", "AAPL", "roic"], "1 unit", "exact"],
  ["SECTOR", ["SECTOR", "TECHNOLOGYSEC", "ROIC_AVG"], "1 unit", "exact"],
  ["COVERAGE", ["COVERAGE", "etf"], "1 unit", "exact"],
  ["SECURITY", ["SECURITY", "AAPL", "name"], "1 unit", "exact"],
  ["INFO", ["INFO", "ROIC"], "1 unit", "exact"],
];

describe("formula value preview", () => {
  it.each(CALLS)(
    "%s: an uncached preview sends nothing and names the units entering it costs; entered, it fetches them; previewed again, it shows the entered value for nothing",
    async (_name, [id, ...args], units, bound) => {
      const preview = await measured(() => excel.preview(id, ...args));
      const price = bound === "at most" ? atMost(units) : units;
      expect(preview).toEqual({ outcome: notFetched(price), requests: 0, units: 0 });

      const entered = await measured(() => excel.cell(id, ...args));
      expect("value" in entered.outcome).toBe(true);
      expect(entered.requests).toBeGreaterThan(0);
      expect(`${entered.units} ${entered.units === 1 ? "unit" : "units"}`).toBe(units);

      expect(await measured(() => excel.preview(id, ...args))).toEqual({
        outcome: entered.outcome,
        requests: 0,
        units: 0,
      });
    },
  );

  it("a preview starts no latest-period search: the entered FY0 cell afterwards searches and pays as alone", async () => {
    const probe = ["DATAPOINT", "AAPL", "roic", "ROIC"] as const;
    const previews = await measured(async () => {
      await excel.preview(...probe, "FY-1");
      return excel.preview(...probe, "FY0");
    });
    expect(previews).toEqual({ outcome: notFetched(atMost("2 units")), requests: 0, units: 0 });
    const entered = await measured(() => excel.cell(...probe, "FY0"));
    freshClient();
    const alone = await measured(() => excel.cell(...probe, "FY0"));
    expect(entered).toEqual(alone);
  });

  it("FY-1 previews from the cache once FY0 has resolved the latest year today, with the entered value", async () => {
    await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY0");
    await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", 2024);
    const preview = await measured(() => excel.preview("DATAPOINT", "AAPL", "roic", "ROIC", "FY-1"));
    expect(preview.requests + preview.units).toBe(0);
    expect(preview.outcome).toEqual(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY-1"));
    // Resolved but not cached: the year's own request is all entering it costs.
    expect(await measured(() => excel.preview("DATAPOINT", "AAPL", "roic", "ROIC", "FY-2"))).toEqual({
      outcome: notFetched("1 unit"),
      requests: 0,
      units: 0,
    });
  });

  it("a SERIES with some years cached previews their values and #N/A with the price of each other year", async () => {
    const cached = await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", 2022);
    const preview = await measured(() => excel.preview("SERIES", "AAPL", "roic", "ROIC", 2021, 2022));
    expect(preview.requests + preview.units).toBe(0);
    const row = (preview.outcome as { value: unknown[][] }).value[0]!;
    expect(row[1]).toBe((cached as { value: number }).value);
    expect(row[0]).toMatchObject(notFetched("1 unit"));
  });

  it("a ticker found not covered today previews the entered cell's error; an unknown one asks nothing", async () => {
    // At most the list and its value: the preview cannot know before the list, which entering the cell asks
    // first and which then spares the value's request.
    const unknown = await measured(() => excel.preview("DATAPOINT", "ZZZS", "roic", "ROIC", 2023));
    expect(unknown).toEqual({ outcome: notFetched(atMost("2 units")), requests: 0, units: 0 });
    const cell = await measured(() => excel.cell("DATAPOINT", "ZZZS", "roic", "ROIC", 2023));
    expect([cell.requests, cell.units]).toEqual([1, 1]);
    const entered = cell.outcome;
    expect(entered).toMatchObject({ code: "#N/A", message: expect.stringContaining('"ZZZS"') });
    for (const year of [2023, 2022])
      expect(await measured(() => excel.preview("DATAPOINT", "ZZZS", "roic", "ROIC", year))).toEqual({
        outcome: entered,
        requests: 0,
        units: 0,
      });
  });

  it("a bad argument previews the same #VALUE! as the entered cell, with no request", async () => {
    const preview = await measured(() => excel.preview("DATAPOINT", "AAPL", "roic", "ROIC", 1800));
    expect(preview.requests + preview.units).toBe(0);
    expect(preview.outcome).toEqual(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", 1800));
    expect(preview.outcome).toMatchObject({ code: "#VALUE!" });
  });

  it("a host without CustomFunctionsRuntime 1.5 (no isInValuePreview) fetches as an entered cell does, without a console error", async () => {
    const errors = jest.spyOn(console, "error");
    try {
      const older = await measured(() => excel.olderHost("DATAPOINT", "AAPL", "roic", "ROIC", 2023));
      // The day's coverage list and the value.
      expect(older).toMatchObject({ requests: 2, units: 2, outcome: { value: expect.any(Number) } });
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});
