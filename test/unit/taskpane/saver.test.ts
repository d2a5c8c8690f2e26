// The quota saver in the pane: which requests it keeps (the request module's rule), the month it would bring
// a workbook to, when the pane proposes it, how Explain words the policy that served a cell, and that the
// pane's settings access saves it and applies it to the shared client at once.
import {
  DEFAULTS,
  MemoryStorage,
  RefreshDayClock,
  RequestKey,
  SETTINGS_KEY,
  type FdqClient,
} from "../../../src/api";
import { resetSharedClient } from "../../../src/host/shared-client";
import { ANNUAL, findDataset } from "../../../src/catalog";
import { sharedApiAccess } from "../../../src/taskpane/api-access";
import { explainCell } from "../../../src/taskpane/logic/explain";
import type { CallExplanation } from "../../../src/taskpane/logic/explanation";
import { estimateRefresh } from "../../../src/taskpane/logic/refresh-estimate";
import {
  fetchesPerMonth,
  keepDaysOf,
  monthlyWithSaver,
  parseKeepDays,
  proposalText,
  savable,
  saverProposal,
  saverRuleText,
  saverVerdict,
  servingText,
  withSaverText,
} from "../../../src/taskpane/logic/saver";
import { FakeFetch, makeClient } from "../api/fake-fetch";
import { fakeWorkbook } from "./workbook-fake";

const ROIC = findDataset("metrics/roic")!;
const EBV = findDataset("metrics/ebv")!;
const ADJUSTED = findDataset("fundamentals/adjusted")!;
const TODAY = "2026-03-11";

const clients: FdqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("which requests the saver keeps", () => {
  it("keeps datapoint values of closed fiscal years (Y closed from 1 January of Y+2) without (SP) datapoints", () => {
    const roic = (year: number) => RequestKey.data(ROIC, "AAPL", year, ANNUAL, "ROIC");
    expect(saverVerdict(roic(2024), TODAY)).toBe("kept");
    expect(saverVerdict(roic(2025), TODAY)).toBe("open-period");
    expect(saverVerdict(roic(2026), TODAY)).toBe("open-period");
    // The boundary: 2024 is open through 31 December 2025 and closed from 1 January 2026.
    expect(savable(roic(2024), "2025-12-31")).toBe(false);
    expect(savable(roic(2024), "2026-01-01")).toBe(true);
    // (SP) datapoints move with the share price: fetched every refresh day, and so is a whole dataset
    // holding one.
    expect(saverVerdict(RequestKey.data(EBV, "AAPL", 2022, ANNUAL, "WACC"), TODAY)).toBe("sp");
    expect(saverVerdict(RequestKey.data(EBV, "AAPL", 2022, ANNUAL, "NOPAT"), TODAY)).toBe("kept");
    expect(saverVerdict(RequestKey.data(EBV, "AAPL", 2022, ANNUAL), TODAY)).toBe("sp");
    expect(saverVerdict(RequestKey.data(ROIC, "AAPL", 2022, ANNUAL), TODAY)).toBe("kept");
    // Other endpoints are not datapoint values.
    expect(saverVerdict(RequestKey.ratings("AAPL"), TODAY)).toBe("not-data");
  });
});

