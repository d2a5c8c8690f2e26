// The cache and the usage ledger in the real thing: Chromium's IndexedDB and navigator.locks, shared by two
// workbooks (two pages, two runtimes, one origin) that calculate at once (issue 12). A third workbook then
// answers every cell from the cache; the ledger holds both runtimes' units, as many as the sandbox counted.
// And Excel on the web's partition key: settings and cache under it (office-platform notes).
import type { Page } from "playwright-core";
import { DEFAULTS, accountTag } from "../../src/api";
import {
  calculatedToday,
  callDouble,
  enterCells,
  connectionSettings,
  openPane,
  openWorkbook,
  useBrowserRig,
  waitForConsole,
  type OpenPane,
} from "./harness";

jest.setTimeout(120_000);

const rig = useBrowserRig();

const settings = () => connectionSettings(rig.sandbox);
const opened = (partitionKey?: string) => ({
  platform: "web" as const,
  workbook: {
    documentSettings: calculatedToday(),
    ...(partitionKey && { partitionKey }),
  },
});

/** The records of an IndexedDB database of the page's origin, read with the browser's own API. */
const records = (page: Page, db: string): Promise<Record<string, string>> =>
  page.evaluate(
    (name) =>
      new Promise<Record<string, string>>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const database = open.result;
          if (!database.objectStoreNames.contains("records")) return resolve({});
          const store = database.transaction("records").objectStore("records");
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () => {
            const out: Record<string, string> = {};
            keys.result.forEach((k, i) => (out[String(k)] = values.result[i] as string));
            database.close();
            resolve(out);
          };
        };
      }),
    db,
  );

const answersIn = (all: Record<string, string>) => Object.keys(all).filter((k) => k.includes("\ne:"));

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  for (const started = Date.now(); !(await check());) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cells = (ticker: string): Record<string, string> =>
  Object.fromEntries(
    [2019, 2020, 2021, 2022, 2023].map((y, i) => [
      `Sheet1!A${i + 1}`,
      `=FDQ.DATAPOINT("${ticker}","roic","ROIC",${y})`,
    ]),
  );

async function values(page: Page, n: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 1; i <= n; i++)
    out.push(((await callDouble(page, "cell", `Sheet1!A${i}`)) as { value: unknown }).value);
  return out;
}

async function expected(ticker: string): Promise<number[]> {
  const out: number[] = [];
  for (const year of [2019, 2020, 2021, 2022, 2023]) {
    out.push(
      (await rig.reference.datapoint({ ticker, dataset: "roic", name: "ROIC", year })).value as number,
    );
  }
  return out;
}

describe("two workbooks calculating at once on one IndexedDB", () => {
  it("lose and duplicate nothing: a third workbook needs no request, and the ledger counts both", async () => {
    const first: OpenPane = await openPane(rig.browser, rig.site, {
      ...opened(),
      storage: { "fdq.settings": settings() },
    });
    await waitForConsole(first, "FDQ new-day check: current");
    const second = await openWorkbook(first, rig.site, opened());
    await waitForConsole(second, "FDQ new-day check: current");
    const before = rig.sandbox.stats().requests;

    await Promise.all([
      callDouble(first.page, "seed", cells("AAPL")),
      callDouble(second.page, "seed", cells("MSFT")),
    ]);
    await Promise.all([callDouble(first.page, "settled"), callDouble(second.page, "settled")]);
    expect(await values(first.page, 5)).toEqual(await expected("AAPL"));
    expect(await values(second.page, 5)).toEqual(await expected("MSFT"));
    expect(rig.sandbox.stats().requests - before).toBeGreaterThanOrEqual(10);

    // Both runtimes save after their batching delay: each of the ten answers once, under its own key.
    const roicAnswers = async () =>
      answersIn(await records(first.page, "fdq-cache")).filter((k) => /roic\/(AAPL|MSFT)\?/.test(k));
    await until(async () => (await roicAnswers()).length === 10, "both saves");
    // The ledger adds both runtimes' units (one per datapoint asked) instead of keeping the last writer's.
    const ledgerKey = `${DEFAULTS.usageKey}.${accountTag(rig.sandbox.demoKey)}`;
    const roicUnits = async () => {
      const ledger = (await records(first.page, "fdq-cache"))[ledgerKey];
      return ledger
        ? (JSON.parse(ledger) as { byDataset: Record<string, number> }).byDataset["metrics/roic"]
        : 0;
    };
    await until(async () => (await roicUnits()) === 10, "a ledger holding both runtimes' units");

    const third = await openWorkbook(first, rig.site, opened());
    await waitForConsole(third, "FDQ new-day check: current");
    const served = rig.sandbox.stats().requests;
    await enterCells(third.page, {
      ...cells("AAPL"),
      ...Object.fromEntries(Object.entries(cells("MSFT")).map(([a, f]) => [a.replace("A", "B"), f])),
    });
    expect(await values(third.page, 5)).toEqual(await expected("AAPL"));
    expect(rig.sandbox.stats().requests).toBe(served);
    await first.context.close();
  });
});

