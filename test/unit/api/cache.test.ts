// The refresh-day cache: served for the rest of the day, filled by whole-dataset answers, errors never cached
// as values, "does not exist" remembered, persisted across restarts, bounded, invalidated on demand.
import {
  DataNotFoundError,
  DataPointNotFoundError,
  MemoryStorage,
  RatingNotFoundError,
  type ClientEvent,
  type ClientOptions,
  type FdqError,
} from "../../../src/api";
import { sleep } from "../../../src/api/sleep";
import { findDataset } from "../../../src/catalog";
import { API_KEY, FakeFetch, envelope, json, makeClient, specError, valueText } from "./fake-fetch";

/** The store's keys besides the usage ledger's, which shares it. */
const cacheKeys = (storage: MemoryStorage): string[] =>
  [...storage.items.keys()].filter((k) => !k.startsWith("fdq.usage.")).sort();

const DAY1_MORNING = Date.parse("2024-03-15T10:20:00Z"); // 05:20 Chicago (CDT)
const DAY1_LATE = Date.parse("2024-03-16T10:19:00Z"); // 05:19 Chicago the next morning
const DAY2 = Date.parse("2024-03-16T10:20:00Z");

const roic = (name: string, ticker = "AAPL") => ({ ticker, dataset: "roic", name, year: 2023 });
const roicNames = findDataset("roic")!.datapoints.map((d) => d.name);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as FdqError,
  );

function setup(options: Partial<ClientOptions> = {}) {
  const clock = { now: DAY1_MORNING };
  const events: ClientEvent[] = [];
  const fake = new FakeFetch();
  const storage = new MemoryStorage();
  const create = (extra: Partial<ClientOptions> = {}) =>
    makeClient(fake, {
      now: () => clock.now,
      storage,
      persistDelayMs: 10,
      onEvent: (e) => events.push(e),
      ...options,
      ...extra,
    });
  return {
    clock,
    events,
    fake,
    storage,
    create,
    warnings: () => events.flatMap((e) => (e.type === "cache-warning" ? [e.message] : [])),
  };
}

