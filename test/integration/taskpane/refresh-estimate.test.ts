// "Refresh: before refreshing, show what it will cost": cells, distinct requests, what the cache has, and the
// cells that cannot be planned with the reason. Formulas as real workbooks write them: references, wrapped calls.
import { findDataset } from "../../../src/catalog";
import { estimateRefresh } from "../../../src/taskpane/logic/refresh-estimate";
import { useSandboxClient } from "./sandbox-client";
import { fakeWorkbook, type SeedCell } from "../../unit/taskpane/workbook-fake";

const env = useSandboxClient();

async function estimate(cells: Record<string, SeedCell>) {
  const workbook = fakeWorkbook(env.client, cells);
  await env.client.ready(); // planning needs the client's saved cache loaded
  const result = await estimateRefresh(await workbook.fdqCells(), { client: env.client, workbook });
  return { result, workbook };
}

describe("refresh estimate", () => {
  it("counts FDQ cells, distinct requests, their quota units and cached cells", async () => {
    const cells = {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("MSFT","fundamentals/adjusted","ACCOUNTS_PAYABLE",2022)',
      "Sheet1!A4": '=FDQ.SERIES("NFLX","fundamentals/reported","ACCOUNTS_PAYABLE",2020,2022)',
      "Sheet1!A5": '=FDQ.RATING("AAPL")',
      "Sheet1!A6": '=FDQ.DATASET("AAPL","roic",2022)',
    };
    const cold = (await estimate(cells)).result;
    // Billed per datapoint (the vendor's unit): FDQ.DATASET asks the whole of metrics/roic (its catalog size)
    // and ROIC and NOPAT of AAPL 2022 join that request; MSFT's datapoint is 1 unit, SERIES one per year; the
    // day's stock coverage list (1 unit) comes before them.
    const roicSize = findDataset("metrics/roic")!.datapoints.length;
    expect(cold).toEqual({
      cells: 6,
      plannedRequests: 5,
      requestsNeeded: 1 + 5,
      coverageLists: 1,
      cachedCells: 0,
      otherRequests: 1,
      units: 1 + 4 + roicSize,
      otherUnits: 1,
      refreshRequests: 1 + 6,
      refreshUnits: 1 + 5 + roicSize,
      // Every datapoint request asks a closed fiscal year (2022 closed on 1 January 2024), none (SP).
      savableUnits: 4 + roicSize,
      upperBound: true,
      unplanned: [],
      // The list is asked first and decides each ticker's data requests (SERIES: one a year).
      ifListed: {
        requests: 5,
        units: 4 + roicSize,
        byTicker: {
          AAPL: { requests: 1, units: roicSize },
          MSFT: { requests: 1, units: 1 },
          NFLX: { requests: 3, units: 3 },
        },
      },
    });
    await env.client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 });
    const warm = (await estimate(cells)).result;
    // ROIC's own answer is cached now, so its cell is; the whole dataset still has to be asked for the others.
    // Today's coverage list is cached too: no calculation asks it again today, a refresh that drops the cache does.
    expect(warm).toMatchObject({
      plannedRequests: 5,
      requestsNeeded: 5,
      coverageLists: 0,
      cachedCells: 1,
      units: 4 + roicSize,
      refreshRequests: 1 + 6,
      refreshUnits: 1 + 5 + roicSize,
    });
  });

  it("resolves cell references ($A2, B$1, Sheet2!A1, 'My Sheet'!A1) and wrapped calls, reading the cells in one batch", async () => {
    const { result, workbook } = await estimate({
      "Sheet1!A2": "AAPL",
      "Sheet1!B1": 2022,
      "Sheet2!A1": "aapl",
      "'My Sheet'!A1": 2022,
      "Sheet1!B2": '=FDQ.DATAPOINT($A2,"roic","ROIC",B$1)',
      "Sheet1!B3": '=IFERROR(FDQ.DATAPOINT(Sheet2!A1,"roic","NOPAT",2022),0)',
      "Sheet1!B4": '=FDQ.DATAPOINT("MSFT","adjusted","ACCOUNTS_PAYABLE",\'My Sheet\'!$A$1)/1e6',
      "Sheet1!B5": '=FDQ.DATAPOINT($A2,"roic","ROIC",B$1)*2',
    });
    expect(result).toEqual({
      cells: 4,
      plannedRequests: 3,
      requestsNeeded: 1 + 3,
      coverageLists: 1,
      cachedCells: 0,
      otherRequests: 0,
      units: 1 + 3,
      otherUnits: 0,
      refreshRequests: 1 + 3,
      refreshUnits: 1 + 3,
      savableUnits: 3,
      // The day's coverage list is not cached: it decides the tickers' requests, so the figures are the most.
      upperBound: true,
      unplanned: [],
      ifListed: {
        requests: 3,
        units: 3,
        byTicker: { AAPL: { requests: 2, units: 2 }, MSFT: { requests: 1, units: 1 } },
      },
    });
    expect(workbook.reads).toEqual([["Sheet1!A2", "Sheet1!B1", "Sheet2!A1", "'My Sheet'!A1"]]);
  });

  it("reports each call that cannot be planned with its reason instead of counting an invalid formula", async () => {
    const { result } = await estimate({
      "Sheet1!A1": { formula: '=FDQ.DATASET(A5:A6,"roic",2022)', value: "#VALUE!" },
      "Sheet1!A2": { formula: '=FDQ.DATAPOINT(A4,"roic","ROIC",2022)', value: "#N/A" },
      "Sheet1!A3": { formula: '=FDQ.DATAPOINT(Missing!A1,"roic","ROIC",2022)', value: "#REF!" },
      "Sheet1!A4": "#N/A",
      "Sheet1!A7": '=FDQ.DATAPOINT("AAPL","roic","ROIC",YEAR(TODAY()))',
      "Sheet1!A8": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022,9)',
      "Sheet1!A9": "=FDQ.DATAPOINT(A1)",
    });
    expect(result.unplanned).toEqual([
      {
        address: "Sheet1!A1",
        reason:
          "The cell shows #VALUE! without a request: ticker must be one cell, not a range of 2 cells " +
          "(2 rows by 1 column): FDQ.DATASET spills a table of its own, so Excel cannot repeat it for each cell.",
      },
      {
        address: "Sheet1!A2",
        reason:
          "ticker refers to Sheet1!A4, which shows #N/A: Excel passes that error on without running FDQ.DATAPOINT.",
      },
      { address: "Sheet1!A3", reason: "ticker refers to Missing!A1, which does not exist." },
      {
        address: "Sheet1!A7",
        reason: "Nested functions are not supported: YEAR(...); use a literal value (at character 37)",
      },
      { address: "Sheet1!A8", reason: "quarter must be 1, 2, 3 or 4 (got 9)." },
      {
        address: "Sheet1!A9",
        reason:
          "FDQ.DATAPOINT needs at least 4 arguments, 1 given: FDQ.DATAPOINT(ticker, dataset, name, year, [quarter], [ttm]) (at character 2)",
      },
    ]);
    expect(result).toMatchObject({ cells: 6, plannedRequests: 0, cachedCells: 0 });
  });

  it("reads numbers typed as text as the functions do", async () => {
    const { result } = await estimate({
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","roic","ROIC","2023","2")',
      "Sheet1!A2": '=FDQ.SERIES("AAPL","roic","ROIC","2020","2022","Q2")',
    });
    // 2023 Q2 and 2020..2022 Q2: four distinct quarter requests.
    expect(result).toMatchObject({ plannedRequests: 4, unplanned: [] });
  });

  it("refuses an unbounded SERIES range with the function's own reason before building any year", async () => {
    const { result } = await estimate({
      "Sheet1!A1": '=FDQ.SERIES("AAPL","roic","ROIC",1,2000000)',
      "Sheet1!A2": '=FDQ.SERIES("AAPL","roic","ROIC",1,50000000)',
      "Sheet1!A3": '=FDQ.SERIES("AAPL","roic","ROIC",2022,2020)',
    });
    expect(result.unplanned).toEqual([
      {
        address: "Sheet1!A1",
        reason: "from_year..to_year spans 2000000 years; at most 50 are allowed.",
      },
      {
        address: "Sheet1!A2",
        reason: "from_year..to_year spans 50000000 years; at most 50 are allowed.",
      },
      { address: "Sheet1!A3", reason: "to_year (2020) must not be before from_year (2022)." },
    ]);
  });

  it("counts the requests of other functions once each, and each type FDQ.SECURITY may try", async () => {
    const { result } = await estimate({
      "Sheet1!A1": '=FDQ.RATING("AAPL")',
      "Sheet1!A2": '=FDQ.RATING("aapl","roic")',
      "Sheet1!A3": '=FDQ.SECURITY("AAPL","name")',
      "Sheet1!A4": '=FDQ.SECURITY("SPY","name","etf")',
      "Sheet1!A5": '=FDQ.INFO("ROIC")',
    });
    // ratings of AAPL once (tickers in any case); SECURITY without a type may try stock, etf and mf; with one, one.
    expect(result).toMatchObject({
      otherRequests: 6,
      otherUnits: 6,
      plannedRequests: 0,
      units: 0,
      cachedCells: 0,
      upperBound: true,
      unplanned: [],
    });
  });

  it("counts FDQ.CARD as its coverage look-ups and ratings, and its chosen key metrics as datapoint requests", async () => {
    const workbook = fakeWorkbook(env.client, { "Sheet1!A1": '=FDQ.CARD("AAPL")' });
    await env.client.ready();
    const cells = await workbook.fdqCells();
    const plain = await estimateRefresh(cells, { client: env.client, workbook });
    // Coverage as stock, etf and mf (an upper bound: it stops at the first found) and the ratings: no datapoint.
    expect(plain).toMatchObject({ otherRequests: 4, plannedRequests: 0, units: 0, upperBound: true });
    const values = { withSource: false, cardMetrics: [{ dataset: "roic", name: "ROIC", period: "FY0" }] };
    const withMetric = await estimateRefresh(cells, { client: env.client, workbook, values });
    // The metric is a data call: the day's coverage list comes before it.
    expect(withMetric).toMatchObject({
      otherRequests: 4,
      plannedRequests: 1,
      coverageLists: 1,
      units: 1 + 1,
    });
  });

  it("counts a lifted call once per cell of its spill: $A2:$A4 against B$1, and a column against a row", async () => {
    const { result, workbook } = await estimate({
      "Sheet1!A2": "AAPL",
      "Sheet1!A3": "MSFT",
      "Sheet1!A4": "NFLX",
      "Sheet1!B1": 2022,
      "Sheet1!C1": 2023,
      "Sheet1!B2": '=FDQ.DATAPOINT($A2:$A4,"metrics/roic","ROIC",B$1)',
      "Sheet1!E2": '=IFERROR(FDQ.DATAPOINT(A2:A3,"roic","NOPAT",B1:C1),"n/a")',
    });
    // B2: 3 calls (3 tickers, 2022); E2: 2 x 2 calls (AAPL and MSFT, 2022 and 2023). One unit each, and the
    // day's stock coverage list before them.
    expect(result).toEqual({
      cells: 2,
      plannedRequests: 7,
      requestsNeeded: 1 + 7,
      coverageLists: 1,
      cachedCells: 0,
      otherRequests: 0,
      units: 1 + 7,
      otherUnits: 0,
      refreshRequests: 1 + 7,
      refreshUnits: 1 + 7,
      // Fiscal years 2022 and 2023 are closed (2023 on 1 January 2025): the saver keeps every value.
      savableUnits: 7,
      upperBound: true,
      unplanned: [],
      ifListed: {
        requests: 7,
        units: 7,
        byTicker: {
          AAPL: { requests: 3, units: 3 },
          MSFT: { requests: 3, units: 3 },
          NFLX: { requests: 1, units: 1 },
        },
      },
    });
    // Every cell of the ranges is read, in one batch.
    expect(workbook.reads).toEqual([["Sheet1!A2", "Sheet1!A3", "Sheet1!A4", "Sheet1!B1", "Sheet1!C1"]]);
  });

  it("counts the cells of a lifted call that make a request, and names those that cannot with their reason", async () => {
    const { result } = await estimate({
      "Sheet1!A1": "AAPL",
      "Sheet1!A2": "#N/A",
      "Sheet1!A3": "MSFT",
      "Sheet1!B1": 2022,
      "Sheet1!B2": 2023,
      "Sheet1!D1": '=FDQ.DATAPOINT(A1:A3,"roic","ROIC",B1:B2)',
      "Sheet1!D7": '=FDQ.SERIES(A1:A3,"roic","ROIC",2020,2022)',
    });
    // D1 pairs A1:A3 with B1:B2: AAPL 2022 is a request; A2 shows #N/A; D3 is beyond B1:B2 (#N/A, no call).
    expect(result).toMatchObject({ cells: 2, plannedRequests: 1, coverageLists: 1, units: 1 + 1 });
    expect(result.unplanned).toEqual([
      {
        address: "Sheet1!D2",
        reason:
          "Spilled from Sheet1!D1: ticker refers to Sheet1!A2, which shows #N/A: Excel passes that error on without running FDQ.DATAPOINT.",
      },
      {
        address: "Sheet1!D3",
        reason:
          "Spilled from Sheet1!D1: Beyond the end of a smaller range of the call: Excel shows #N/A there without a call.",
      },
      {
        address: "Sheet1!D7",
        reason:
          "The cell shows #VALUE! without a request: ticker must be one cell, not a range of 3 cells " +
          "(3 rows by 1 column): FDQ.SERIES spills a table of its own, so Excel cannot repeat it for each cell.",
      },
    ]);
  });
});

describe("refresh estimate with relative periods", () => {
  it("counts the search for the latest period cold (empty answers, no unit), and nothing once resolved", async () => {
    const cells = {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY-1")',
    };
    const cold = (await estimate(cells)).result;
    // The day's coverage list, two values (FY0 and FY-1) and one empty fiscal year above the likely latest one:
    // what the calculation then sends and spends.
    expect(cold).toMatchObject({ cells: 2, plannedRequests: 2, requestsNeeded: 1 + 3, units: 1 + 2 });
    const before = [env.requests(), env.sandbox.usage()];
    await Promise.all(
      ["FY0", "FY-1"].map((year) =>
        env.client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year }),
      ),
    );
    expect([env.requests() - before[0]!, env.sandbox.usage() - before[1]!]).toEqual([1 + 3, 1 + 2]);
    const warm = (await estimate(cells)).result;
    expect(warm).toMatchObject({ cells: 2, plannedRequests: 2, requestsNeeded: 0, units: 0, cachedCells: 2 });
  });
});
