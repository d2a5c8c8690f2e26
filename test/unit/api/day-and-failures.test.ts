// A call after the refresh-day boundary never joins a request started before it; every call's final error
// is counted in stats().failures, decoding errors included; a discarded store leaves no parts behind.
import { MemoryStorage, RefreshDayClock, type FdqError } from "../../../src/api";
import { DEFAULTS } from "../../../src/api/defaults";
import { sleep } from "../../../src/api/sleep";
import { API_KEY, BASE_URL, FakeFetch, defaultAnswer, envelope, makeClient } from "./fake-fetch";
import { accountTag } from "../../../src/api/account-tag";

const DAY1_LATE = Date.parse("2024-03-16T10:19:00Z"); // 05:19 Chicago
const DAY2 = Date.parse("2024-03-16T10:20:00Z"); // 05:20 Chicago: a new refresh day
const label = (ms: number) => new RefreshDayClock(DEFAULTS.refreshDay).label(ms);
const roic = (name: string) => ({ ticker: "AAPL", dataset: "roic", name, year: 2023 });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as FdqError,
  );

describe("refresh-day boundary while a request is in flight", () => {
  it("sends a new request for a call made after the boundary, labelled with the new day", async () => {
    let now = DAY1_LATE;
    const gates: (() => void)[] = [];
    const fake = new FakeFetch(
      (url) => new Promise<Response>((resolve) => gates.push(() => resolve(defaultAnswer(url)))),
    );
    const client = makeClient(fake, { now: () => now });
    const before = client.datapoint(roic("ROIC"));
    while (fake.count < 1) await sleep(1);
    now = DAY2;
    const after = client.datapoint(roic("ROIC"));
    while (fake.count < 2) await sleep(1);
    gates.forEach((open) => open());
    const [old, fresh] = await Promise.all([before, after]);
    expect([old.refreshDay, fresh.refreshDay]).toEqual([label(DAY1_LATE), label(DAY2)]);
    expect(label(DAY1_LATE)).not.toBe(label(DAY2));
    expect(client.stats()).toMatchObject({ requestsSent: 2, coalescedCalls: 0 });
  });
});

describe("failures counter", () => {
  it("counts an empty answer (DataNotFound) and a name missing from a whole-dataset answer", async () => {
    const fake = new FakeFetch(async (url) => {
      if (url.pathname.endsWith("/EMPTY")) return envelope([]);
      if (!url.pathname.endsWith("/PARTIAL")) return "default";
      // The whole roic dataset except ROIC itself.
      const full = (await defaultAnswer(url).json()) as { body: string };
      const { results } = JSON.parse(full.body) as { results: { datapoint: string }[] };
      return envelope(results.filter((r) => r.datapoint !== "ROIC"));
    });
    const client = makeClient(fake);
    const empty = await failure(client.datapoint({ ...roic("ROIC"), ticker: "EMPTY" }));
    expect(empty?.name).toBe("DataNotFoundError");
    const missing = await failure(client.datapoint({ ...roic("ROIC"), ticker: "PARTIAL" }));
    expect(missing?.message).toBe("The requested datapoint was not found.");
    expect(client.stats()).toMatchObject({
      // The two answers, and EMPTY's coverage record (its data answer was "not found").
      requestsSent: 3,
      failures: { DataNotFoundError: 1, DataPointNotFoundError: 1 },
    });
  });
});

describe("storage left by a discarded store", () => {
  const KEY = "fdq.cache";

  it("removes every part an older-format store names once flush() writes the current store", async () => {
    const storage = new MemoryStorage();
    const scope = `${accountTag(API_KEY)}@${BASE_URL}`;
    storage.items.set(KEY, JSON.stringify({ v: 1, scope, day: label(DAY2), gen: 7, chunks: 3 }));
    for (let i = 0; i < 3; i++) storage.items.set(`${KEY}.7.${i}`, "[]");
    storage.items.set("fdq.settings", "{}");
    const client = makeClient(new FakeFetch(), { now: () => DAY2, storage });
    await client.datapoint(roic("ROIC"));
    await client.flush();
    expect([...storage.items.keys()].filter((k) => !k.startsWith("fdq.usage.")).sort()).toEqual([
      "fdq.cache",
      "fdq.cache.8.0",
      "fdq.settings",
    ]);
    await client.close();
  });

  it("removes the parts of a store of another key even when nothing new is cached", async () => {
    const storage = new MemoryStorage();
    const meta = { v: 2, scope: "other@https://elsewhere/v1", day: label(DAY2), gen: 2, chunks: 2 };
    storage.items.set(KEY, JSON.stringify(meta));
    for (let i = 0; i < 2; i++) storage.items.set(`${KEY}.2.${i}`, "[]");
    const client = makeClient(new FakeFetch(), { now: () => DAY2, storage });
    await client.ready();
    await client.flush();
    expect([...storage.items.keys()]).toEqual(["fdq.cache"]);
    expect(JSON.parse(storage.items.get(KEY)!)).toMatchObject({ v: 2, gen: 3, chunks: 0 });
    await client.close();
  });
});
