// The FDQ functions as Excel calls them with cell references, on both platforms: an empty referenced cell
// arrives as 0 on the desktop and as null on the web (office-js#4702), a range given to a scalar parameter
// is array-lifted, and the spilling functions, which cannot be lifted, refuse a range naming the argument.
import { configureSharedClient, resetSharedClient } from "../../../src/host/shared-client";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import {
  EMPTY,
  EMPTY_CELL_MODES,
  excelCaller,
  installCustomFunctionsGlobal,
  loadFunctionsAsExcelDoes,
  range,
  removeCustomFunctionsGlobal,
  type ExcelCaller,
  type MatrixParameters,
} from "./excel-harness";
import { serviceNumber, serviceResults } from "./sandbox-oracle";

let sandbox: RunningSandbox;
let registry: ReturnType<typeof installCustomFunctionsGlobal>;
let metadata: MatrixParameters;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  registry = installCustomFunctionsGlobal();
  metadata = await loadFunctionsAsExcelDoes();
  configureSharedClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey }, { retry: { attempts: 1 } });
});

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
  removeCustomFunctionsGlobal();
});

describe.each(EMPTY_CELL_MODES)("in Excel's %s empty-cell mode", (mode) => {
  let excel: ExcelCaller;
  beforeAll(() => {
    excel = excelCaller(registry, metadata, mode);
  });

  describe("an empty referenced cell in an optional argument gives the value of the omitted argument", () => {
    it.each([
      ["DATAPOINT quarter and ttm", "DATAPOINT", ["AAPL", "roic", "ROIC", 2023], [EMPTY, EMPTY]],
      ["DATASET quarter, ttm and with_signs", "DATASET", ["AAPL", "roic", 2023], [EMPTY, EMPTY, EMPTY]],
      ["SERIES period", "SERIES", ["AAPL", "roic", "ROIC", 2021, 2023], [EMPTY]],
      ["RATING field", "RATING", ["AAPL"], [EMPTY]],
      ["SECURITY type", "SECURITY", ["AAPL", "name"], [EMPTY]],
      ["INFO field", "INFO", ["ROIC"], [EMPTY]],
    ] as const)("%s", async (_what, id, required, empties) => {
      const omitted = await excel.cell(id, ...required);
      expect("value" in omitted).toBe(true);
      expect(await excel.cell(id, ...required, ...empties)).toEqual(omitted);
    });

    it("SECTOR's prior_year is different: 0 is the last fiscal year, as an omitted one is", async () => {
      const omitted = await excel.cell("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG");
      expect(await excel.cell("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG", EMPTY)).toEqual(omitted);
    });
  });

  describe("ranges given to the scalar functions are lifted: one result per cell", () => {
    it("DATAPOINT over a column of tickers and a row of years", async () => {
      const tickers = ["AAPL", "MSFT"];
      const years = [2022, 2023];
      const expected = await Promise.all(
        tickers.map((t) =>
          Promise.all(
            years.map(async (y) => ({
              value: await serviceNumber(sandbox, `metrics/roic/${t}?datapoint=ROIC&year=${y}`),
            })),
          ),
        ),
      );
      const out = await excel.lifted(
        "DATAPOINT",
        range(tickers.map((t) => [t])),
        "roic",
        "ROIC",
        range([years]),
        EMPTY,
      );
      expect(out).toEqual(expected);
    });

    it("RATING, SECTOR, SECURITY and INFO over a range, an error only in its own cell", async () => {
      const ratings = await excel.lifted("RATING", range([["AAPL"], ["NOSUCHTICKER"]]));
      expect(ratings[0]?.[0]).toEqual({ value: expect.any(Number) });
      expect(ratings[1]?.[0]).toMatchObject({ code: "#N/A" });

      const sectors = await excel.lifted(
        "SECTOR",
        "TECHNOLOGYSEC",
        range([["ROIC_AVG", "ROIC_AVG"]]),
        range([[0, 1]]),
      );
      expect(sectors[0]).toEqual([
        await excel.cell("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG", 0),
        await excel.cell("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG", 1),
      ]);

      const names = await excel.lifted("SECURITY", range([["AAPL"], ["MSFT"]]), "name", EMPTY);
      expect(names).toEqual([
        [await excel.cell("SECURITY", "AAPL", "name")],
        [await excel.cell("SECURITY", "MSFT", "name")],
      ]);

      const info = await excel.lifted("INFO", range([["ROIC", "NOPAT"]]));
      expect(info).toEqual([[await excel.cell("INFO", "ROIC"), await excel.cell("INFO", "NOPAT")]]);
      expect(info[0]?.every((o) => "value" in o)).toBe(true);
    });
  });

  describe("the spilling functions refuse a range, naming the argument, before any request", () => {
    async function withRequests(run: () => Promise<unknown>) {
      const before = sandbox.stats().requests;
      const outcome = await run();
      return { outcome, requests: sandbox.stats().requests - before };
    }

    it.each([
      [
        "DATASET's ticker",
        "DATASET",
        [range([["AAPL"], ["MSFT"], ["NFLX"]]), "roic", 2023],
        "ticker must be one cell, not a range of 3 cells (3 rows by 1 column): FDQ.DATASET spills a table of its own, so Excel cannot repeat it for each cell.",
      ],
      [
        "SERIES's to_year",
        "SERIES",
        ["AAPL", "roic", "ROIC", 2020, range([[2022, 2023]])],
        "to_year must be one cell, not a range of 2 cells (1 row by 2 columns): FDQ.SERIES spills a table of its own, so Excel cannot repeat it for each cell.",
      ],
      [
        "COVERAGE's type",
        "COVERAGE",
        [
          range([
            ["stock", "etf"],
            ["mf", EMPTY],
          ]),
        ],
        "type must be one cell, not a range of 4 cells (2 rows by 2 columns): FDQ.COVERAGE spills a table of its own, so Excel cannot repeat it for each cell.",
      ],
    ] as const)("%s", async (_what, id, args, message) => {
      expect(await withRequests(() => excel.cell(id, ...args))).toEqual({
        outcome: { code: "#VALUE!", message },
        requests: 0,
      });
    });

    it("still answers a single cell given as a one-cell range, and an empty optional one-cell range", async () => {
      const single = await excel.cell(
        "DATASET",
        range([["AAPL"]]),
        "roic",
        range([[2023]]),
        range([[EMPTY]]),
      );
      expect(single).toEqual(await excel.cell("DATASET", "AAPL", "roic", 2023));
      const coverage = await excel.cell("COVERAGE", range([["sector"]]));
      const listed = (await serviceResults(sandbox, "coverage/sector")) as unknown[];
      expect("value" in coverage && (coverage.value as unknown[][]).length).toBe(listed.length + 1);
    });
  });
});
