// The monthly quota in the pane (wire-notes 11-12): the estimate's quota units against what a calculation
// really spends (a client on the fake service with MemoryStorage), the month's standing and projection, and
// when a refresh asks for confirmation.
import { DEFAULTS, MemoryStorage, type FdqClient } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { PanePrefs } from "../../../src/taskpane/logic/pane-prefs";
import {
  TRADING_DAYS_PER_MONTH,
  confirmText,
  neededText,
  parsePlanUnits,
  projectMonthly,
  projectionText,
  quotaStanding,
  readStanding,
  refreshNeedsConfirm,
} from "../../../src/taskpane/logic/quota";
import { estimateRefresh } from "../../../src/taskpane/logic/refresh-estimate";
import { FakeFetch, json, makeClient } from "../api/fake-fetch";
import { fakeWorkbook, type SeedCell } from "./workbook-fake";

const EBITDA = findDataset("reconciliation/revenue-to-ebitda")!;
const TRADITIONAL = findDataset("screens/traditional")!;

/** Every datapoint of revenue-to-ebitda for AAPL 2022 (one cell each), one ROIC and a whole dataset. */
function model(): Record<string, SeedCell> {
  const cells: Record<string, SeedCell> = {};
  EBITDA.datapoints.forEach((d, i) => {
    cells[`Sheet1!A${i + 1}`] = `=FDQ.DATAPOINT("AAPL","${EBITDA.path}","${d.name}",2022)`;
  });
  cells["Sheet1!B1"] = '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)';
  cells["Sheet1!B2"] = `=FDQ.DATASET("MSFT","${TRADITIONAL.path}",2022)`;
  return cells;
}

const clients: FdqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setUp(billing: "per-datapoint" | "per-request", fake = new FakeFetch()) {
  const storage = new MemoryStorage();
  // The product's coverage rule: the day's stock coverage list is asked before the first data request.
  const client = makeClient(fake, { billing, storage, coverageCheck: "list" });
  clients.push(client);
  await client.ready();
  const workbook = fakeWorkbook(client, model());
  const estimate = async () => estimateRefresh(await workbook.fdqCells(), { client, workbook });
  return { fake, storage, client, workbook, estimate, prefs: new PanePrefs(storage) };
}

describe("estimate units", () => {
  it("prices requests per datapoint x security x period, and a calculation spends what the estimate said", async () => {
    const { fake, client, workbook, estimate } = await setUp("per-datapoint");
    const cold = await estimate();
    // The cells ask every datapoint of revenue-to-ebitda: one whole request, priced at its catalog size (the
    // same units as one request per datapoint). ROIC alone: 1 unit. FDQ.DATASET: the whole dataset. Before
    // them, the day's stock coverage list: 1 unit.
    const data = EBITDA.datapoints.length + 1 + TRADITIONAL.datapoints.length;
    const units = 1 + data;
    expect(cold).toEqual({
      cells: EBITDA.datapoints.length + 2,
      plannedRequests: 3,
      requestsNeeded: 1 + 3,
      coverageLists: 1,
      cachedCells: 0,
      otherRequests: 0,
      units,
      otherUnits: 0,
      refreshRequests: 1 + 3,
      refreshUnits: units,
      savableUnits: data,
      // The list, asked first, decides whether each ticker's requests are sent: the figures are upper bounds,
      // reached when it lists every ticker (it does here).
      upperBound: true,
      unplanned: [],
      ifListed: {
        requests: 3,
        units: data,
        byTicker: {
          AAPL: { requests: 1, units: EBITDA.datapoints.length },
          MSFT: { requests: 2, units: 1 + TRADITIONAL.datapoints.length },
        },
      },
    });
    expect(neededText(cold)).toBe(
      `Up to 4 requests needed (at most ${units} units, with the day's ticker coverage list: asked first, it spares the requests of a ticker it does not list)`,
    );

    await workbook.calculateFull();
    await workbook.settled();
    expect(fake.count).toBe(1 + 3);
    // The client's ledger counted the answers' records: exactly the estimate.
    expect(client.stats().unitsSpent).toBe(units);
    expect((await client.usage()).units).toBe(units);

    // Now cached: nothing to spend until the cache is dropped; a refresh spends it all again, the list too,
    // which lists both tickers again: exact.
    const cached = await estimate();
    expect(cached).toMatchObject({
      requestsNeeded: 0,
      coverageLists: 0,
      cachedCells: EBITDA.datapoints.length + 2,
      units: 0,
      refreshUnits: units,
      upperBound: false,
    });
    expect(cached.ifListed).toBeUndefined();
    expect(neededText(cached)).toBe("0 requests needed (0 units)");
  });

  it("prices every request 1 unit for an account billed per request", async () => {
    const { fake, client, workbook, estimate } = await setUp("per-request");
    // Whole datasets for datapoint cells too (the fast plan): revenue-to-ebitda, roic and traditional; and
    // the day's coverage list.
    expect(await estimate()).toMatchObject({ plannedRequests: 3, units: 1 + 3, refreshUnits: 1 + 3 });
    await workbook.calculateFull();
    await workbook.settled();
    expect(fake.count).toBe(1 + 3);
    expect((await client.usage()).units).toBe(1 + 3);
  });
});

