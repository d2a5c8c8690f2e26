// "Explain this cell": what the cell's FDQ calls resolved to, where the value came from and the request made,
// for every function, with cell references and wrapped calls; never a request of its own, never the key.
import { findDatapoint, findDataset } from "../../../src/catalog";
import { explainCell } from "../../../src/taskpane/logic/explain";
import {
  priceOf,
  priceText,
  type CallExplanation,
  type Explanation,
} from "../../../src/taskpane/logic/explanation";
import { today, useSandboxClient } from "./sandbox-client";
import { fakeWorkbook, type FakeWorkbook, type SeedCell } from "../../unit/taskpane/workbook-fake";

const env = useSandboxClient();
const describe_ = (name: string): string => `about ${name}`;

async function explain(cells: Record<string, SeedCell>, address?: string) {
  const workbook: FakeWorkbook = fakeWorkbook(env.client, cells);
  if (address) workbook.selected = address;
  await env.client.ready();
  const before = env.requests();
  const e = await explainCell(await workbook.selectedCell(), {
    client: env.client,
    workbook,
    describe: describe_,
  });
  // Explaining never sends a request of its own.
  expect(env.requests()).toBe(before);
  expect(JSON.stringify(e)).not.toContain(env.sandbox.demoKey);
  return { e, workbook };
}

function onlyCall(e: Explanation): CallExplanation {
  if (e.kind !== "fdq" || e.calls.length !== 1)
    throw new Error(`expected one FDQ call, got ${JSON.stringify(e)}`);
  return e.calls[0]!;
}

function callOf<K extends CallExplanation["kind"]>(
  e: Explanation,
  kind: K,
): Extract<CallExplanation, { kind: K }> {
  const call = onlyCall(e);
  if (call.kind !== kind) throw new Error(`expected a ${kind} explanation, got ${JSON.stringify(call)}`);
  return call as Extract<CallExplanation, { kind: K }>;
}