describe("the month with the saver", () => {
  it("fetches a kept value once per keep days of the month's 30 calendar days: 5 times at the default", () => {
    // keepDays are calendar days; 21 trading days span about 30 of them.
    expect(fetchesPerMonth(7)).toBe(5);
    expect(fetchesPerMonth(1)).toBe(21);
    expect(fetchesPerMonth(5)).toBe(6);
    expect(fetchesPerMonth(31)).toBe(1);
    // 80 kept units 5 times, the 20 others 21 times.
    expect(monthlyWithSaver(100, 80, 7)).toBe(80 * 5 + 20 * 21);
    expect(monthlyWithSaver(100, 0, 7)).toBe(2_100);
    expect(withSaverText(820, 7)).toBe(
      "With the quota saver on (closed periods kept up to 7 days), about 820 units a month.",
    );
  });

  it("estimates the savable units of a workbook: closed periods of datapoints not flagged (SP)", async () => {
    const client = makeClient(new FakeFetch(), { billing: "per-datapoint", storage: new MemoryStorage() });
    clients.push(client);
    await client.ready();
    const cells = {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2025)',
      "Sheet1!A3": '=FDQ.DATAPOINT("AAPL","metrics/ebv","WACC",2022)',
      "Sheet1!A4": '=FDQ.DATASET("MSFT","metrics/roic",2023)',
      "Sheet1!A5": '=FDQ.SERIES("MSFT","fundamentals/adjusted","ACCOUNTS_PAYABLE",2023,2025)',
      "Sheet1!A6": '=FDQ.RATING("AAPL")',
    };
    const workbook = fakeWorkbook(client, cells);
    const e = await estimateRefresh(await workbook.fdqCells(), { client, workbook, today: TODAY });
    // Kept: ROIC 2022, the whole roic dataset of 2023, and ACCOUNTS_PAYABLE 2023 and 2024. Fetched every day:
    // ROIC 2025 (open), WACC (SP), ACCOUNTS_PAYABLE 2025 (open) and the rating.
    expect(ADJUSTED.datapoints.find((d) => d.name === "ACCOUNTS_PAYABLE")?.sp).toBeUndefined();
    expect(e.refreshUnits).toBe(1 + 1 + 1 + ROIC.datapoints.length + 3 + 1);
    expect(e.savableUnits).toBe(1 + ROIC.datapoints.length + 2);
    // From 1 January 2027, 2025 is closed too: ROIC 2025 and ACCOUNTS_PAYABLE 2025 are kept as well.
    const later = await estimateRefresh(await workbook.fdqCells(), { client, workbook, today: "2027-01-04" });
    expect(later.savableUnits).toBe(1 + 1 + ROIC.datapoints.length + 3);
  });
});

describe("the pane proposes the saver", () => {
  const strict = { kind: "strict" } as const;

  it("when the projected month exceeds the plan, the saver is off and it would lower the month", () => {
    // 500 units a refresh, 400 of them kept: 10,500 a month strict, 400 x 5 + 100 x 21 = 4,100 with the saver.
    const p = saverProposal({ perRefresh: 500, savableUnits: 400, plan: 10_000, policy: strict });
    expect(p).toEqual({ monthly: 10_500, plan: 10_000, withSaver: 4_100, keepDays: 7 });
    expect(proposalText(p!)).toBe(
      "At one refresh per trading day this workbook needs about 10,500 units a month, more than your " +
        "10,000-unit plan. The quota saver keeps closed periods' values for up to 7 days and would bring it " +
        "to about 4,100.",
    );
    // No saved policy reads as strict.
    expect(saverProposal({ perRefresh: 500, savableUnits: 400, plan: 10_000, policy: undefined })).toEqual(p);
  });

  it("not when the month fits the plan (exactly the plan fits), the saver is on or it would save nothing", () => {
    // 21 x 476 = 9,996 and 21 x 477 = 10,017.
    expect(
      saverProposal({ perRefresh: 476, savableUnits: 400, plan: 10_000, policy: strict }),
    ).toBeUndefined();
    expect(saverProposal({ perRefresh: 477, savableUnits: 400, plan: 10_000, policy: strict })).toBeDefined();
    expect(saverProposal({ perRefresh: 10, savableUnits: 5, plan: 210, policy: strict })).toBeUndefined();
    expect(saverProposal({ perRefresh: 11, savableUnits: 5, plan: 210, policy: strict })).toBeDefined();
    expect(
      saverProposal({ perRefresh: 500, savableUnits: 400, plan: 10_000, policy: { kind: "saver" } }),
    ).toBeUndefined();
    // Open periods and (SP) datapoints only: the saver keeps nothing, so nothing is proposed.
    expect(saverProposal({ perRefresh: 500, savableUnits: 0, plan: 10_000, policy: strict })).toBeUndefined();
  });
});