describe("the requests needed, in the pane's words", () => {
  const needed = { requestsNeeded: 5, units: 5 };
  it("without the day's coverage list among them: the requests and their units", () => {
    expect(neededText({ ...needed, coverageLists: 0 })).toBe("5 requests needed (5 units)");
  });

  it("with the list, every ticker's coverage known today: exact", () => {
    expect(neededText({ ...needed, coverageLists: 1 })).toBe(
      "5 requests needed (5 units, with the day's ticker coverage list)",
    );
  });

  it("with the list deciding some tickers' requests: an upper bound, and why", () => {
    const ifListed = { requests: 4, units: 4, byTicker: { AAPL: { requests: 4, units: 4 } } };
    expect(neededText({ ...needed, coverageLists: 1, ifListed })).toBe(
      "Up to 5 requests needed (at most 5 units, with the day's ticker coverage list: asked first, it spares the requests of a ticker it does not list)",
    );
  });
});

describe("the month's standing", () => {
  it("reads the ledger's units and the pane's plan size, and what is left", async () => {
    const { client, workbook, prefs, estimate } = await setUp("per-datapoint");
    expect(await prefs.planUnits()).toBe(DEFAULTS.planUnits);
    await workbook.calculateFull();
    await workbook.settled();
    const spent = (await estimate()).refreshUnits;

    const standing = await readStanding(client, prefs);
    expect(standing).toMatchObject({ used: spent, plan: 10_000, left: 10_000 - spent, exhausted: false });
    expect(standing.resetsOn).toMatch(/^\d{4}-\d{2}-01$/);
    expect(refreshNeedsConfirm(spent, standing)).toBe(false);

    // A plan smaller than the month's use plus a refresh: the refresh asks first.
    await prefs.setPlanUnits(spent + 5);
    const small = await readStanding(client, prefs);
    expect(small).toMatchObject({ plan: spent + 5, left: 5 });
    expect(refreshNeedsConfirm(spent, small)).toBe(true);
    expect(confirmText(spent, false, small)).toBe(
      `This refresh drops today's cache and sends every request again: ${spent} units, more than the 5 units ` +
        `left of your ${spent + 5}-unit monthly plan (${spent} used this month). Once the quota is spent the ` +
        `service answers "Limit Exceeded" and cells fail until it resets on ${small.resetsOn} (US Central).`,
    );
  });

  it("has nothing left once the service said Limit Exceeded, until the user says the plan was raised", async () => {
    const fake = new FakeFetch((url) =>
      url.pathname.includes("/MSFT") ? json(429, { message: "Limit Exceeded" }) : "default",
    );
    const { client, workbook, prefs } = await setUp("per-datapoint", fake);
    await workbook.calculateFull();
    await workbook.settled();
    const standing = await readStanding(client, prefs);
    // Requests still queued when the 429 came were refused unsent: whatever was counted, nothing is left.
    expect(standing).toMatchObject({ exhausted: true, left: 0, plan: 10_000 });
    expect(refreshNeedsConfirm(1, standing)).toBe(true);
    expect(confirmText(1, false, standing)).toContain(
      `the service already answered "Limit Exceeded" this month. No request is sent until the quota resets on ${standing.resetsOn}`,
    );
    await client.planRaised();
    expect(await readStanding(client, prefs)).toMatchObject({
      exhausted: false,
      left: 10_000 - standing.used,
    });
  });

  it("keeps the plan size in the pane's preferences: whole units, at least 1", async () => {
    const storage = new MemoryStorage();
    const prefs = new PanePrefs(storage);
    await prefs.setPlanUnits(2_500);
    expect(await new PanePrefs(storage).planUnits()).toBe(2_500);
    await storage.set("fdq.pane.planUnits", "-3");
    expect(await prefs.planUnits()).toBe(10_000);
    expect(() => prefs.setPlanUnits(0)).toThrow(RangeError);
    expect(parsePlanUnits(" 10,000 ")).toBe(10_000);
    expect(parsePlanUnits("250")).toBe(250);
    for (const bad of ["", "0", "1.5", "-2", "ten", "1e4"]) expect(parsePlanUnits(bad)).toBeUndefined();
  });
});

