// IndexedDB present but impossible to open (a private-mode webview, a database of a newer version, a
// sandbox that throws SecurityError): the cache and the usage ledger fall back once, with one warning, to
// OfficeRuntime.storage in parts (as where IndexedDB is missing), or to memory where there is none.
// fake-indexeddb stands in for the webview's IndexedDB.
import "fake-indexeddb/auto";
import { openDB } from "idb";
import { IndexedDbStore } from "../../../src/api/cache-store/indexeddb-store";
import { DEFAULTS, officeStorage, type ClientEvent, type KeyValueStore } from "../../../src/api";
import {
  configureSharedClient,
  onSharedClientEvent,
  resetSharedClient,
} from "../../../src/host/shared-client";
import { accountTag } from "../../../src/api/account-tag";
import { officeStorageDouble } from "../../support/office-storage";
import { API_KEY, BASE_URL, FakeFetch, makeClient } from "./fake-fetch";

const roic = (ticker: string, year = 2023) => ({ ticker, dataset: "roic", name: "ROIC", year });

let dbName: string;
let n = 0;
beforeEach(() => {
  dbName = `fdq-fallback-test-${++n}`;
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** A database already at version 2: IndexedDbStore's open at version 1 fails with a VersionError. */
async function newerDatabase(name: string): Promise<void> {
  (await openDB(name, 2)).close();
}

function runtime(fake: FakeFetch, fallback: KeyValueStore | undefined) {
  const events: ClientEvent[] = [];
  const store = new IndexedDbStore({ name: dbName, legacy: fallback, fallback });
  const client = makeClient(fake, { storage: store, persistDelayMs: 5, onEvent: (e) => events.push(e) });
  const warnings = () => events.flatMap((e) => (e.type === "cache-warning" ? [e.message] : []));
  return { client, events, warnings };
}

describe("IndexedDB that cannot be opened", () => {
  it("keeps the cache and the ledger in OfficeRuntime.storage, in parts, with one warning per client", async () => {
    await newerDatabase(dbName);
    const office = officeStorageDouble();
    const fallback = officeStorage(office);
    const fake = new FakeFetch();
    const a = runtime(fake, fallback);
    await a.client.datapoint(roic("AAPL"));
    await a.client.flush(); // several saves: still one warning
    await a.client.datapoint(roic("MSFT"));
    await a.client.close();
    expect(fake.count).toBe(2);
    expect(a.warnings()).toHaveLength(1);
    expect(a.warnings()[0]).toMatch(
      /^IndexedDB could not be opened \(.+\); the FDQ cache is kept in OfficeRuntime\.storage instead, which is smaller\.$/,
    );
    expect(a.events.filter((e) => e.type === "cache-persisted").length).toBeGreaterThanOrEqual(2);
    // The parts scheme, as where IndexedDB is missing, and the ledger beside it.
    expect(JSON.parse((await office.memory.get(DEFAULTS.storageKey))!)).toMatchObject({ v: 2, chunks: 1 });
    const ledger = JSON.parse((await office.memory.get(`${DEFAULTS.usageKey}.${accountTag(API_KEY)}`))!) as {
      byDay: Record<string, number>;
    };
    expect(Object.values(ledger.byDay).reduce((x, y) => x + y, 0)).toBe(2);

    // A second client on the same storage (its IndexedDB fails too) loads what the first saved.
    const b = runtime(fake, fallback);
    expect((await b.client.datapoint(roic("AAPL"))).source).toBe("cache");
    expect((await b.client.datapoint(roic("MSFT"))).source).toBe("cache");
    expect(fake.count).toBe(2);
    await b.client.datapoint(roic("IBM"));
    expect((await b.client.usage()).units).toBe(3);
    await b.client.close();
    expect(b.warnings()).toHaveLength(1);
    expect(b.warnings()[0]).toContain("OfficeRuntime.storage instead");
  });

  it("keeps them in memory only, with one warning, where there is no OfficeRuntime.storage either", async () => {
    jest.spyOn(indexedDB, "open").mockImplementation(() => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    });
    const fake = new FakeFetch();
    const a = runtime(fake, undefined);
    await a.client.datapoint(roic("AAPL"));
    await a.client.flush();
    await a.client.datapoint(roic("MSFT"));
    expect((await a.client.datapoint(roic("AAPL"))).source).toBe("cache");
    await a.client.close();
    expect(fake.count).toBe(2);
    expect((await a.client.usage()).units).toBe(2);
    expect(a.warnings()).toEqual([
      "IndexedDB could not be opened (The operation is insecure.); the FDQ cache and usage ledger are kept in memory only.",
    ]);
    expect(a.events.some((e) => e.type === "cache-persisted")).toBe(false);
  });
});

describe("the shared runtime's cacheStorage()", () => {
  const office = officeStorageDouble();
  beforeEach(() => {
    (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = { storage: office };
    (globalThis as { Office?: unknown }).Office = { context: { partitionKey: "fallback-test" } };
  });
  afterEach(async () => {
    await resetSharedClient();
    delete (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime;
    delete (globalThis as { Office?: unknown }).Office;
  });

  it("falls back to OfficeRuntime.storage (partitioned) when IndexedDB cannot be opened", async () => {
    await newerDatabase("fdq-cache.fallback-test");
    const fake = new FakeFetch();
    jest.spyOn(globalThis, "fetch").mockImplementation(fake.fetch);
    const warnings: string[] = [];
    const stop = onSharedClientEvent((e) => {
      if (e.type === "cache-warning") warnings.push(e.message);
    });
    const client = configureSharedClient({ baseUrl: BASE_URL, apiKey: API_KEY }, { persistDelayMs: 5 });
    await client.datapoint(roic("AAPL"));
    await client.flush();
    await client.datapoint(roic("MSFT"));
    await client.flush();
    stop();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("OfficeRuntime.storage instead");
    expect(JSON.parse(office.memory.items.get(`fallback-test/${DEFAULTS.storageKey}`)!)).toMatchObject({
      v: 2,
      chunks: 1,
    });
    expect(office.memory.items.has(`fallback-test/${DEFAULTS.usageKey}.${accountTag(API_KEY)}`)).toBe(true);
  });
});
