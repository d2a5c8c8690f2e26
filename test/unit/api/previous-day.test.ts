// "Restated since the day before" on a number with its source: the day cache keeps the previous refresh day's
// value texts when it drops them at the day turn (src/api/previous-day.ts), in the cache's own store, and the
// property compares today's text with them exactly. The day turns through the injected clock; the service is the
// fake one, which restates a datapoint when the test says so.
import "fake-indexeddb/auto";
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { accountTag } from "../../../src/api/account-tag";
import { IndexedDbStore } from "../../../src/api/cache-store/indexeddb-store";
import { FileRecordStore } from "../../../src/api/cache-store/file-record-store";
import { MAX_PLAIN_STORE_CHARS, previousDayBound } from "../../../src/api/previous-day";
import {
  DEFAULTS,
  MemoryStorage,
  officeStorage,
  type ClientOptions,
  type FdqClient,
  type KeyValueStore,
} from "../../../src/api";
import { datapoint } from "../../../src/functions/impl/datapoint";
import { dataset } from "../../../src/functions/impl/dataset";
import { sector } from "../../../src/functions/impl/sector";
import { officeStorageDouble } from "../../support/office-storage";
import { API_KEY, BASE_URL, FakeFetch, defaultAnswer, envelope, makeClient, valueText } from "./fake-fetch";

const DAY1 = Date.parse("2024-03-15T12:00:00Z");
const DAY2 = Date.parse("2024-03-16T12:00:00Z");
const DAY3 = Date.parse("2024-03-17T12:00:00Z");
const RESTATED = "Restated since the day before";
const DAY_BEFORE_KEY = `${DEFAULTS.previousDayKey}.${accountTag(API_KEY)}`;
const SCOPE = `${accountTag(API_KEY)}@${BASE_URL}`;

/** The fake service; a datapoint named in `restated` answers the text given there instead. */
function service() {
  const restated = new Map<string, string>();
  const fake = new FakeFetch(async (url) => {
    if (restated.size === 0) return "default";
    const outer = (await defaultAnswer(url).json()) as { body: string };
    const results = (JSON.parse(outer.body) as { results: unknown }).results;
    const list = (Array.isArray(results) ? results : [results]) as Record<string, unknown>[];
    for (const r of list) {
      const text = restated.get(String(r.datapoint));
      if (text !== undefined) r.datavalue = text;
    }
    return envelope(results);
  });
  return { fake, restated };
}

function setup(storage: KeyValueStore = new MemoryStorage(), extra: Partial<ClientOptions> = {}) {
  const clock = { now: DAY1 };
  const { fake, restated } = service();
  const open = (more: Partial<ClientOptions> = {}): FdqClient =>
    makeClient(fake, { now: () => clock.now, storage, persistDelayMs: 5, ...extra, ...more });
  return { clock, fake, restated, storage, open };
}

const roic = (name: string, ticker = "AAPL", year = 2023) => ({ ticker, dataset: "roic", name, year });

/** "Restated since the day before" of FDQ.DATAPOINT with its source. */
async function restatedOf(client: FdqClient, name: string, ticker = "AAPL", year = 2023): Promise<unknown> {
  const value = await datapoint(client, roic(name, ticker, year), true);
  return (value as { properties: Record<string, { basicValue: unknown }> }).properties[RESTATED]?.basicValue;
}