describe("settings text", () => {
  it("reads keep days from 1 to 31 and the saver's keep days from the policy", () => {
    expect(parseKeepDays(" 14 ")).toBe(14);
    for (const bad of ["0", "32", "1.5", "", "x", "-3"]) expect(parseKeepDays(bad)).toBeUndefined();
    expect(keepDaysOf({ kind: "saver" })).toBe(7);
    expect(keepDaysOf({ kind: "saver", keepDays: 3 })).toBe(3);
    expect(keepDaysOf({ kind: "strict" })).toBeUndefined();
    expect(keepDaysOf(undefined)).toBeUndefined();
    expect(saverRuleText(7)).toBe(
      "The quota saver keeps the values of closed periods (fiscal year Y is closed from 1 January of Y+2) of " +
        "datapoints not flagged (SP) for up to 7 days; (SP) datapoints, open periods and the other functions " +
        "are fetched every refresh day.",
    );
  });
});

describe("Explain: which policy served a cell and the day it was fetched", () => {
  it("words each case", () => {
    const base = { today: "2024-03-11", keepDays: 7 } as const;
    expect(servingText({ ...base, policy: "saver", fetchedOn: "2024-03-04", verdict: "kept" })).toBe(
      "Served by the quota saver from the answer fetched on 2024-03-04 (kept up to 7 days).",
    );
    expect(servingText({ ...base, policy: "strict", fetchedOn: "2024-03-11", verdict: "kept" })).toBe(
      "Fetched today (2024-03-11) under strict per-day caching.",
    );
    expect(servingText({ ...base, policy: "saver", fetchedOn: "2024-03-11", verdict: "kept" })).toBe(
      "Fetched today (2024-03-11); the quota saver keeps this closed period's value up to 7 days.",
    );
    expect(servingText({ ...base, policy: "saver", fetchedOn: "2024-03-11", verdict: "sp" })).toBe(
      "Fetched today (2024-03-11); the quota saver fetches it again every refresh day ((SP): it moves with the share price).",
    );
    expect(servingText({ ...base, policy: "saver", fetchedOn: undefined, verdict: "open-period" })).toBe(
      "Quota saver: fetched every refresh day (an open period).",
    );
    expect(servingText({ ...base, policy: "saver", fetchedOn: undefined, verdict: "kept" })).toBe(
      "Quota saver: once fetched, this closed period's value is kept up to 7 days.",
    );
    expect(servingText({ ...base, policy: "strict", fetchedOn: undefined, verdict: "kept" })).toBe(
      "Strict per-day caching: once fetched, kept for this refresh day only.",
    );
  });

  it("serves a closed period fetched 3 days ago from the saver's cache, and fetches an open one again", async () => {
    const clock = new RefreshDayClock(DEFAULTS.refreshDay);
    const storage = new MemoryStorage();
    const fake = new FakeFetch();
    const earlier = Date.now() - 3 * 86_400_000;
    const closed = Number(clock.label(Date.now()).slice(0, 4)) - 2;
    const cells = {
      "Sheet1!A1": `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${closed})`,
      "Sheet1!A2": `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${closed + 1})`,
      "Sheet1!A3": `=FDQ.DATAPOINT("AAPL","metrics/ebv","WACC",${closed})`,
    };
    // Three days ago, under strict caching: every cell fetched.
    const before = makeClient(fake, { billing: "per-datapoint", storage, now: () => earlier });
    const old = fakeWorkbook(before, cells);
    await old.calculateFull();
    await old.settled();
    await before.close();
    expect(fake.count).toBe(3);

    // Today, with the saver on: the closed ROIC is served from the cache, the rest is not cached.
    const client = makeClient(fake, { billing: "per-datapoint", storage, refreshPolicy: { kind: "saver" } });
    clients.push(client);
    await client.ready();
    const today = clock.label(Date.now());
    const workbook = fakeWorkbook(client, cells);
    const served = async (address: string): Promise<CallExplanation> => {
      workbook.selected = address;
      const e = await explainCell(await workbook.selectedCell(), {
        client,
        workbook,
        describe: () => "",
        today,
        keepDays: 7,
      });
      if (e.kind !== "fdq") throw new Error(`no FDQ call in ${address}`);
      return e.calls[0]!;
    };
    const a1 = await served("Sheet1!A1");
    expect(a1).toMatchObject({
      kind: "datapoint",
      request: { cached: true },
      serving: { policy: "saver", fetchedOn: clock.label(earlier), today, verdict: "kept" },
      source: { kind: "cache" },
    });
    expect(servingText((a1 as { serving: Parameters<typeof servingText>[0] }).serving)).toBe(
      `Served by the quota saver from the answer fetched on ${clock.label(earlier)} (kept up to 7 days).`,
    );
    expect(await served("Sheet1!A2")).toMatchObject({
      request: { cached: false },
      serving: { policy: "saver", fetchedOn: undefined, verdict: "open-period" },
    });
    expect(await served("Sheet1!A3")).toMatchObject({
      request: { cached: false },
      serving: { policy: "saver", fetchedOn: undefined, verdict: "sp" },
    });
    // Explain sent nothing.
    expect(fake.count).toBe(3);
  });
});