describe("refresh confirmation threshold", () => {
  const standing = (used: number, plan: number, exhausted = false) =>
    quotaStanding(
      { month: "2026-11", units: used, byDay: {}, byDataset: {}, exhausted, resetsOn: "2026-12-01" },
      plan,
    );

  it("asks only when the refresh may spend more units than are left of the plan", () => {
    expect(standing(9_990, 10_000).left).toBe(10);
    expect(refreshNeedsConfirm(10, standing(9_990, 10_000))).toBe(false);
    expect(refreshNeedsConfirm(11, standing(9_990, 10_000))).toBe(true);
    // Over the plan already (the service serves a request that arrives with units left): nothing is left.
    expect(standing(10_020, 10_000).left).toBe(0);
    expect(refreshNeedsConfirm(1, standing(10_020, 10_000))).toBe(true);
    // Nothing to spend never asks; "Limit Exceeded" leaves nothing whatever the plan says.
    expect(refreshNeedsConfirm(0, standing(10_020, 10_000))).toBe(false);
    expect(standing(5, 10_000, true).left).toBe(0);
  });
});

describe("monthly projection", () => {
  it("multiplies one refresh by 21 trading days and compares it with what is left and with the plan", () => {
    expect(TRADING_DAYS_PER_MONTH).toBe(21);
    const within = projectMonthly(100, { left: 5_000, plan: 10_000 });
    expect(within).toEqual({
      perRefresh: 100,
      tradingDays: 21,
      monthly: 2_100,
      left: 5_000,
      plan: 10_000,
      fitsLeft: true,
      fitsPlan: true,
    });
    expect(projectionText(within)).toBe(
      "At one refresh per trading day (assumed 21 a month), this workbook uses about 2,100 units a month " +
        "(100 x 21): within the 5,000 units left of the 10,000-unit plan.",
    );
    expect(projectionText(projectMonthly(400, { left: 5_000, plan: 10_000 }))).toBe(
      "At one refresh per trading day (assumed 21 a month), this workbook uses about 8,400 units a month " +
        "(400 x 21): more than the 5,000 units left this month, within a whole month's plan of 10,000 units.",
    );
    expect(projectionText(projectMonthly(500, { left: 10_000, plan: 10_000 }))).toBe(
      "At one refresh per trading day (assumed 21 a month), this workbook uses about 10,500 units a month " +
        "(500 x 21): more than the whole monthly plan of 10,000 units.",
    );
  });
});
