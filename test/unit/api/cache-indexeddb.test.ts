// The cache in IndexedDB as two workbooks share it (issue 12): two runtimes (two clients, each with its own
// connection to one database, as two shared runtimes of one origin have) refresh at once, and nothing is
// lost or duplicated; their usage ledgers add up; every write holds the origin lock; a store that refuses a
// write (quota) shrinks the cache by its oldest half and says so. fake-indexeddb stands in for the
// webview's IndexedDB, a small FIFO lock manager for navigator.locks (Node 20 has none).
import "fake-indexeddb/auto";
import { IndexedDbStore } from "../../../src/api/cache-store/indexeddb-store";
import type { RecordChange } from "../../../src/api/cache-store/record-store";
import { accountTag } from "../../../src/api/account-tag";
import { DEFAULTS, MemoryStorage, sleep, type ClientEvent } from "../../../src/api";
import { API_KEY, FakeFetch, makeClient } from "./fake-fetch";

/** navigator.locks' exclusive mode: one holder per name, the others queued in order. */
class FifoLocks {
  readonly requested: string[] = [];
  holders = 0;
  maxHolders = 0;
  private tails = new Map<string, Promise<unknown>>();

  request<T>(name: string, callback: () => Promise<T>): Promise<T> {
    this.requested.push(name);
    const run = (this.tails.get(name) ?? Promise.resolve()).then(async () => {
      this.maxHolders = Math.max(this.maxHolders, ++this.holders);
      try {
        return await callback();
      } finally {
        this.holders--;
      }
    });
    this.tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }
}

let locks: FifoLocks;
let dbName: string;
let n = 0;
beforeEach(() => {
  locks = new FifoLocks();
  Object.defineProperty(globalThis, "navigator", { value: { locks }, configurable: true });
  dbName = `fdq-test-${++n}`;
});
afterEach(() => {
  delete (globalThis as { navigator?: unknown }).navigator;
});

const roic = (ticker: string, year = 2023) => ({ ticker, dataset: "roic", name: "ROIC", year });
const TICKERS = ["AAPL", "MSFT", "IBM", "KO", "PEP", "XOM", "JNJ", "WMT"];

function runtime(fake: FakeFetch, store = new IndexedDbStore({ name: dbName })) {
  const events: ClientEvent[] = [];
  const client = makeClient(fake, { storage: store, persistDelayMs: 5, onEvent: (e) => events.push(e) });
  const warnings = () => events.flatMap((e) => (e.type === "cache-warning" ? [e.message] : []));
  return { client, store, events, warnings };
}

describe("the cache in IndexedDB, two runtimes at once", () => {
  it("keeps every answer of both, once each, and a third runtime needs no request", async () => {
    const fake = new FakeFetch();
    const a = runtime(fake);
    const b = runtime(fake);
    await Promise.all([a.client.ready(), b.client.ready()]);
    // Interleaved: each runtime asks its own half, several saves overlap.
    await Promise.all(TICKERS.map((t, i) => (i % 2 === 0 ? a : b).client.datapoint(roic(t))));
    await Promise.all([a.client.datapoint(roic("AAPL", 2022)), b.client.datapoint(roic("MSFT", 2022))]);
    await Promise.all([a.client.close(), b.client.close()]);
    expect(fake.count).toBe(TICKERS.length + 2);

    const records = await new IndexedDbStore({ name: dbName }).list(DEFAULTS.storageKey);
    const answers = records.filter(([k]) => k.includes("\ne:"));
    expect(answers).toHaveLength(TICKERS.length + 2);
    expect(new Set(answers.map(([k]) => k)).size).toBe(answers.length);

    const c = runtime(fake);
    const again = await Promise.all([
      ...TICKERS.map((t) => c.client.datapoint(roic(t))),
      c.client.datapoint(roic("AAPL", 2022)),
    ]);
    expect(again.every((r) => r.source === "cache")).toBe(true);
    expect(fake.count).toBe(TICKERS.length + 2);
    expect(c.warnings()).toEqual([]);
    await c.client.close();
  });

  it("adds both runtimes' units in the usage ledger instead of keeping the last writer's", async () => {
    const fake = new FakeFetch();
    const a = runtime(fake);
    const b = runtime(fake);
    await Promise.all([a.client.ready(), b.client.ready()]);
    await Promise.all([a.client.datapoint(roic("AAPL")), b.client.datapoint(roic("MSFT"))]);
    await Promise.all([a.client.flush(), b.client.flush()]);
    await Promise.all([a.client.datapoint(roic("IBM")), b.client.datapoint(roic("KO"))]);
    await Promise.all([a.client.close(), b.client.close()]);
    const stored = JSON.parse((await a.store.get(`${DEFAULTS.usageKey}.${accountTag(API_KEY)}`))!) as {
      byDay: Record<string, number>;
    };
    expect(Object.values(stored.byDay).reduce((x, y) => x + y, 0)).toBe(4);
    const c = runtime(fake);
    expect((await c.client.usage()).units).toBe(4);
    await c.client.close();
  });

  it("writes only under the origin's lock, one holder at a time", async () => {
    const fake = new FakeFetch();
    const a = runtime(fake);
    const b = runtime(fake);
    await Promise.all([a.client.datapoint(roic("AAPL")), b.client.datapoint(roic("MSFT"))]);
    await Promise.all([a.client.close(), b.client.close()]);
    expect(locks.requested.length).toBeGreaterThanOrEqual(4); // two cache saves and two ledger updates
    expect(new Set(locks.requested)).toEqual(new Set([`${dbName}:write`]));
    expect(locks.maxHolders).toBe(1);
  });
});