describe("IndexedDB refusing a write (the origin's quota spent)", () => {
  it("shrinks the cache by its oldest answers, saves the new one, and the pane says so", async () => {
    const first = await openPane(rig.browser, rig.site, {
      ...opened(),
      storage: { "fdq.settings": settings() },
    });
    await waitForConsole(first, "FDQ new-day check: current");
    await enterCells(first.page, cells("NFLX"));
    const saved = async () =>
      answersIn(await records(first.page, "fdq-cache")).filter((k) => k.includes("roic/NFLX?")).length;
    await until(async () => (await saved()) === 5, "the first workbook's save");

    // The next workbook's first put of an answer fails as IndexedDB fails past the quota.
    await first.context.addInitScript(() => {
      const put = IDBObjectStore.prototype.put;
      let refused = false;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if (!refused && typeof key === "string" && key.includes("\ne:")) {
          refused = true;
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        }
        return put.call(this, value, key);
      };
    });
    const second = await openWorkbook(first, rig.site, opened());
    await waitForConsole(second, "FDQ new-day check: current");
    // A ticker the day's coverage list (saved by the first workbook) lists: its answer is a new one to save.
    await enterCells(second.page, { "Sheet1!A1": '=FDQ.DATAPOINT("MSFT","roic","ROIC",2021)' });
    const warning = second.page.getByTestId("cache-warning");
    await warning.waitFor({ timeout: 20_000 });
    await expect(warning.textContent()).resolves.toContain(
      "The FDQ cache was full (The quota has been exceeded.): its 4 oldest answers were removed to save the new ones.",
    );
    const left = answersIn(await records(second.page, "fdq-cache"));
    expect(left.filter((k) => k.includes("roic/MSFT?"))).toHaveLength(1);
    // The oldest four of the stored answers (the pane's datapoint list and the day's coverage list among them)
    // went; the newer stayed.
    const nflxLeft = left.filter((k) => k.includes("roic/NFLX?")).length;
    expect(nflxLeft).toBeGreaterThanOrEqual(2);
    expect(nflxLeft).toBeLessThan(5);
    await first.context.close();
  });
});

describe("Excel on the web's partition key", () => {
  it("reads the settings under it and keeps the cache in the partition's own database", async () => {
    const pane = await openPane(rig.browser, rig.site, {
      ...opened("partition-7"),
      storage: { "partition-7/fdq.settings": settings() },
    });
    await waitForConsole(pane, "FDQ new-day check: current");
    await enterCells(pane.page, { "Sheet1!A1": '=FDQ.DATAPOINT("NFLX","roic","ROIC",2021)' });
    const value = (
      await rig.reference.datapoint({ ticker: "NFLX", dataset: "roic", name: "ROIC", year: 2021 })
    ).value;
    expect(await callDouble(pane.page, "cell", "Sheet1!A1")).toMatchObject({ value, error: null });
    const nflx = (all: Record<string, string>) => answersIn(all).filter((k) => k.includes("roic/NFLX?"));
    await until(async () => nflx(await records(pane.page, "fdq-cache.partition-7")).length === 1, "the save");
    expect(nflx(await records(pane.page, "fdq-cache"))).toEqual([]);
    await pane.context.close();
  });
});

describe("a pane opened where another was closed (the harness reuses the context)", () => {
  /** What one pane's page can see of another's: storage of every kind, cookies, routes, init scripts, permissions. */
  const leftovers = (pane: OpenPane) =>
    pane.page.evaluate(async () => ({
      localStorage: Object.keys(localStorage).sort(),
      cookie: document.cookie,
      databases: (await indexedDB.databases()).map((d) => d.name).sort(),
      caches: await caches.keys(),
      marker: (window as unknown as { __marker?: number }).__marker,
      routed: (await fetch("/marker.txt")).status,
      clipboard: (await navigator.permissions.query({ name: "clipboard-read" as PermissionName })).state,
    }));

  it("finds what a pane in a new context finds, nothing of what the closed one left", async () => {
    const first = await openPane(rig.browser, rig.site, {
      ...opened(),
      storage: { "fdq.settings": settings() },
    });
    await waitForConsole(first, "FDQ new-day check: current");
    await enterCells(first.page, cells("NFLX"));
    await first.context.addInitScript(() => ((window as unknown as { __marker?: number }).__marker = 1));
    await first.context.route("**/marker.txt", (route) => route.fulfill({ body: "routed" }));
    await first.context.grantPermissions(["clipboard-read"], { origin: rig.site.url });
    await first.page.evaluate(async () => {
      localStorage.setItem("marker", "1");
      document.cookie = "marker=1; max-age=3600";
      await new Promise((resolve, reject) => {
        const open = indexedDB.open("marker");
        open.onsuccess = () => resolve(open.result.close());
        open.onerror = () => reject(open.error);
      });
      await (await caches.open("marker")).put("/marker", new Response("1"));
    });
    await first.page.reload();
    await waitForConsole(first, "FDQ new-day check: current");
    const left = await leftovers(first);
    expect(left).toMatchObject({
      cookie: "marker=1",
      caches: ["marker"],
      marker: 1,
      routed: 200,
      clipboard: "granted",
    });
    expect(left.localStorage).toContain("marker");
    expect(left.localStorage).toContain("office-double:fdq.settings");
    expect(left.databases).toContain("marker");
    expect(left.databases).toContain("fdq-cache");
    const heard = first.console.length;
    await first.context.close();

    const second = await openPane(rig.browser, rig.site, opened());
    const fresh = await openPane(rig.browser, rig.site, opened()); // none is free: a new context
    expect(second.context).toBe(first.context);
    expect(fresh.context).not.toBe(first.context);
    await waitForConsole(second, "FDQ new-day check: current");
    await waitForConsole(fresh, "FDQ new-day check: current");
    expect(await leftovers(second)).toEqual(await leftovers(fresh));
    expect(await leftovers(second)).toMatchObject({
      cookie: "",
      caches: [],
      routed: 404,
      clipboard: "prompt",
    });
    expect(first.console).toHaveLength(heard); // the closed pane's listeners are gone
    await second.context.close();
    await fresh.context.close();
  });
});
