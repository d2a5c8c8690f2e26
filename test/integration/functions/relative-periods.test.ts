// Relative periods in cells: FDQ.DATAPOINT, FDQ.DATASET and FDQ.SERIES called through their
// CustomFunctions.associate registrations, as Excel calls them, against an in-process sandbox on a fixed day.
import { configureSharedClient, resetSharedClient } from "../../../src/host/shared-client";
import { RELATIVE_GRAMMAR } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import {
  excelCaller,
  installCustomFunctionsGlobal,
  loadFunctionsAsExcelDoes,
  removeCustomFunctionsGlobal,
} from "./excel-harness";
import { serviceNumber, serviceResults } from "./sandbox-oracle";

// The sandbox's day and the client's refresh day (12:00 UTC is after the vendor's 05:20 Chicago refresh).
const DAY = new Date("2026-11-24T12:00:00Z");

let sandbox: RunningSandbox;
let excel: ReturnType<typeof excelCaller>;
const cell = (id: string, ...args: unknown[]) => excel.cell(id, ...args);

async function cellWithRequests(id: string, ...args: unknown[]) {
  const before = sandbox.stats().requests;
  const outcome = await cell(id, ...args);
  return { outcome, requests: sandbox.stats().requests - before };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => DAY });
  const registry = installCustomFunctionsGlobal();
  excel = excelCaller(registry, await loadFunctionsAsExcelDoes(), "web");
});

beforeEach(() => {
  configureSharedClient(
    { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey },
    { retry: { attempts: 1 }, now: () => DAY.getTime() },
  );
});

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
  removeCustomFunctionsGlobal();
});

const roic = (query: string) => serviceNumber(sandbox, `metrics/roic/AAPL?${query}`);

describe("FDQ.DATAPOINT with a relative year", () => {
  it("FY0, fy-1 (any case), FQ0 and LTM give the values of the latest periods", async () => {
    expect(await cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY0")).toEqual({
      value: await roic("datapoint=ROIC&year=2025"),
    });
    expect(await cell("DATAPOINT", "AAPL", "roic", "ROIC", "fy-1")).toEqual({
      value: await roic("datapoint=ROIC&year=2024"),
    });
    expect(await cell("DATAPOINT", "AAPL", "roic", "NOPAT", "FQ0")).toEqual({
      value: await roic("datapoint=NOPAT&year=2026&quarter=3"),
    });
    expect(await cell("DATAPOINT", "AAPL", "roic", "NOPAT", "LTM")).toEqual({
      value: await roic("datapoint=NOPAT&year=2026&ttm=3"),
    });
  });

  it("FY0 with a quarter is that quarter of the latest fiscal year", async () => {
    expect(await cell("DATAPOINT", "AAPL", "roic", "NOPAT", "FY0", 2)).toEqual({
      value: await roic("datapoint=NOPAT&year=2025&quarter=2"),
    });
  });

  it("refuses anything outside the grammar, and FQ or LTM with a quarter or ttm, with #VALUE! and no request", async () => {
    const grammar = (got: string) =>
      `year must be a fiscal year such as 2023 or a relative period: ${RELATIVE_GRAMMAR} (got ${got}).`;
    const cases: Array<[unknown[], string, string]> = [
      [["AAPL", "roic", "ROIC", "FY+1"], "year", grammar('"FY+1"')],
      [["AAPL", "roic", "ROIC", "FY-31"], "year", grammar('"FY-31"')],
      [["AAPL", "roic", "ROIC", "latest"], "year", grammar('"latest"')],
      [
        ["AAPL", "roic", "NOPAT", "FQ0", 2],
        "quarter",
        "quarter must be omitted with FQ0: FQ periods are quarters of their own (use FY0 with a quarter for a quarter of the latest fiscal year).",
      ],
      [
        ["AAPL", "roic", "NOPAT", "LTM", null, 1],
        "ttm",
        "ttm must be omitted with LTM: LTM periods are trailing twelve months of their own (use FY0 with a ttm for a ttm window of the latest fiscal year).",
      ],
      // In argument order: a bad ticker is named before a bad period.
      [["", "roic", "ROIC", "FY+1"], "ticker", 'ticker must be non-empty text (got "").'],
    ];
    for (const [args, , message] of cases) {
      expect(await cellWithRequests("DATAPOINT", ...args)).toEqual({
        outcome: { code: "#VALUE!", message },
        requests: 0,
      });
    }
  });
});

describe("FDQ.DATASET with a relative year", () => {
  it("spills the latest fiscal year's dataset", async () => {
    const records = (await serviceResults(sandbox, "metrics/roic/AAPL?year=2025")) as {
      datapoint: string;
      datavalue: string;
    }[];
    const out = await cell("DATASET", "AAPL", "roic", "FY0");
    expect("value" in out && (out.value as unknown[][]).map((row) => row[0])).toEqual(
      records.map((r) => r.datapoint),
    );
  });
});

describe("FDQ.SERIES with relative bounds", () => {
  it("FY-9 to FY0 is the last ten fiscal years, oldest first", async () => {
    const expected = await Promise.all(
      Array.from({ length: 10 }, (_, i) => roic(`datapoint=ROIC&year=${2016 + i}`)),
    );
    expect(await cell("SERIES", "AAPL", "roic", "ROIC", "FY-9", "FY0")).toEqual({ value: [expected] });
  });

  it("mixes a fixed year with FY0, and counts quarters with FQ-3 to FQ0 across fiscal years", async () => {
    const years = await Promise.all([2023, 2024, 2025].map((y) => roic(`datapoint=ROIC&year=${y}`)));
    expect(await cell("SERIES", "AAPL", "roic", "ROIC", 2023, "FY0")).toEqual({ value: [years] });
    const quarters = await Promise.all(
      [
        [2025, 4],
        [2026, 1],
        [2026, 2],
        [2026, 3],
      ].map(([y, q]) => roic(`datapoint=NOPAT&year=${y}&quarter=${q}`)),
    );
    expect(await cell("SERIES", "AAPL", "roic", "NOPAT", "FQ-3", "FQ0")).toEqual({ value: [quarters] });
  });

  it("refuses bounds of different bases, and FQ bounds beside a fixed year", async () => {
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", "FQ-3", "FY0")).toEqual({
      outcome: {
        code: "#VALUE!",
        message: "from_year and to_year must count from the same latest period (got FQ-3 and FY0).",
      },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", 2020, "LTM")).toEqual({
      outcome: {
        code: "#VALUE!",
        message: "to_year LTM counts quarters: a series from a fiscal year needs FY periods (FY-n) or years.",
      },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", "FY0", "FY-3")).toEqual({
      outcome: { code: "#VALUE!", message: "to_year (FY-3) must not be before from_year (FY0)." },
      requests: 0,
    });
  });
});