describe("a runtime that crosses the refresh-day boundary", () => {
  it("removes its own earlier day's answers, not those another runtime already saved for the new day", async () => {
    const DAY1 = Date.parse("2024-03-15T15:00:00Z");
    const DAY2 = DAY1 + 86_400_000;
    const clock = { a: DAY1, b: DAY2 };
    const fake = new FakeFetch();
    const open = (who: "a" | "b") =>
      makeClient(fake, {
        storage: new IndexedDbStore({ name: dbName }),
        now: () => clock[who],
        persistDelayMs: 5,
      });
    const a = open("a");
    await a.datapoint(roic("AAPL"));
    await a.flush();
    const b = open("b");
    await b.datapoint(roic("MSFT"));
    await b.close();
    clock.a = DAY2; // a's workbook stays open past the boundary
    await a.datapoint(roic("IBM"));
    await a.close();
    const c = open("b");
    expect((await c.datapoint(roic("MSFT"))).source).toBe("cache");
    expect((await c.datapoint(roic("IBM"))).source).toBe("cache");
    expect((await c.datapoint(roic("AAPL"))).source).toBe("network");
    await c.close();
  });
});

describe("a store that refuses a write", () => {
  it("shrinks the cache by its oldest answers, keeps the new ones, and warns", async () => {
    const fake = new FakeFetch();
    const first = runtime(fake);
    // One save each, a few ms apart: their write times give the order a shrink removes them in.
    for (const t of TICKERS.slice(0, 4)) {
      await first.client.datapoint(roic(t));
      await first.client.flush();
      await sleep(3);
    }
    await first.client.close();

    // The next save of new answers fails once, as IndexedDB does when the origin's quota is spent.
    const store = new IndexedDbStore({ name: dbName });
    const commit = store.commit.bind(store);
    let refused = 0;
    store.commit = (change: RecordChange) => {
      const adds = [...change.puts.keys()].some((k) => k.includes("\ne:"));
      if (adds && refused++ === 0) {
        return Promise.reject(
          Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" }),
        );
      }
      return commit(change);
    };
    const second = runtime(fake, store);
    await second.client.ready();
    await second.client.datapoint(roic("PEP"));
    await second.client.close();
    expect(second.warnings()).toEqual([
      "The FDQ cache was full (The quota has been exceeded.): its 2 oldest answers were removed to save the new ones.",
    ]);
    const keys = (await store.list(DEFAULTS.storageKey))
      .map(([k]) => k.slice(k.indexOf("\ne:") + 3))
      .filter((k) => !k.endsWith("meta"));
    expect(keys.map((k) => k.split("/")[2]?.split("?")[0]).sort()).toEqual(["IBM", "KO", "PEP"]);
  });
});

describe("the quota saver on IndexedDB", () => {
  it("keeps a closed period for keepDays refresh days across sessions, then fetches it again", async () => {
    const FIRST_DAY = Date.parse("2024-03-04T15:00:00Z"); // 09:00 Chicago
    let now = FIRST_DAY;
    const fake = new FakeFetch();
    const sources: string[] = [];
    for (let d = 0; d < 9; d++) {
      now = FIRST_DAY + d * 86_400_000;
      const session = makeClient(fake, {
        storage: new IndexedDbStore({ name: dbName }),
        now: () => now,
        persistDelayMs: 5,
        refreshPolicy: { kind: "saver", keepDays: 7 },
      });
      sources.push((await session.datapoint(roic("AAPL", 2021))).source);
      await session.close();
    }
    expect(sources).toEqual(["network", ...Array<string>(6).fill("cache"), "network", "cache"]);
  });
});

describe("the cache an earlier version kept in OfficeRuntime.storage", () => {
  it("is imported into IndexedDB once, ledger included, and removed from the shared storage", async () => {
    const fake = new FakeFetch();
    const legacy = new MemoryStorage();
    // One save, at close: a timer firing between the two answers on a busy machine would write a second generation.
    const before = makeClient(fake, { storage: legacy, persistDelayMs: 60_000 });
    await before.datapoint(roic("AAPL"));
    await before.datapoint(roic("MSFT"));
    await before.close();
    expect([...legacy.items.keys()].sort()).toEqual([
      "fdq.cache",
      "fdq.cache.1.0",
      `${DEFAULTS.usageKey}.${accountTag(API_KEY)}`,
    ]);

    const after = runtime(fake, new IndexedDbStore({ name: dbName, legacy }));
    expect((await after.client.datapoint(roic("AAPL"))).source).toBe("cache");
    expect((await after.client.datapoint(roic("MSFT"))).source).toBe("cache");
    expect((await after.client.usage()).units).toBe(2);
    await after.client.close();
    expect(fake.count).toBe(2);
    expect(after.warnings()).toEqual([]);
    expect([...legacy.items.keys()]).toEqual([]);

    // From now on IndexedDB alone holds them.
    const later = runtime(fake, new IndexedDbStore({ name: dbName }));
    expect((await later.client.datapoint(roic("MSFT"))).source).toBe("cache");
    expect((await later.client.usage()).units).toBe(2);
    await later.client.close();
  });
});