describe("cache per refresh day", () => {
  it("makes 1 request for 200 calls, 0 for the same batch later that day, and 1 again after the day boundary", async () => {
    const { clock, fake, create } = setup();
    const client = create();
    const batch = () =>
      Promise.all(
        Array.from({ length: 200 }, (_, i) => client.datapoint(roic(roicNames[i % roicNames.length]!))),
      );
    const first = await batch();
    expect(fake.count).toBe(1);
    clock.now = DAY1_LATE;
    const second = await batch();
    expect(fake.count).toBe(1);
    expect(second.every((r) => r.source === "cache" && r.refreshDay === "2024-03-15")).toBe(true);
    expect(second.map((r) => r.value)).toEqual(first.map((r) => r.value));
    clock.now = DAY2;
    const third = await batch();
    expect(fake.count).toBe(2);
    expect(third[0]).toMatchObject({ source: "network", refreshDay: "2024-03-16" });
    expect(client.stats().cacheHits).toBe(200);
    await client.close();
  });

  it("fills the cache for every datapoint of a whole-dataset answer", async () => {
    const { fake, create } = setup();
    const client = create();
    await client.dataset({ ticker: "AAPL", dataset: "roic", year: 2023 });
    const all = await Promise.all(roicNames.map((name) => client.datapoint(roic(name))));
    expect(all.every((r) => r.source === "cache")).toBe(true);
    expect(all.map((r) => r.value)).toEqual(roicNames.map((n) => Number(valueText("AAPL", n, 2023, 5))));
    expect(fake.count).toBe(1);
    await client.close();
  });

  it("remembers DataNotFound, RatingNotFound and DataPointNotFound for the day, with the service's message", async () => {
    const fake = new FakeFetch((url) =>
      url.pathname.startsWith("/v1/ratings/") ? specError("RatingNotFound") : "default",
    );
    const clock = { now: DAY1_MORNING };
    const client = makeClient(fake, { now: () => clock.now });
    const calls = () => [
      failure(client.datapoint(roic("ROIC", "NODATA"))),
      failure(client.ratings("ZZZZ")),
      failure(client.datapoint({ ticker: "AAPL", dataset: "adjusted", name: "NOT_LISTED", year: 2023 })),
    ];
    const first = await Promise.all(calls());
    const again = await Promise.all(calls());
    expect(again.map((e) => [e?.name, e?.message])).toEqual([
      ["DataNotFoundError", "The requested data was not found."],
      ["RatingNotFoundError", "The requested rating information was not found."],
      ["DataPointNotFoundError", "The requested datapoint was not found."],
    ]);
    expect(first[0]).toBeInstanceOf(DataNotFoundError);
    expect(again[1]).toBeInstanceOf(RatingNotFoundError);
    expect(again[2]).toBeInstanceOf(DataPointNotFoundError);
    // The three answers, and NODATA's coverage record (its data answer was "not found"), once a day.
    expect(fake.count).toBe(4);
    clock.now = DAY2;
    await Promise.all(calls());
    expect(fake.count).toBe(8);
  });

  it("never caches a transient failure as a value or as an answer", async () => {
    let down = true;
    const fake = new FakeFetch(() => (down ? json(503, { message: "Service Unavailable" }) : "default"));
    const client = makeClient(fake, { retry: { attempts: 1 } });
    expect((await failure(client.ratings("AAPL")))?.name).toBe("ServiceUnavailableError");
    expect((await failure(client.datapoint(roic("ROIC"))))?.name).toBe("ServiceUnavailableError");
    down = false;
    expect((await client.datapoint(roic("ROIC"))).value).toBe(Number(valueText("AAPL", "ROIC", 2023, 5)));
    expect(fake.count).toBe(3);
  });

  it("caches the other endpoint groups for the day too", async () => {
    const fake = new FakeFetch(() => envelope({ ticker: "AAPL", name: "Apple", rating_overall: 1 }));
    const client = makeClient(fake);
    const a = await client.ratings("AAPL");
    const b = await client.ratings(" aapl ");
    expect([a.source, b.source]).toEqual(["network", "cache"]);
    expect(b.data).toEqual(a.data);
    expect(fake.count).toBe(1);
  });

  it("invalidates one ticker or everything", async () => {
    const { fake, create } = setup();
    const client = create();
    await client.datapoint(roic("ROIC", "AAPL"));
    await client.datapoint(roic("ROIC", "MSFT"));
    client.invalidate(" aapl ");
    expect((await client.datapoint(roic("ROIC", "MSFT"))).source).toBe("cache");
    expect((await client.datapoint(roic("ROIC", "AAPL"))).source).toBe("network");
    expect(fake.count).toBe(3);
    client.invalidate();
    expect((await client.datapoint(roic("ROIC", "MSFT"))).source).toBe("network");
    expect(fake.count).toBe(4);
    await client.close();
  });

  it("does not store an answer that arrives after the cache was invalidated", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fake = new FakeFetch(async () => {
      await gate;
      return "default" as const;
    });
    const client = makeClient(fake);
    const pending = client.datapoint(roic("ROIC"));
    while (fake.count === 0) await sleep(1);
    client.invalidate();
    release();
    expect((await pending).source).toBe("network");
    expect(client.stats().cacheEntries).toBe(0);
  });

  it("evicts the least recently used entries beyond maxCacheEntries", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { maxCacheEntries: 3 });
    const ask = (name: string) =>
      client.datapoint({ ticker: "AAPL", dataset: "adjusted", name, year: 2023 }).then((r) => r.source);
    await ask("ACCOUNTS_PAYABLE");
    await ask("ACCOUNTS_RECEIVABLE");
    await ask("ADJUSTMENT_DCF_TOTAL");
    expect(await ask("ACCOUNTS_PAYABLE")).toBe("cache"); // now the most recently used
    await ask("ACCOUNTS_PAYABLE_TURNOVER"); // evicts ACCOUNTS_RECEIVABLE
    expect(client.stats().cacheEntries).toBe(3);
    expect(await ask("ACCOUNTS_PAYABLE")).toBe("cache");
    expect(await ask("ACCOUNTS_RECEIVABLE")).toBe("network");
  });

  it("reads for a plan without counting as a use: a planned entry is still the least recently used", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { maxCacheEntries: 3 });
    const request = (name: string) => ({ ticker: "AAPL", dataset: "adjusted", name, year: 2023 });
    const ask = (name: string) => client.datapoint(request(name)).then((r) => r.source);
    await ask("ACCOUNTS_PAYABLE");
    await ask("ACCOUNTS_RECEIVABLE");
    await ask("ADJUSTMENT_DCF_TOTAL");
    expect(client.plan({ kind: "datapoint", request: request("ACCOUNTS_PAYABLE") }).cached).toBe(true);
    await ask("ACCOUNTS_PAYABLE_TURNOVER"); // evicts ACCOUNTS_PAYABLE: the plan did not use it
    expect(await ask("ACCOUNTS_RECEIVABLE")).toBe("cache");
    expect(await ask("ACCOUNTS_PAYABLE")).toBe("network");
  });

  it("plans a call: the request it would send (its RequestKey and URL) and whether it is cached", async () => {
    const { create } = setup();
    const client = create();
    const before = client.plan({ kind: "datapoint", request: roic("nopat") });
    await client.datapoint(roic("ROIC"));
    const after = client.plan({ kind: "datapoint", request: roic("nopat") });
    expect(before.cached).toBe(false);
    expect(after.cached).toBe(true);
    expect(after.url).toBe("https://fdq.test/v1/metrics/roic/AAPL?year=2023");
    expect(after.key.serialize()).toBe("metrics/roic/AAPL?year=2023");
    expect(before.key.serialize()).toBe(after.key.serialize());
    await client.close();
  });

  it("plans a whole-dataset call: the same request as its datapoints, cached once any of them was asked", async () => {
    const { fake, create } = setup();
    const client = create();
    const whole = { ticker: "AAPL", dataset: "roic", year: 2023 };
    const before = client.plan({ kind: "dataset", request: whole });
    await client.datapoint(roic("ROIC"));
    const after = client.plan({ kind: "dataset", request: whole });
    expect(before.cached).toBe(false);
    expect(after.url).toBe(client.plan({ kind: "datapoint", request: roic("NOPAT") }).url);
    expect(after.cached).toBe(true);
    expect(fake.count).toBe(1);
    await client.close();
  });

  it("refuses to plan a whole dataset the spec gives no all-datapoints mode, as dataset() does", async () => {
    const { create } = setup();
    const client = create();
    const fundamentals = { ticker: "AAPL", dataset: "fundamentals/reported", year: 2023 };
    expect(() => client.plan({ kind: "dataset", request: fundamentals })).toThrow(
      "dataset fundamentals/reported has no all-datapoints mode in the spec: ask for one datapoint at a time.",
    );
    await expect(client.dataset(fundamentals)).rejects.toThrow(
      "dataset fundamentals/reported has no all-datapoints mode in the spec: ask for one datapoint at a time.",
    );
    await client.close();
  });
});