describe("Restated since the day before (the previous refresh day's values)", () => {
  it("says yes, with the value the service sent the day before and that day, when the value changed", async () => {
    const { clock, restated, open } = setup();
    const client = open();
    const before = valueText("AAPL", "ROIC", 2023, 5);
    expect(await restatedOf(client, "ROIC")).toBe("not known: no value kept from the day before");
    clock.now = DAY2;
    restated.set("ROIC", "0.14603712860799");
    expect(await restatedOf(client, "ROIC")).toBe(`yes: was ${before} on 2024-03-15`);
    await client.close();
  });

  it("says no, naming the day before, when the service's text is the same to the digit", async () => {
    const { clock, restated, open } = setup();
    const client = open();
    await restatedOf(client, "ROIC");
    clock.now = DAY2;
    restated.set("ROIC", "1");
    expect(await restatedOf(client, "NOPAT")).toBe("no: the same on 2024-03-15");
    await client.close();
  });

  it("compares the texts as sent: a change in the last of 17 digits is a restatement", async () => {
    const { clock, restated, open } = setup();
    const client = open();
    const before = valueText("AAPL", "ROIC", 2023, 5);
    await restatedOf(client, "ROIC");
    clock.now = DAY2;
    const last = before.slice(-1) === "9" ? "8" : "9";
    restated.set("ROIC", `${before.slice(0, -1)}${last}`);
    expect(Number(`${before.slice(0, -1)}${last}`)).toBe(Number(before)); // the same double
    expect(await restatedOf(client, "ROIC")).toBe(`yes: was ${before} on 2024-03-15`);
    await client.close();
  });

  it("says not known for a request first asked on the new day", async () => {
    const { clock, open } = setup();
    const client = open();
    await restatedOf(client, "ROIC");
    clock.now = DAY2;
    expect(await restatedOf(client, "ROIC", "MSFT")).toBe("not known: no value kept from the day before");
    expect(await restatedOf(client, "ROIC", "AAPL", 2022)).toBe(
      "not known: no value kept from the day before",
    );
    await client.close();
  });

  it("meets datapoints asked alone and the dataset's whole answer as one request", async () => {
    const { clock, fake, restated, open } = setup(new MemoryStorage(), { billing: "per-datapoint" });
    const client = open();
    // Asked alone, each by its own request.
    await restatedOf(client, "ROIC");
    await restatedOf(client, "NOPAT");
    expect(fake.seen.map((r) => r.url.searchParams.get("datapoint"))).toEqual(["ROIC", "NOPAT"]);
    clock.now = DAY2;
    restated.set("ROIC", "0.5");
    const rows = await dataset(client, { ticker: "AAPL", dataset: "roic", year: 2023 }, true);
    const roicRow = rows.find(([name]) => name === "ROIC")!;
    const nopatRow = rows.find(([name]) => name === "NOPAT")!;
    const words = (cell: unknown) =>
      (cell as { properties: Record<string, { basicValue: unknown }> }).properties[RESTATED]?.basicValue;
    expect(words(roicRow[1])).toBe(`yes: was ${valueText("AAPL", "ROIC", 2023, 5)} on 2024-03-15`);
    expect(words(nopatRow[1])).toBe("no: the same on 2024-03-15");
    expect(words(rows.find(([name]) => name === "ROGIC")![1])).toBe(
      "not known: no value kept from the day before",
    );
    await client.close();
  });

  it("keeps one day only: after a second turn the values are the last day's, and the older day's are gone", async () => {
    const { clock, restated, open } = setup();
    const client = open();
    await restatedOf(client, "ROIC");
    await restatedOf(client, "ROIC", "MSFT");
    clock.now = DAY2;
    restated.set("ROIC", "0.25");
    await restatedOf(client, "ROIC"); // AAPL asked again on day 2; MSFT not
    clock.now = DAY3;
    restated.set("ROIC", "0.3");
    expect(await restatedOf(client, "ROIC")).toBe("yes: was 0.25 on 2024-03-16");
    expect(await restatedOf(client, "ROIC", "MSFT")).toBe("not known: no value kept from the day before");
    await client.close();
  });

  it("costs no request and no unit: the second day sends what it would send without it", async () => {
    const run = async (withSource: boolean) => {
      const { clock, fake, open } = setup();
      const client = open();
      await Promise.all(["ROIC", "NOPAT"].map((n) => datapoint(client, roic(n), withSource)));
      clock.now = DAY2;
      await Promise.all(["ROIC", "NOPAT"].map((n) => datapoint(client, roic(n), withSource)));
      await client.close();
      return { sent: fake.count, ...client.stats() };
    };
    const plain = await run(false);
    const sourced = await run(true);
    expect([sourced.sent, sourced.requestsSent]).toEqual([2, 2]);
    expect([sourced.sent, sourced.unitsSpent]).toEqual([plain.sent, plain.unitsSpent]);
  });

  it("answers FDQ.SECTOR's numbers by their request too", async () => {
    const fake = new FakeFetch((url) =>
      url.pathname.startsWith("/v1/sector/")
        ? envelope([
            {
              ticker: "TECHNOLOGYSEC",
              name: "Technology",
              prior_year: 0,
              datapoint: "ROIC_AVG",
              datavalue: now < DAY2 ? "0.17020743315602" : "0.17020743315603",
            },
          ])
        : "default",
    );
    let now = DAY1;
    const client = makeClient(fake, { now: () => now });
    const words = async () =>
      (
        (await sector(client, { id: "TECHNOLOGYSEC", datapoint: "ROIC_AVG" }, true)) as {
          properties: Record<string, { basicValue: unknown }>;
        }
      ).properties[RESTATED]?.basicValue;
    await words();
    now = DAY2;
    expect(await words()).toBe("yes: was 0.17020743315602 on 2024-03-15");
  });

  it("persists in the CLI's cache file: a new run on the next day, and another after it, say the same", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "fdq-day-before-")), "cache.json");
    const { clock, restated, open } = setup(new FileRecordStore(file, 10_000_000), {
      maxPersistChars: DEFAULTS.maxFilePersistChars,
    });
    const first = open({ storage: new FileRecordStore(file, 10_000_000) });
    await restatedOf(first, "ROIC");
    await restatedOf(first, "NOPAT");
    await first.close();
    clock.now = DAY2;
    restated.set("ROIC", "0.5");
    const expected = [
      `yes: was ${valueText("AAPL", "ROIC", 2023, 5)} on 2024-03-15`,
      "no: the same on 2024-03-15",
    ];
    // The next day's first run finds the day before's answers in the file, and keeps their values.
    const second = open({ storage: new FileRecordStore(file, 10_000_000) });
    expect([await restatedOf(second, "ROIC"), await restatedOf(second, "NOPAT")]).toEqual(expected);
    await second.close();
    // Its save removed those answers; a third run reads the values it kept.
    const third = open({ storage: new FileRecordStore(file, 10_000_000) });
    expect([await restatedOf(third, "ROIC"), await restatedOf(third, "NOPAT")]).toEqual(expected);
    expect(third.stats().requestsSent).toBe(0);
    await third.close();
  });

  it("persists in the add-in's storage: IndexedDB, and OfficeRuntime.storage where IndexedDB cannot be opened", async () => {
    const stores: [string, () => KeyValueStore][] = [
      ["IndexedDB", () => new IndexedDbStore({ name: "fdq-day-before" })],
      ["OfficeRuntime.storage", () => officeStorage(officeStorageDouble(office))],
    ];
    const office = new MemoryStorage();
    for (const [where, store] of stores) {
      const { clock, restated, open } = setup(store());
      const workbook = open({ storage: store() });
      await restatedOf(workbook, "ROIC");
      await workbook.close();
      clock.now = DAY2;
      restated.set("ROIC", "0.5");
      const expected = `yes: was ${valueText("AAPL", "ROIC", 2023, 5)} on 2024-03-15`;
      const reopened = open({ storage: store() });
      expect([where, await restatedOf(reopened, "ROIC")]).toEqual([where, expected]);
      await reopened.close();
      const again = open({ storage: store() });
      expect([where, await restatedOf(again, "ROIC")]).toEqual([where, expected]);
      await again.close();
    }
    expect(office.items.has(DAY_BEFORE_KEY)).toBe(true);
  });

  it("is bounded: the cache's own budget in a store of records, at most 1 M characters in a plain store", () => {
    const file = new FileRecordStore(path.join(os.tmpdir(), "unused.json"), 1);
    expect(previousDayBound(file, DEFAULTS.maxFilePersistChars)).toBe(DEFAULTS.maxFilePersistChars);
    expect(previousDayBound(new MemoryStorage(), DEFAULTS.maxPersistChars)).toBe(MAX_PLAIN_STORE_CHARS);
    expect(MAX_PLAIN_STORE_CHARS).toBe(1_000_000);
    expect(previousDayBound(new MemoryStorage(), 2_000)).toBe(2_000);
  });

  it("is cut at its bound: past it the answers used least recently on the day before are not kept", async () => {
    // First with room for all: the stored record and each answer's share of it.
    const measure = setup();
    const all = measure.open();
    for (const t of ["AAPL", "MSFT", "IBM"]) await restatedOf(all, "ROIC", t);
    measure.clock.now = DAY2;
    await restatedOf(all, "ROIC");
    await all.close();
    const whole = (await measure.storage.get(DAY_BEFORE_KEY))!;
    const share = new Map(
      (JSON.parse(whole) as { e: [string][] }).e.map((g) => [g[0], JSON.stringify(g).length + 1]),
    );
    expect(share.size).toBe(3);
    // Room for the answers of AAPL and IBM, not for MSFT's as well.
    const bound = whole.length - share.get("metrics/roic/MSFT?year=2023")!;
    const { clock, storage, open } = setup(new MemoryStorage(), { maxPersistChars: bound });
    const client = open();
    for (const t of ["AAPL", "MSFT", "IBM"]) await restatedOf(client, "ROIC", t);
    await restatedOf(client, "NOPAT", "AAPL"); // AAPL used last: MSFT is now the least recently used
    clock.now = DAY2;
    const said = [];
    for (const t of ["AAPL", "IBM", "MSFT"]) said.push(await restatedOf(client, "ROIC", t));
    expect(said).toEqual([
      "no: the same on 2024-03-15",
      "no: the same on 2024-03-15",
      "not known: no value kept from the day before",
    ]);
    await client.close();
    const stored = (await storage.get(DAY_BEFORE_KEY))!;

    expect(stored.length).toBe(bound);
    expect((JSON.parse(stored) as { e: [string][] }).e.map((g) => g[0])).toEqual([
      "metrics/roic/AAPL?year=2023",
      "metrics/roic/IBM?year=2023",
    ]);
  });

  it("reads a stored record of the account, and does not trust one of another account or service, or a damaged one", async () => {
    const good = new MemoryStorage();
    await good.set(
      DAY_BEFORE_KEY,
      JSON.stringify({
        v: 1,
        scope: SCOPE,
        day: "2024-03-15",
        e: [["metrics/roic/AAPL?year=2023", ["ROIC"], ["0.1"]]],
      }),
    );
    const read = setup(good);
    read.clock.now = DAY2;
    const reader = read.open();
    expect(await restatedOf(reader, "ROIC")).toBe("yes: was 0.1 on 2024-03-15");
    await reader.close();
    for (const text of [
      JSON.stringify({
        v: 1,
        scope: "someone@https://elsewhere/v1",
        day: "2024-03-15",
        e: [["metrics/roic/AAPL?year=2023", ["ROIC"], ["0.1"]]],
      }),
      "{not json",
      JSON.stringify({ v: 1, scope: "x", day: "yesterday", e: [["a", ["B"], []]] }),
    ]) {
      const storage = new MemoryStorage();
      await storage.set(DAY_BEFORE_KEY, text);
      const { clock, open } = setup(storage);
      clock.now = DAY2;
      const client = open();
      expect(await restatedOf(client, "ROIC")).toBe("not known: no value kept from the day before");
      await client.close();
    }
  });
  it("refuses a stored day later than tomorrow, which would hide every turn until then", async () => {
    const storage = new MemoryStorage();
    const later = [["metrics/roic/AAPL?year=2023", ["ROIC"], ["0.1"]]];
    await storage.set(DAY_BEFORE_KEY, JSON.stringify({ v: 1, scope: SCOPE, day: "2024-03-20", e: later }));
    const { clock, open } = setup(storage);
    const client = open();
    await restatedOf(client, "ROIC");
    clock.now = DAY2;
    expect(await restatedOf(client, "ROIC")).toBe("no: the same on 2024-03-15");
    await client.close();
  });
});
