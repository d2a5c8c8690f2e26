// Every field of the saved cache's meta record is checked and bounded before anything it names is read or
// allocated (issue 13: a `chunks` count of 10,000,000 aborted later runs at 4.5 GB; an edited day span made
// stale answers count as today's). Here on the parts store Excel falls back to without IndexedDB; the CLI's
// file is corrupted field by field in test/integration/cli/cache-dir.test.ts.
import { MemoryStorage, RefreshDayClock, type ClientEvent } from "../../../src/api";
import { FakeFetch, makeClient } from "./fake-fetch";

const DAY1 = Date.parse("2024-03-15T15:00:00Z"); // 10:00 Chicago, refresh day 2024-03-15
const DAY2 = Date.parse("2024-03-16T15:00:00Z");
const roic = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };

async function savedStore(now = DAY1): Promise<{ storage: MemoryStorage; meta: Record<string, unknown> }> {
  const storage = new MemoryStorage();
  const client = makeClient(new FakeFetch(), { storage, now: () => now, persistDelayMs: 5 });
  await client.datapoint(roic);
  await client.close();
  return { storage, meta: JSON.parse((await storage.get("fdq.cache"))!) as Record<string, unknown> };
}

function run(storage: MemoryStorage, now = DAY1) {
  const fake = new FakeFetch();
  const events: ClientEvent[] = [];
  const client = makeClient(fake, {
    storage,
    now: () => now,
    persistDelayMs: 5,
    onEvent: (e) => events.push(e),
  });
  const warnings = () => events.flatMap((e) => (e.type === "cache-warning" ? [e.message] : []));
  return { fake, client, warnings };
}

describe("the saved cache's meta record", () => {
  it("is sound as written: the next run answers from it without a warning", async () => {
    const { storage } = await savedStore();
    const { client, fake, warnings } = run(storage);
    expect((await client.datapoint(roic)).source).toBe("cache");
    expect(fake.count).toBe(0);
    expect(warnings()).toEqual([]);
    await client.close();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["a huge part count", { chunks: 10_000_000 }, /names a part count out of bounds \(10000000\)/],
    ["a negative part count", { chunks: -1 }, /part count out of bounds/],
    ["a fractional part count", { chunks: 1.5 }, /part count out of bounds/],
    ["a part count as text", { chunks: "1" }, /part count out of bounds/],
    ["a huge generation", { gen: 1e300 }, /part count out of bounds/],
    ["a negative generation", { gen: -4 }, /part count out of bounds/],
    ["another format version", { v: 99 }, /has an unknown format/],
    [
      "another account's scope",
      { scope: "0123456789abcdef@https://fdq.test/v1" },
      /belongs to another API key/,
    ],
    ["a scope of the wrong type", { scope: 7 }, /has an unknown format/],
    ["a day that is not a date", { day: "2024-13-45" }, /names a day \("2024-13-45"\) that is not a date/],
    ["a day of the wrong type", { day: ["2024-03-15"] }, /has an unknown format/],
    ["a future day", { day: "2031-01-01" }, /names a day in the future \(2031-01-01\)/],
    [
      "a window ending before it starts",
      { from: DAY1 + 1000, until: DAY1 },
      /window that is not a time span/,
    ],
    ["a window as text", { from: "0", until: "9" }, /window that is not a time span/],
    [
      "a window in the future",
      { from: DAY1 + 9e12, until: DAY1 + 9e12 + 1 },
      /window that starts in the future/,
    ],
    ["a clock of the wrong type", { clock: 5 }, /clock that is not a text/],
  ])(
    "with %s is discarded with a warning; the run is correct and names no impossible part",
    async (_, edit, warning) => {
      const { storage, meta } = await savedStore();
      await storage.set("fdq.cache", JSON.stringify({ ...meta, ...edit }));
      const named = jest.spyOn(storage, "remove");
      const read = jest.spyOn(storage, "get");
      const { client, fake, warnings } = run(storage);
      const answer = await client.datapoint(roic);
      expect(answer).toMatchObject({ source: "network", value: expect.any(Number) });
      expect(fake.count).toBe(1);
      expect(warnings()).toEqual([expect.stringMatching(warning)]);
      await client.close();
      // Bounded: a few keys read and removed, never one per claimed part.
      expect(read.mock.calls.length).toBeLessThan(10);
      expect(named.mock.calls.length).toBeLessThan(10);
      // The next write replaced the record with a sound one.
      expect(JSON.parse((await storage.get("fdq.cache"))!)).toMatchObject({ v: 2, chunks: 1 });
    },
  );

  it("discards a record too long to be a meta record, and a part longer than the budget", async () => {
    const { storage, meta } = await savedStore();
    await storage.set("fdq.cache", JSON.stringify({ ...meta, pad: "x".repeat(20_000) }));
    const first = run(storage);
    expect((await first.client.datapoint(roic)).source).toBe("network");
    await first.client.close();
    expect(first.warnings()).toEqual([expect.stringMatching(/could not be read .*too long/)]);
    const { meta: sound } = await savedStore();
    const store2 = new MemoryStorage();
    await store2.set("fdq.cache", JSON.stringify(sound));
    await store2.set(`fdq.cache.${String(sound.gen)}.0`, `[${"0,".repeat(2_000_000)}0]`);
    const second = run(store2);
    expect((await second.client.datapoint(roic)).source).toBe("network");
    expect(second.warnings()).toEqual([expect.stringMatching(/damaged .*exceed the size bound/)]);
    await second.client.close();
  });

  it("does not let an edited day span make an earlier day's answers count as today's", async () => {
    const { storage, meta } = await savedStore(DAY1);
    // The window of 2024-03-15 stretched by a day so that it holds DAY2.
    const stretched = { ...meta, from: DAY2 - 3_600_000, until: (meta.until as number) + 86_400_000 };
    await storage.set("fdq.cache", JSON.stringify(stretched));
    const { client, fake, warnings } = run(storage, DAY2);
    const answer = await client.datapoint(roic);
    expect(answer).toMatchObject({ source: "network", refreshDay: "2024-03-16" });
    expect(fake.count).toBe(1);
    expect(warnings()).toEqual([
      "The saved FDQ cache's day was not trusted: its refresh-day window (2024-03-15) does not end at that day's boundary.",
    ]);
    await client.close();
  });
});

describe("RefreshDayClock.adopt", () => {
  const clock = () => new RefreshDayClock({ hour: 5, minute: 20, timeZone: "America/Chicago" });

  it("takes the window the clock itself computed, and refuses the same window ending half an hour or a day off", () => {
    const real = clock();
    real.label(DAY1);
    const saved = real.window();
    expect(saved).toMatchObject({ label: "2024-03-15" });
    expect(clock().adopt(saved)).toBe(true);
    expect(clock().adopt({ ...saved, until: saved.until + 86_400_000 })).toBe(false);
    expect(clock().adopt({ ...saved, until: saved.until + 30 * 60_000 })).toBe(false);
    expect(clock().adopt({ ...saved, label: "2024-03-16" })).toBe(false);
  });

  it("checks a zone it does not know by heart against Intl", () => {
    const paris = () => new RefreshDayClock({ hour: 6, minute: 0, timeZone: "Europe/Paris" });
    const real = paris();
    real.label(DAY1);
    const saved = real.window();
    expect(paris().adopt(saved)).toBe(true);
    expect(paris().adopt({ ...saved, until: saved.until + 3_600_000 })).toBe(false);
  });
});