describe("explain this cell: FDQ.DATAPOINT", () => {
  it("resolves dataset, datapoint with its catalog entry, period, the cached day and the URL without the key", async () => {
    const workbook = fakeWorkbook(env.client, { "Sheet1!B2": '=FDQ.DATAPOINT("aapl","ROIC","roic",2023,2)' });
    await workbook.calculateFull();
    await workbook.settled();
    const e = await explainCell(await workbook.selectedCell(), {
      client: env.client,
      workbook,
      describe: describe_,
    });
    const d = callOf(e, "datapoint");
    const roic = findDataset("metrics/roic");
    expect(d.facts).toEqual({
      ticker: "AAPL",
      dataset: roic,
      datasetArg: "ROIC",
      datapointName: "ROIC",
      datapoint: roic && findDatapoint(roic, "ROIC"),
      description: "about ROIC",
    });
    expect(d.period).toBe("Q2 FY2023");
    // Billed per datapoint: a lone ROIC is its own request, 1 unit; cached, so nothing to spend.
    expect(d.request).toEqual({
      url: `${env.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2023&quarter=2`,
      cached: true,
      units: 1,
    });
    expect(priceText(priceOf([d.request as { cached: boolean; units: number }], false))).toBe(
      "1 unit; cached today: 0 units to spend.",
    );
    expect(d.source).toMatchObject({
      kind: "cache",
      refreshDay: today(),
      value: workbook.cells.get("Sheet1!B2")?.value,
    });
  });

  it("says a cell that is not in the cache will be fetched", async () => {
    const { e } = await explain({
      "Sheet1!C1": '=FDQ.DATAPOINT("MSFT","adjusted","ACCOUNTS_PAYABLE",2022,,4)',
    });
    expect(callOf(e, "datapoint")).toMatchObject({
      period: "TTM to Q4 FY2022",
      source: { kind: "not-cached" },
    });
  });

  it("reads cell references ($A2, B$1, other sheets) and shows where each argument came from", async () => {
    const { e, workbook } = await explain(
      {
        "Sheet1!A2": "AAPL",
        "Sheet1!B1": 2022,
        "'Inputs 2'!C3": "roic",
        "Sheet1!B2": "=FDQ.DATAPOINT($A2,'Inputs 2'!$C$3,\"ROIC\",B$1)",
      },
      "Sheet1!B2",
    );
    const d = callOf(e, "datapoint");
    expect(d.inputs).toEqual([
      { name: "ticker", value: "AAPL", from: "Sheet1!A2" },
      { name: "dataset", value: "roic", from: "'Inputs 2'!C3" },
      { name: "name", value: "ROIC" },
      { name: "year", value: 2022, from: "Sheet1!B1" },
    ]);
    expect(d.request).toEqual({
      url: `${env.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2022`,
      cached: false,
      units: 1,
    });
    expect(workbook.reads).toEqual([["Sheet1!A2", "'Inputs 2'!C3", "Sheet1!B1"]]);
  });

  it("explains the FDQ calls inside a wrapped formula", async () => {
    const { e } = await explain({
      "Sheet1!A1":
        '=IFERROR(FDQ.DATAPOINT("AAPL","roic","ROIC",2022)/FDQ.DATAPOINT("AAPL","roic","NOPAT",2022),0)',
    });
    if (e.kind !== "fdq") throw new Error(e.kind);
    expect(e.calls.map((c) => [c.kind, c.text])).toEqual([
      ["datapoint", 'FDQ.DATAPOINT("AAPL","roic","ROIC",2022)'],
      ["datapoint", 'FDQ.DATAPOINT("AAPL","roic","NOPAT",2022)'],
    ]);
  });

  it("reads numbers typed as text as the functions do", async () => {
    const { e } = await explain({ "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","roic","ROIC","2023","2")' });
    expect(callOf(e, "datapoint")).toMatchObject({
      period: "Q2 FY2023",
      request: {
        url: `${env.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2023&quarter=2`,
        cached: false,
        units: 1,
      },
    });
  });

  it("says why a call cannot be planned, and names an argument the request module refuses", async () => {
    const range = await explain({
      "S!A1": { formula: '=FDQ.DATASET(B1:B2,"roic",2022)', value: "#VALUE!" },
    });
    expect(onlyCall(range.e)).toEqual({
      kind: "unplanned",
      text: 'FDQ.DATASET(B1:B2,"roic",2022)',
      reason:
        "The cell shows #VALUE! without a request: ticker must be one cell, not a range of 2 cells " +
        "(2 rows by 1 column): FDQ.DATASET spills a table of its own, so Excel cannot repeat it for each cell.",
    });
    const bad = await explain({ "S!A2": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022,9)' });
    expect(callOf(bad.e, "datapoint")).toMatchObject({
      request: { invalid: "quarter must be 1, 2, 3 or 4 (got 9)." },
      source: { kind: "error", message: "quarter must be 1, 2, 3 or 4 (got 9)." },
    });
  });

  it("tells an empty cell and a cell without an FDQ formula", async () => {
    expect((await explain({ "Sheet1!A1": "" })).e).toEqual({ kind: "empty", address: "Sheet1!A1" });
    expect((await explain({ "Sheet1!A1": "=SUM(1,2)" })).e).toEqual({
      kind: "not-fdq",
      address: "Sheet1!A1",
      formula: "=SUM(1,2)",
    });
  });
});

describe("explain this cell: the other functions", () => {
  it("FDQ.DATASET: its URL, cache state, price (the catalog's size) and, once cached, the dataset's rows count", async () => {
    const cells = { "Sheet1!A1": '=FDQ.DATASET("AAPL","roic",2022)' };
    const cold = callOf((await explain(cells)).e, "dataset");
    const roicSize = findDataset("metrics/roic")!.datapoints.length;
    expect(cold).toMatchObject({
      ticker: "AAPL",
      dataset: findDataset("metrics/roic"),
      period: "FY2022",
      request: { url: `${env.sandbox.baseUrl}/metrics/roic/AAPL?year=2022`, cached: false, units: roicSize },
      source: { kind: "not-cached" },
    });
    expect(priceText(priceOf([{ cached: false, units: roicSize }], false))).toBe(
      `${roicSize} units; not cached today: ${roicSize} units to spend on the next calculation.`,
    );
    const answer = await env.client.dataset({ ticker: "AAPL", dataset: "roic", year: 2022 });
    const warm = callOf((await explain(cells)).e, "dataset");
    expect(warm.source).toEqual({ kind: "cache", refreshDay: today(), rows: answer.records.length });
    expect(warm.request).toMatchObject({ cached: true });
  });

  it("FDQ.DATASET of a dataset without an all-datapoints mode gives the client's reason", async () => {
    const reported = findDataset("fundamentals/reported");
    expect(reported?.allDatapointsMode).toBe(false);
    const d = callOf(
      (await explain({ "Sheet1!A1": '=FDQ.DATASET("AAPL","fundamentals/reported",2022)' })).e,
      "dataset",
    );
    expect(d.request).toEqual({
      invalid:
        "dataset fundamentals/reported has no all-datapoints mode in the spec: ask for one datapoint at a time.",
    });
  });

  it("FDQ.SERIES: one request per year and which of them are cached", async () => {
    await env.client.datapoint({ ticker: "NFLX", dataset: "reported", name: "ACCOUNTS_PAYABLE", year: 2021 });
    const s = callOf(
      (await explain({ "Sheet1!A1": '=FDQ.SERIES("NFLX","reported","ACCOUNTS_PAYABLE",2020,2022)' })).e,
      "series",
    );
    const url = (year: number): string =>
      `${env.sandbox.baseUrl}/fundamentals/reported/NFLX?datapoint=ACCOUNTS_PAYABLE&year=${year}`;
    expect(s.years).toMatchObject([
      { period: "FY2020", url: url(2020), cached: false, units: 1 },
      { period: "FY2021", url: url(2021), cached: true, units: 1 },
      { period: "FY2022", url: url(2022), cached: false, units: 1 },
    ]);
    // Strict per-day caching: the cached year was fetched today; the others are not cached.
    expect(("invalid" in s.years ? [] : s.years).map((y) => y.serving.fetchedOn)).toEqual([
      undefined,
      today(),
      undefined,
    ]);
    expect(s.price).toEqual({
      requests: 3,
      units: 3,
      cachedRequests: 1,
      toSpend: 2,
      notCovered: 0,
      upTo: false,
    });
    expect(priceText(s.price!)).toBe(
      "3 units for 3 requests; 1 cached today: 2 units to spend on the next calculation.",
    );
    expect(s.facts).toMatchObject({
      ticker: "NFLX",
      datapointName: "ACCOUNTS_PAYABLE",
      description: "about ACCOUNTS_PAYABLE",
    });
  });

  it("FDQ.SERIES: an unbounded year range is refused with the function's reason", async () => {
    expect(
      onlyCall((await explain({ "Sheet1!A1": '=FDQ.SERIES("AAPL","roic","ROIC",1,2000000)' })).e),
    ).toEqual({
      kind: "unplanned",
      text: 'FDQ.SERIES("AAPL","roic","ROIC",1,2000000)',
      reason: "from_year..to_year spans 2000000 years; at most 50 are allowed.",
    });
  });

  it("RATING, SECTOR, COVERAGE, SECURITY and INFO: what each call asks the service for", async () => {
    const asks = async (formula: string): Promise<readonly string[]> =>
      callOf((await explain({ "Sheet1!A1": formula })).e, "endpoint").asks;
    expect(await asks('=FDQ.RATING("aapl","roic")')).toEqual(["The component ratings of AAPL."]);
    expect(await asks('=FDQ.SECTOR("TECHNOLOGYSEC","ROIC_AVG",2)')).toEqual([
      "Datapoint ROIC_AVG of sector or industry TECHNOLOGYSEC, for 2 fiscal years before the last.",
    ]);
    expect(await asks('=FDQ.COVERAGE("etf")')).toEqual(["The list of covered securities of type etf."]);
    expect(await asks('=FDQ.SECURITY("spy","name")')).toEqual([
      "The coverage record of SPY among stock securities.",
      "If it is not found there: among etf securities.",
      "If it is not found there: among mf securities.",
    ]);
    expect(await asks('=FDQ.INFO("ROIC","endpoints")')).toEqual([
      "The service's description and endpoints of datapoint ROIC.",
    ]);
    // Prices: 1 unit a call; FDQ.SECURITY without a type up to one per type it may try.
    const price = async (formula: string) =>
      priceText(callOf((await explain({ "Sheet1!A1": formula })).e, "endpoint").price);
    expect(await price('=FDQ.RATING("aapl","roic")')).toBe(
      "1 unit; not cached today: 1 unit to spend on the next calculation.",
    );
    expect(await price('=FDQ.SECURITY("spy","name")')).toBe(
      "up to 3 units for up to 3 requests; not cached today: up to 3 units to spend on the next calculation.",
    );
    await env.client.ratings("AAPL");
    expect(await price('=FDQ.RATING("aapl","roic")')).toBe("1 unit; cached today: 0 units to spend.");
    expect(onlyCall((await explain({ "Sheet1!A1": '=FDQ.RATING("AAPL","costz")' })).e)).toMatchObject({
      kind: "unplanned",
      reason: expect.stringMatching(/^field must be one of overall, /),
    });
    expect(onlyCall((await explain({ "Sheet1!A1": '=FDQ.COVERAGE("bonds")' })).e)).toMatchObject({
      kind: "unplanned",
    });
  });
});

describe("explain this cell: a ticker FDQ does not cover, known today", () => {
  it("DATAPOINT, DATASET and SERIES: the cell's message, and their requests not sent (0 units to spend)", async () => {
    // A first cell of ZZZZ asks the day's coverage list, which does not list it.
    const uncovered = await env.client
      .datapoint({ ticker: "ZZZZ", dataset: "roic", name: "ROIC", year: 2022 })
      .then(
        () => "",
        (err: Error) => err.message,
      );
    expect(uncovered).toMatch(/^FDQ does not cover the ticker "ZZZZ"/);
    const cells = {
      "Sheet1!A1": '=FDQ.DATAPOINT("ZZZZ","roic","ROIC",2021)',
      "Sheet1!A2": '=FDQ.DATASET("ZZZZ","roic",2021)',
      "Sheet1!A3": '=FDQ.SERIES("ZZZZ","roic","ROIC",2019,2020)',
    };
    const notSent = { cached: false, notCovered: true };
    const failing = { kind: "error", message: uncovered };
    const datapoint = callOf((await explain(cells, "Sheet1!A1")).e, "datapoint");
    expect(datapoint).toMatchObject({ request: { ...notSent, units: 1 }, source: failing });
    const dataset = callOf((await explain(cells, "Sheet1!A2")).e, "dataset");
    expect(dataset).toMatchObject({ request: notSent, source: failing });
    for (const { request } of [datapoint, dataset]) {
      if (!("url" in request)) throw new Error(request.invalid);
      expect(priceOf([request], false)).toMatchObject({ toSpend: 0, notCovered: 1 });
      if (request === datapoint.request)
        expect(priceText(priceOf([request], false))).toBe(
          "1 unit; not sent today, FDQ does not cover the ticker: 0 units to spend.",
        );
    }
    const series = callOf((await explain(cells, "Sheet1!A3")).e, "series");
    expect(series.price).toMatchObject({ requests: 2, units: 2, toSpend: 0, notCovered: 2 });
    expect(priceText(series.price!)).toBe(
      "2 units for 2 requests; not sent today, FDQ does not cover the ticker: 0 units to spend.",
    );
  });
});

describe("explain this cell: a call Excel lifts over a range", () => {
  it("shows N calls (rows x columns), their total price and the first calls' URLs", async () => {
    const { e } = await explain(
      {
        "Sheet1!A2": "AAPL",
        "Sheet1!A3": "MSFT",
        "Sheet1!A4": "NFLX",
        "Sheet1!A5": "AAPL",
        "Sheet1!B1": 2022,
        "Sheet1!B2": '=FDQ.DATAPOINT($A2:$A5,"metrics/roic","ROIC",B$1)',
      },
      "Sheet1!B2",
    );
    const lifted = callOf(e, "lifted");
    // AAPL twice: the client sends that request once, so 3 requests for 4 calls, after the day's stock coverage
    // list, which decides them (not in today's cache): up to.
    expect(lifted).toMatchObject({
      text: 'FDQ.DATAPOINT($A2:$A5,"metrics/roic","ROIC",B$1)',
      functionName: "FDQ.DATAPOINT",
      rows: 4,
      columns: 1,
      summary: "4 calls (4 rows x 1 column)",
      price: { requests: 1 + 3, units: 1 + 3, cachedRequests: 0, toSpend: 1 + 3, upTo: true },
      noRequest: { cells: 0 },
    });
    expect(lifted.shown.map((s) => s.address)).toEqual(["Sheet1!B2", "Sheet1!B3", "Sheet1!B4"]);
    const url = (ticker: string): string =>
      `${env.sandbox.baseUrl}/metrics/roic/${ticker}?datapoint=ROIC&year=2022`;
    expect(lifted.shown.map((s) => s.call)).toEqual(
      ["AAPL", "MSFT", "NFLX"].map((ticker, i) =>
        expect.objectContaining({
          kind: "datapoint",
          text: `FDQ.DATAPOINT("${ticker}","metrics/roic","ROIC",2022)`,
          inputs: [
            { name: "ticker", value: ticker, from: `Sheet1!A${i + 2}` },
            { name: "dataset", value: "metrics/roic" },
            { name: "name", value: "ROIC" },
            { name: "year", value: 2022, from: "Sheet1!B1" },
          ],
          request: { url: url(ticker), cached: false, units: 1 },
        }),
      ),
    );
  });

  it("counts the cells that show an error without a request, with the first reason", async () => {
    const { e } = await explain(
      {
        "Sheet1!A1": "AAPL",
        "Sheet1!A2": "#N/A",
        "Sheet1!B1": 2022,
        "Sheet1!B2": 2023,
        "Sheet1!B3": 2024,
        "Sheet1!D1": '=FDQ.RATING(A1:A2,"roic")+0*FDQ.DATAPOINT("AAPL","roic","ROIC",B1:B3)',
      },
      "Sheet1!D1",
    );
    if (e.kind !== "fdq") throw new Error("expected an FDQ explanation");
    const [rating, datapoint] = e.calls;
    expect(rating).toMatchObject({
      kind: "lifted",
      summary: "2 calls (2 rows x 1 column)",
      price: { requests: 1, units: 1 },
      noRequest: {
        cells: 1,
        first:
          "Sheet1!D2: ticker refers to Sheet1!A2, which shows #N/A: Excel passes that error on without running FDQ.RATING.",
      },
    });
    expect(datapoint).toMatchObject({
      kind: "lifted",
      summary: "3 calls (3 rows x 1 column)",
      // The day's stock coverage list, then a request per year.
      price: { requests: 1 + 3, units: 1 + 3, toSpend: 1 + 3 },
      noRequest: { cells: 0 },
    });
  });
});

describe("explain this cell: relative periods", () => {
  // The sandbox runs on the real clock: a December year-end company's latest fiscal year is last year.
  const lastYear = new Date().getUTCFullYear() - 1;

  it("says what FY0 counts from before it is resolved, and what it resolved to, on which day, once calculated", async () => {
    const formula = '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")';
    const before = callOf((await explain({ "Sheet1!B2": formula })).e, "datapoint");
    expect(before.period).toBe("FY0");
    expect(before.periodDetail).toBe(
      "A relative period: the latest fiscal year with an annual value, found from the service's answers each refresh day, so the model rolls forward by itself.",
    );
    expect(before.source).toEqual({ kind: "not-cached" });
    const workbook = fakeWorkbook(env.client, { "Sheet1!B2": formula });
    await workbook.calculateFull();
    await workbook.settled();
    const after = callOf(
      await explainCell(await workbook.selectedCell(), { client: env.client, workbook, describe: describe_ }),
      "datapoint",
    );
    expect(after.period).toBe(`FY0 = fiscal ${lastYear} for AAPL, resolved on refresh day ${today()}`);
    expect(after.request).toEqual({
      url: `${env.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=${lastYear}`,
      cached: true,
      units: 1,
    });
    expect(after.source).toMatchObject({
      kind: "cache",
      refreshDay: today(),
      record: { year: lastYear, period: 5, filingtype: "10-K" },
      resolved: { text: "FY0", year: lastYear, resolvedOn: today() },
    });
  });
});