describe("the pane's settings access", () => {
  afterEach(async () => {
    await resetSharedClient();
  });

  it("saves billing and the saver beside the connection settings and applies them to the shared client at once", async () => {
    const store = new MemoryStorage();
    const api = await sharedApiAccess(store);
    expect(await api.loadQuotaSettings()).toEqual({
      billing: "per-datapoint",
      refreshPolicy: { kind: "strict" },
    });
    await api.saveSettings({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "key-1" });
    const request = {
      kind: "datapoint",
      request: { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 },
    };
    const strictClient = await api.readyClient();
    expect(strictClient!.plan(request as never)).toMatchObject({ policy: "strict", units: 1 });

    expect(await api.saveQuotaSettings({ refreshPolicy: { kind: "saver", keepDays: 5 } })).toEqual({
      billing: "per-datapoint",
      refreshPolicy: { kind: "saver", keepDays: 5 },
    });
    const saverClient = await api.readyClient();
    expect(saverClient).not.toBe(strictClient);
    expect(saverClient!.plan(request as never)).toMatchObject({ policy: "saver" });

    await api.saveQuotaSettings({ billing: "per-request" });
    // Per request, a datapoint of a dataset with an all-datapoints mode asks the whole dataset, for 1 unit.
    expect((await api.readyClient())!.plan(request as never)).toMatchObject({
      policy: "saver",
      units: 1,
      url: "http://127.0.0.1:4010/v1/metrics/roic/AAPL?year=2022",
    });
    // Saved with the connection settings, which a connection save keeps.
    await api.saveSettings({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "key-2" });
    expect(JSON.parse((await store.get(SETTINGS_KEY))!)).toEqual({
      baseUrl: "http://127.0.0.1:4010/v1",
      apiKey: "key-2",
      billing: "per-request",
      refreshPolicy: { kind: "saver", keepDays: 5 },
    });
  });

  it("saves them without a key too, and configures no client until a key is saved", async () => {
    const store = new MemoryStorage();
    const api = await sharedApiAccess(store);
    await api.saveQuotaSettings({ billing: "per-request" });
    expect(api.client()).toBeUndefined();
    expect(await api.loadQuotaSettings()).toEqual({
      billing: "per-request",
      refreshPolicy: { kind: "strict" },
    });
  });
});
