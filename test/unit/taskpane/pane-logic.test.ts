import { DEFAULTS, FdqClient, RefreshDayClock } from "../../../src/api";
import { findDatapoint, findDataset } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { findErrorCells } from "../../../src/taskpane/logic/error-cells";
import { explainCell } from "../../../src/taskpane/logic/explain";
import { estimateRefresh } from "../../../src/taskpane/logic/refresh-estimate";
import { runRefresh, type RefreshProgress } from "../../../src/taskpane/logic/refresh-run";
import { fakeWorkbook } from "./workbook-fake";

let sandbox: RunningSandbox;
let client: FdqClient;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  client = new FdqClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey });
});
afterEach(async () => {
  await client.close();
});

const today = (): string => new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
const describe_ = (name: string): string => `about ${name}`;

const MODEL = {
  "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
  "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
  "Sheet1!A3": '=FDQ.DATAPOINT("MSFT","fundamentals/adjusted","ACCOUNTS_PAYABLE",2022)',
  "Sheet1!A4": '=FDQ.SERIES("NFLX","fundamentals/reported","ACCOUNTS_PAYABLE",2020,2022)',
  "Sheet1!A5": '=FDQ.RATING("AAPL")',
  "Sheet1!A6": "=FDQ.DATAPOINT(A1)",
};

describe("refresh estimate", () => {
  it("counts FDQ cells, distinct requests (one per all-datapoints dataset request) and cached cells", async () => {
    const workbook = fakeWorkbook(client, MODEL);
    await client.ready(); // planning needs the client's saved cache loaded
    const cold = estimateRefresh(await workbook.fdqCells(), client);
    // roic has an all-datapoints mode: ROIC and NOPAT of AAPL 2022 are one request; SERIES asks 3 years.
    expect(cold).toEqual({
      cells: 6,
      plannedRequests: 5,
      requestsNeeded: 5,
      cachedCells: 0,
      otherCells: 1,
      invalidCells: 1,
    });
    await client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 });
    const warm = estimateRefresh(await workbook.fdqCells(), client);
    expect(warm).toMatchObject({ requestsNeeded: 4, cachedCells: 2 });
  });
});

describe("refresh run", () => {
  it("drops the day's cache, recalculates fully, reports n of m requests and sums up", async () => {
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)',
    });
    await workbook.calculateFull();
    await workbook.settled();
    const before = sandbox.stats().requests;
    const progress: RefreshProgress[] = [];
    const summary = await runRefresh({
      workbook,
      client,
      onProgress: (p) => progress.push(p),
      pollMs: 5,
      quietMs: 50,
    });
    await workbook.settled();
    expect(sandbox.stats().requests - before).toBe(2);
    expect(workbook.calculations).toBe(2);
    expect(progress[0]).toEqual({ done: 0, total: 2, errors: 0 });
    expect(progress[progress.length - 1]).toEqual({ done: 2, total: 2, errors: 1 });
    expect(summary).toMatchObject({ cells: 3, requestsSent: 2, failedRequests: 1, errorCells: 1 });
  });
});

describe("explain this cell", () => {
  it("resolves dataset, datapoint, period, the cached day and the request URL without the key", async () => {
    const workbook = fakeWorkbook(client, { "Sheet1!B2": '=FDQ.DATAPOINT("aapl","ROIC","roic",2023,2)' });
    await workbook.calculateFull();
    await workbook.settled();
    const e = await explainCell(await workbook.selectedCell(), { client, describe: describe_ });
    if (e.kind !== "datapoint") throw new Error(`expected a datapoint explanation, got ${e.kind}`);
    expect(e.dataset?.path).toBe("metrics/roic");
    const roic = findDataset("metrics/roic");
    expect(e.datapoint).toBe(roic && findDatapoint(roic, "ROIC"));
    expect(e.description).toBe("about ROIC");
    expect(e.ticker).toBe("AAPL");
    expect(e.period).toBe("Q2 FY2023");
    expect(e.request).toEqual({
      url: `${sandbox.baseUrl}/metrics/roic/AAPL?year=2023&quarter=2`,
      cached: true,
    });
    expect(e.source).toMatchObject({
      kind: "cache",
      refreshDay: today(),
      value: workbook.cells.get("Sheet1!B2")?.value,
    });
    expect(JSON.stringify(e)).not.toContain(sandbox.demoKey);
  });

  it("says a cell that is not in the cache will be fetched, without sending a request", async () => {
    await client.ready();
    const before = sandbox.stats().requests;
    const e = await explainCell(
      {
        address: "Sheet1!C1",
        formula: '=FDQ.DATAPOINT("MSFT","adjusted","ACCOUNTS_PAYABLE",2022,,4)',
        value: 1,
      },
      { client, describe: describe_ },
    );
    expect(e).toMatchObject({
      kind: "datapoint",
      period: "TTM to Q4 FY2022",
      source: { kind: "not-cached" },
    });
    expect(sandbox.stats().requests).toBe(before);
  });

  it("names the problem of a formula the parser refuses, and of an invalid argument", async () => {
    await client.ready();
    expect(
      await explainCell(
        { address: "S!A1", formula: "=FDQ.DATAPOINT(A1)", value: "#VALUE!" },
        { client, describe: describe_ },
      ),
    ).toEqual({
      kind: "unparsed",
      address: "S!A1",
      formula: "=FDQ.DATAPOINT(A1)",
      message: "Cell references are not supported: A1; use a literal value (at character 16)",
    });
    const bad = await explainCell(
      { address: "S!A2", formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022,9)', value: "#VALUE!" },
      { client, describe: describe_ },
    );
    expect(bad).toMatchObject({ kind: "datapoint", source: { kind: "error" } });
    if (bad.kind === "datapoint" && "invalid" in bad.request) expect(bad.request.invalid).toMatch(/quarter/);
    else throw new Error("expected an invalid request");
  });
});

describe("cells in error", () => {
  it("lists error cells with the request module's reason, asking once per distinct request", async () => {
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)',
    });
    await workbook.calculateFull();
    await workbook.settled();
    const before = sandbox.stats().requests;
    const errors = await findErrorCells(await workbook.fdqCells(), client);
    expect(errors).toEqual([
      { address: "Sheet1!A2", error: "#N/A", reason: "The requested data was not found." },
      { address: "Sheet1!A3", error: "#N/A", reason: "The requested data was not found." },
    ]);
    // "Not found" answers are remembered for the refresh day: no new request.
    expect(sandbox.stats().requests).toBe(before);
  });
});
