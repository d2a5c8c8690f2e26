// The runtime's one refresh: the new-day check (per workbook, from the document's settings), the ribbon and
// the pane's button all go through it, record the day, and never calculate twice at once.
import { DEFAULTS, FdqClient, MemoryStorage, RefreshDayClock, type KeyValueStore } from "../../../src/api";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { PanePrefs } from "../../../src/taskpane/logic/pane-prefs";
import { FakeFetch, makeClient } from "../../unit/api/fake-fetch";
import { RefreshService, type RefreshState } from "../../../src/taskpane/logic/refresh-service";
import type { DocumentSettings } from "../../../src/taskpane/office/document-settings";
import { fakeWorkbook, type FakeWorkbook } from "../../unit/taskpane/workbook-fake";

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
const EARLIER_DAY = "2020-01-02";

const MODEL = {
  "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
  "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
  "Sheet1!A3": '=FDQ.DATAPOINT("MSFT","fundamentals/adjusted","ACCOUNTS_PAYABLE",2022)',
};

function memoryDocument(day: string | undefined): DocumentSettings & { day: string | undefined } {
  const doc = {
    day,
    calculatedDay: async () => doc.day,
    saveCalculatedDay: async (d: string) => void (doc.day = d),
  };
  return doc;
}

/** One workbook's runtime: its own document settings, the domain's shared pane storage. */
function runtime(options: {
  cells?: Record<string, string>;
  documentDay?: string;
  storage?: KeyValueStore;
  connected?: boolean;
}) {
  const workbook: FakeWorkbook = fakeWorkbook(client, options.cells ?? MODEL);
  const document = memoryDocument(options.documentDay);
  const storage = options.storage ?? new MemoryStorage();
  const prefs = new PanePrefs(storage);
  const connected = options.connected ?? true;
  const service = new RefreshService({
    workbook,
    api: { readyClient: async () => (connected ? client : undefined), refreshDay: today },
    prefs,
    document,
    timing: { pollMs: 5, quietMs: 50 },
  });
  const phases: RefreshState["phase"][] = [];
  service.subscribe(() => phases.push(service.state().phase));
  return { workbook, document, prefs, service, phases };
}