describe("persistent cache", () => {
  it("survives a restart: a new client on the same store answers from cache with the same records", async () => {
    const { fake, create } = setup();
    const first = create();
    const original = await first.datapoint(roic("ROIC"));
    const fundamentals = await first.datapoint({
      ticker: "BF.B",
      dataset: "adjusted",
      name: "ACCOUNTS_PAYABLE",
      year: 2023,
      ttm: 2,
    });
    await failure(first.datapoint(roic("ROIC", "NODATA")));
    await first.close();
    const second = create();
    const again = await second.datapoint(roic("ROIC"));
    const fundamentalsAgain = await second.datapoint({
      ticker: "bf.b",
      dataset: "adjusted",
      name: "accounts_payable",
      year: 2023,
      ttm: 2,
    });
    const missing = await failure(second.datapoint(roic("ROIC", "NODATA")));
    expect(again).toEqual({ ...original, source: "cache" });
    expect(fundamentalsAgain).toEqual({ ...fundamentals, source: "cache" });
    expect(missing).toBeInstanceOf(DataNotFoundError);
    // The first client's three answers and NODATA's coverage record; the second client's none.
    expect(fake.count).toBe(4);
    await second.close();
  });

  it("restores a whole-dataset answer after a restart: every record and the dataset call", async () => {
    const { fake, create } = setup();
    const first = create();
    const whole = await first.dataset({ ticker: "AAPL", dataset: "roic", year: 2023 });
    await first.close();
    const second = create();
    const again = await second.dataset({ ticker: "AAPL", dataset: "roic", year: 2023 });
    const each = await Promise.all(roicNames.map((name) => second.datapoint(roic(name))));
    expect(again).toEqual({ ...whole, source: "cache" });
    expect(each.map((r) => r.record)).toEqual(whole.records);
    expect(each.map((r) => r.value)).toEqual(whole.values);
    expect(second.stats()).toMatchObject({ cacheHits: 1 + roicNames.length, cacheEntries: roicNames.length });
    expect(fake.count).toBe(1);
    await second.close();
  });

  it("answers a name missing from a cached whole-dataset answer with DataPointNotFound, also after a restart", async () => {
    const { fake, create } = setup();
    const ask = (c: ReturnType<typeof create>) =>
      failure(
        c.datapoint({
          ticker: "AAPL",
          dataset: "reconciliation/core-earnings-to-net-income",
          name: "NOT_LISTED",
          year: 2023,
        }),
      );
    const first = create();
    const network = await ask(first);
    const cached = await ask(first);
    await first.close();
    const restarted = await ask(create());
    for (const e of [network, cached, restarted]) {
      expect(e).toBeInstanceOf(DataPointNotFoundError);
      expect(e?.message).toBe("The requested datapoint was not found.");
    }
    expect(first.stats().cacheHits).toBe(1);
    expect(fake.count).toBe(1);
  });

  it("counts every datapoint of a whole-dataset answer against maxCacheEntries", async () => {
    const { fake, create } = setup({ maxCacheEntries: roicNames.length });
    const client = create();
    await client.datapoint(roic("ROIC", "AAPL"));
    expect(client.stats().cacheEntries).toBe(roicNames.length);
    await client.datapoint(roic("ROIC", "MSFT")); // evicts AAPL's whole answer
    expect(client.stats().cacheEntries).toBe(roicNames.length);
    expect((await client.datapoint(roic("NOPAT", "MSFT"))).source).toBe("cache");
    expect((await client.datapoint(roic("NOPAT", "AAPL"))).source).toBe("network");
    expect(fake.count).toBe(3);
    await client.close();
  });

  it("batches writes instead of writing once per cell, and persists only the current day without the key", async () => {
    const { storage, create, events } = setup({ persistDelayMs: 60_000 });
    const writes: string[] = [];
    const set = storage.set.bind(storage);
    storage.set = async (key, value) => {
      // The usage ledger shares the store; this test is about the cache's own writes.
      if (!key.startsWith("fdq.usage.")) writes.push(key);
      await set(key, value);
    };
    const client = create();
    await Promise.all(roicNames.map((name) => client.datapoint(roic(name))));
    await Promise.all(["MSFT", "NFLX"].map((t) => client.datapoint(roic("ROIC", t))));
    expect(writes).toEqual([]);
    await client.flush();
    expect(writes).toEqual(["fdq.cache.1.0", "fdq.cache"]);
    const meta = JSON.parse((await storage.get("fdq.cache"))!);
    expect(meta).toMatchObject({ v: 2, day: "2024-03-15", gen: 1, chunks: 1 });
    // One entry per whole-dataset answer: AAPL's, MSFT's and NFLX's.
    expect(events.filter((e) => e.type === "cache-persisted")).toEqual([
      {
        type: "cache-persisted",
        entries: 3,
        chars: (await storage.get("fdq.cache.1.0"))!.length,
      },
    ]);
    expect([...storage.items.values()].join()).not.toContain(API_KEY);
    await client.close();
  });

  it("writes by itself once the batching delay has passed", async () => {
    const { storage, create } = setup({ persistDelayMs: 5 });
    const client = create();
    await client.datapoint(roic("ROIC"));
    for (let waited = 0; !storage.items.has("fdq.cache") && waited < 2_000; waited += 5) {
      await sleep(5);
    }
    expect(JSON.parse((await storage.get("fdq.cache"))!)).toMatchObject({ v: 2, gen: 1, chunks: 1 });
    await client.close();
  });

  it("replaces the previous generation's parts on the next write", async () => {
    const { storage, create } = setup();
    const client = create();
    await client.datapoint(roic("ROIC"));
    await client.flush();
    await client.datapoint(roic("ROIC", "MSFT"));
    await client.flush();
    expect(cacheKeys(storage)).toEqual(["fdq.cache", "fdq.cache.2.0"]);
    await client.close();
  });

  it("keeps the persisted cache under maxPersistChars, dropping the least recently used first", async () => {
    const { fake, create } = setup({ maxPersistChars: 1_000 });
    const first = create();
    const ask = (c: typeof first, name: string) =>
      c.datapoint({ ticker: "AAPL", dataset: "adjusted", name, year: 2023 }).then((r) => r.source);
    const names = findDataset("adjusted")!
      .datapoints.slice(0, 12)
      .map((d) => d.name);
    for (const name of names) await ask(first, name);
    await first.close();
    const second = create();
    const sources = [];
    for (const name of [...names].reverse()) sources.push(await ask(second, name));
    const kept = sources.filter((s) => s === "cache").length;
    expect(kept).toBeGreaterThan(3);
    expect(kept).toBeLessThan(12);
    expect(sources.slice(0, kept).every((s) => s === "cache")).toBe(true);
    expect(fake.count).toBe(12 + 12 - kept);
    await second.close();
  });

  it("drops the store of an earlier refresh day without a warning", async () => {
    const { clock, fake, create, warnings } = setup();
    const first = create();
    await first.datapoint(roic("ROIC"));
    await first.close();
    clock.now = DAY2;
    const second = create();
    expect((await second.datapoint(roic("ROIC"))).source).toBe("network");
    expect(fake.count).toBe(2);
    expect(warnings()).toEqual([]);
    await second.close();
  });

  it("discards a store of another API key with a warning", async () => {
    const { fake, create, warnings } = setup();
    const first = create();
    await first.datapoint(roic("ROIC"));
    await first.close();
    const other = create({ apiKey: "another-key" });
    expect((await other.datapoint(roic("ROIC"))).source).toBe("network");
    expect(fake.count).toBe(2);
    expect(warnings()).toEqual([
      "The saved FDQ cache belongs to another API key or base URL and was discarded.",
    ]);
    await other.close();
  });

  it.each([
    ["{not json", /^The saved FDQ cache could not be read and was discarded \(.+\)\.$/],
    [
      JSON.stringify({ v: 0, entries: [] }),
      /^The saved FDQ cache has an unknown format and was discarded\.$/,
    ],
    // Version 1 kept one entry per datapoint; version 2 keeps one per answer.
    [
      JSON.stringify({ v: 1, scope: "x", day: "2024-03-15", gen: 1, chunks: 1 }),
      /^The saved FDQ cache has an unknown format and was discarded\.$/,
    ],
  ])("discards a corrupt or old-format store %s with a warning, never failing", async (meta, warning) => {
    const { storage, fake, create, warnings } = setup();
    await storage.set("fdq.cache", meta);
    const client = create();
    expect((await client.datapoint(roic("ROIC"))).source).toBe("network");
    expect(warnings()).toEqual([expect.stringMatching(warning)]);
    await client.flush();
    expect(JSON.parse((await storage.get("fdq.cache"))!)).toMatchObject({ v: 2 });
    expect(fake.count).toBe(1);
    await client.close();
  });

  it("discards a store whose parts are missing or damaged", async () => {
    const { storage, create, warnings } = setup();
    const first = create();
    await first.datapoint(roic("ROIC"));
    await first.close();
    await storage.set("fdq.cache.1.0", '[["metrics/roic/AAPL?year=2023", [9]]]');
    const second = create();
    expect((await second.datapoint(roic("ROIC"))).source).toBe("network");
    await storage.remove("fdq.cache.1.0");
    const third = create();
    expect((await third.datapoint(roic("ROIC"))).source).toBe("network");
    expect(warnings()).toEqual([
      "The saved FDQ cache is damaged and was discarded (part 0 holds an unreadable entry).",
      "The saved FDQ cache is damaged and was discarded (part 0 is missing).",
    ]);
    await Promise.all([second.close(), third.close()]);
  });

  it("survives a storage that fails to write, with a warning", async () => {
    const { storage, create, warnings } = setup();
    storage.set = () => Promise.reject(new Error("quota exceeded"));
    const client = create();
    expect((await client.datapoint(roic("ROIC"))).source).toBe("network");
    await client.flush();
    expect(warnings()).toEqual([
      "The FDQ usage ledger could not be saved (quota exceeded).",
      "The FDQ cache could not be saved (quota exceeded).",
    ]);
    expect((await client.datapoint(roic("ROIC"))).source).toBe("cache");
  });
});