describe("new-day refresh through the pane's refresh run", () => {
  it("refreshes a second workbook whose document says an earlier day although the domain refreshed today", async () => {
    const storage = new MemoryStorage();
    const earlierAt = Date.now() - 60_000;
    await new PanePrefs(storage).setLastRefresh({ day: today(), at: earlierAt });
    const { workbook, document, prefs, service, phases } = runtime({ documentDay: EARLIER_DAY, storage });
    const before = sandbox.stats().requests;

    expect(await service.checkNewDay()).toBe("refreshed");
    await workbook.settled();
    expect(workbook.calculations).toBe(1);
    // Billed per datapoint: ROIC and NOPAT of AAPL 2022 are one request each (not every name of roic), after
    // the day's stock coverage list.
    expect(sandbox.stats().requests - before).toBe(1 + 3);
    const state = service.state();
    expect(state).toMatchObject({
      phase: "done",
      reason: `new refresh day ${today()}`,
      summary: { cells: 3, requestsSent: 1 + 3, failedRequests: 0, errorCells: 0 },
    });
    expect(phases[0]).toBe("running");
    expect(phases.at(-1)).toBe("done");
    expect(document.day).toBe(today());
    const last = await prefs.lastRefresh();
    expect(last?.day).toBe(today());
    expect(last?.at).toBeGreaterThan(earlierAt);
  });

  it("calculates once for a check at open and another while it runs, and not again later that day", async () => {
    const { workbook, service } = runtime({ documentDay: EARLIER_DAY });
    expect(await Promise.all([service.checkNewDay(), service.checkNewDay()])).toEqual([
      "refreshed",
      "refreshed",
    ]);
    expect(await service.checkNewDay()).toBe("current");
    expect(workbook.calculations).toBe(1);
  });

  it("does not calculate when the pane's 'refresh on a new refresh day' setting is off", async () => {
    const storage = new MemoryStorage();
    await new PanePrefs(storage).setAutoRefresh(false);
    const { workbook, document, service, phases } = runtime({ documentDay: EARLIER_DAY, storage });
    const before = sandbox.stats().requests;
    expect(await service.checkNewDay()).toBe("off");
    expect(workbook.calculations).toBe(0);
    expect(sandbox.stats().requests).toBe(before);
    expect(document.day).toBe(EARLIER_DAY);
    expect(phases).toEqual([]);
  });

  it("records the workbook's calculated day for a refresh from the button or the ribbon, joined when simultaneous", async () => {
    const { workbook, document, prefs, service } = runtime({ documentDay: EARLIER_DAY });
    expect(await Promise.all([service.refresh("on request"), service.refresh("from the ribbon")])).toEqual([
      true,
      true,
    ]);
    expect(workbook.calculations).toBe(1);
    expect(service.state()).toMatchObject({ phase: "done", reason: "on request" });
    expect(document.day).toBe(today());
    expect((await prefs.lastRefresh())?.day).toBe(today());
    expect(await service.checkNewDay()).toBe("current");
    expect(workbook.calculations).toBe(1);
  });

  it("keeps today's cache for the refresh of a new refresh day; a refresh on request drops it", async () => {
    const { workbook, document, service } = runtime({ documentDay: EARLIER_DAY });
    // Another workbook (or this one's cells) asked the same today: the new-day refresh reuses the answers.
    await workbook.calculateFull();
    await workbook.settled();
    const before = sandbox.stats().requests;
    expect(await service.checkNewDay()).toBe("refreshed");
    expect(workbook.calculations).toBe(2);
    expect(sandbox.stats().requests).toBe(before);
    expect(document.day).toBe(today());
    expect(service.state()).toMatchObject({ phase: "done", summary: { requestsSent: 0 } });
    // The button's refresh sends every request again, the coverage list too.
    expect(await service.refresh("on request")).toBe(true);
    expect(sandbox.stats().requests - before).toBe(1 + 3);
  });

  it("under the quota saver, the new-day refresh fetches open periods and (SP) datapoints only", async () => {
    const clock = new RefreshDayClock(DEFAULTS.refreshDay);
    const closed = Number(today().slice(0, 4)) - 2;
    const cells = {
      "Sheet1!A1": `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${closed})`,
      "Sheet1!A2": `=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",${closed})`,
      "Sheet1!A3": `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${closed + 1})`,
      "Sheet1!A4": `=FDQ.DATAPOINT("AAPL","metrics/ebv","WACC",${closed})`,
    };
    const storage = new MemoryStorage();
    const fake = new FakeFetch();
    // Two days ago: every cell fetched.
    const earlier = Date.now() - 2 * 86_400_000;
    const before = makeClient(fake, { billing: "per-datapoint", storage, now: () => earlier });
    const old = fakeWorkbook(before, cells);
    await old.calculateFull();
    await old.settled();
    await before.close();
    expect(fake.count).toBe(4);

    const saver = makeClient(fake, { billing: "per-datapoint", storage, refreshPolicy: { kind: "saver" } });
    try {
      const workbook = fakeWorkbook(saver, cells);
      const document = memoryDocument(clock.label(earlier));
      const service = new RefreshService({
        workbook,
        api: { readyClient: async () => saver, refreshDay: today },
        prefs: new PanePrefs(new MemoryStorage()),
        document,
        timing: { pollMs: 5, quietMs: 50 },
      });
      expect(await service.checkNewDay()).toBe("refreshed");
      // The two closed ROIC and NOPAT values are kept; the open year and WACC (SP) are fetched again.
      expect(
        fake.seen
          .slice(4)
          .map((r) => `${r.url.pathname}${r.url.search}`)
          .sort(),
      ).toEqual([
        `/v1/metrics/ebv/AAPL?datapoint=WACC&year=${closed}`,
        `/v1/metrics/roic/AAPL?datapoint=ROIC&year=${closed + 1}`,
      ]);
      expect(workbook.cells.get("Sheet1!A1")?.value).toBe(old.cells.get("Sheet1!A1")?.value);
    } finally {
      await saver.close();
    }
  });

  it("answers the estimate it shows, with the units a refresh spends (the pane's confirmation reads them)", async () => {
    const { service, workbook } = runtime({ documentDay: today() });
    const before = sandbox.stats().requests;
    const estimate = await service.estimate();
    // The day's stock coverage list and three single datapoints, 1 unit each; estimating sends nothing.
    expect(estimate).toMatchObject({
      cells: 3,
      requestsNeeded: 4,
      coverageLists: 1,
      units: 4,
      refreshUnits: 4,
    });
    expect(service.state()).toEqual({ phase: "estimated", scope: "workbook", estimate });
    expect(sandbox.stats().requests).toBe(before);
    expect(workbook.calculations).toBe(0);
    expect(await runtime({ connected: false }).service.estimate()).toBeUndefined();
    // The refresh then spends what the estimate said, by the sandbox's count and the client's ledger.
    const [units, ledger] = [sandbox.usage(), (await client.usage()).units];
    expect(await service.refresh("on request")).toBe(true);
    expect(sandbox.usage() - units).toBe(estimate!.refreshUnits);
    expect((await client.usage()).units - ledger).toBe(estimate!.refreshUnits);
  });

  it("asks for an API key instead of calculating when none is saved, and records no day", async () => {
    const { workbook, document, service } = runtime({ documentDay: EARLIER_DAY, connected: false });
    expect(await service.checkNewDay()).toBe("failed");
    expect(service.state()).toEqual({ phase: "error", message: "Save an API key under Connect first." });
    expect(workbook.calculations).toBe(0);
    expect(document.day).toBe(EARLIER_DAY);
  });

  it("only records the day for a workbook without FDQ formulas", async () => {
    const { workbook, document, service, phases } = runtime({
      cells: { "Sheet1!A1": "=SUM(1,2)" },
      documentDay: EARLIER_DAY,
    });
    expect(await service.checkNewDay()).toBe("no-formulas");
    expect(workbook.calculations).toBe(0);
    expect(document.day).toBe(today());
    expect(phases).toEqual([]);
  });
});
