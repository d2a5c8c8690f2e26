// The CLI's cache file (issue 13): writers on one file merge instead of overwriting, a failed save leaves
// no temporary file, an oversized or damaged file is refused before it is read into memory.
import { promises as fs, mkdirSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { accountTag } from "../../../src/api/account-tag";
import { toValue } from "../../../src/api/decode";
import { DEFAULTS } from "../../../src/api/defaults";
import { FileRecordStore } from "../../../src/api/cache-store/file-record-store";
import type { PersistenceContext } from "../../../src/api/cache-store/persistence";
import { RecordPersistence } from "../../../src/api/cache-store/record-persistence";
import { RefreshDayClock } from "../../../src/api/refresh-day";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "fdq-file-store-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const MB = 1_000_000;
const readJson = async (file: string): Promise<Record<string, string>> =>
  JSON.parse(await fs.readFile(file, "utf8")) as Record<string, string>;

describe("FileRecordStore", () => {
  it("merges the records of two writers on one file instead of keeping the last one's", async () => {
    const file = path.join(dir, "cache", "a.json");
    const one = new FileRecordStore(file, MB);
    const two = new FileRecordStore(file, MB);
    // Both read the (missing) file first, as two runs starting together do.
    expect(await one.list("")).toEqual([]);
    expect(await two.list("")).toEqual([]);
    await Promise.all([
      one.commit({ removes: [], puts: new Map([["p/x", "1"]]) }),
      two.commit({ removes: [], puts: new Map([["p/y", "2"]]) }),
      one.update("count", (old) => String(Number(old ?? 0) + 3)),
      two.update("count", (old) => String(Number(old ?? 0) + 4)),
    ]);
    expect(await readJson(file)).toEqual({ "p/x": "1", "p/y": "2", count: "7" });
    // A removal sent by one writer removes only what it names; a prefix removal everything under it.
    await two.commit({ removes: ["p/x"], puts: new Map() });
    expect(await readJson(file)).toEqual({ "p/y": "2", count: "7" });
    await one.commit({ removePrefix: "p/", removes: [], puts: new Map([["p/z", "3"]]) });
    expect(await readJson(file)).toEqual({ "p/z": "3", count: "7" });
    expect(await one.list("p/")).toEqual([["p/z", "3"]]);
    expect((await fs.readdir(path.dirname(file))).sort()).toEqual(["a.json"]);
  });

  it("writes the same JSON as one JSON.stringify, texts needing escapes and files of many pieces included", async () => {
    const file = path.join(dir, "a.json");
    const store = new FileRecordStore(file, 10 * MB);
    // About 1.5 MB: written in pieces of about 64 KB, never as one string.
    const puts = new Map<string, string>();
    for (let i = 0; i < 1_500; i++) puts.set(`p/${i}`, `["x\\y","é\u2028\n${i}",${"1".repeat(1_000)}]`);
    puts.set('q/"quoted"\n', "");
    await store.commit({ removes: [], puts });
    expect(await fs.readFile(file, "utf8")).toBe(JSON.stringify(Object.fromEntries(puts)));
  });

  it("after its own rewrite, reads the file again: what another writer added since is listed", async () => {
    const file = path.join(dir, "a.json");
    const one = new FileRecordStore(file, MB);
    const two = new FileRecordStore(file, MB);
    await one.commit({ removes: [], puts: new Map([["p/x", "1"]]) });
    await two.commit({ removes: [], puts: new Map([["p/y", "2"]]) });
    expect(await one.list("p/")).toEqual([
      ["p/x", "1"],
      ["p/y", "2"],
    ]);
  });

  it("lists the records under a prefix in key order, whatever order the file holds them in", async () => {
    const file = path.join(dir, "a.json");
    // "p/\uffff" sorts last under "p/"; "p0" and "o" are outside it; "p/Z" < "p/a" by code unit, as `<` says.
    const text = JSON.stringify({ "p/b": "2", p0: "x", "p/a": "1", o: "y", "p/\uffff": "4", "p/Z": "0" });
    writeFileSync(file, text);
    expect(await new FileRecordStore(file, MB).list("p/")).toEqual([
      ["p/Z", "0"],
      ["p/a", "1"],
      ["p/b", "2"],
    ]);
  });

  it("removes its temporary file when the rename fails (a directory where the file should be)", async () => {
    const file = path.join(dir, "a.json");
    mkdirSync(path.join(file, "occupied"), { recursive: true });
    const store = new FileRecordStore(file, MB);
    await expect(store.get("k")).rejects.toThrow(); // EISDIR: reported once
    await expect(
      store.commit({ removes: [], puts: new Map([["k", "x".repeat(100_000)]]) }),
    ).rejects.toThrow();
    expect((await fs.readdir(dir)).sort()).toEqual(["a.json"]);
  });

  it("removes its temporary file when the disk fills up while writing", async () => {
    const file = path.join(dir, "a.json");
    const store = new FileRecordStore(file, MB);
    const realWrite = fs.writeFile;
    const full = jest.spyOn(fs, "writeFile").mockImplementation(async (target, data, options) => {
      // Half of the text reaches the disk, then ENOSPC, as a full disk does.
      await realWrite(target as string, String(data).slice(0, String(data).length / 2), options);
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    });
    try {
      await expect(
        store.commit({ removes: [], puts: new Map([["k", "x".repeat(100_000)]]) }),
      ).rejects.toThrow("ENOSPC");
    } finally {
      full.mockRestore();
    }
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it("clears the temporary files a killed run left, at its next write", async () => {
    const file = path.join(dir, "a.json");
    writeFileSync(`${file}.12345.1700000000000.tmp`, "x".repeat(10_000));
    await new FileRecordStore(file, MB).set("k", "v");
    expect(await fs.readdir(dir)).toEqual(["a.json"]);
  });

  it("refuses a file over its bound before reading it, once, then counts it as empty and replaces it", async () => {
    const file = path.join(dir, "a.json");
    writeFileSync(file, JSON.stringify({ big: "x".repeat(2 * MB) }));
    const store = new FileRecordStore(file, MB);
    await expect(store.list("")).rejects.toThrow(`${file} is larger than 1000000 bytes`);
    expect(await store.list("")).toEqual([]);
    await store.set("k", "v");
    expect(await readJson(file)).toEqual({ k: "v" });
  });

  it.each([
    ["truncated JSON", '{"a":"1"'],
    ["a list", "[1,2]"],
    ["null", "null"],
    ["a record that is not a text", '{"a":"1","b":2}'],
  ])("reports %s once, then counts the file as empty", async (_, text) => {
    const file = path.join(dir, "a.json");
    writeFileSync(file, text);
    const store = new FileRecordStore(file, MB);
    await expect(store.get("a")).rejects.toThrow();
    expect(await store.get("a")).toBeNull();
  });
});

describe("RecordPersistence on the CLI's file", () => {
  const clock = new RefreshDayClock(DEFAULTS.refreshDay);
  const now = Date.parse("2026-03-04T15:00:00Z");
  const today = clock.label(now);
  const scope = `${accountTag("k")}@http://127.0.0.1:1/v1`;
  const context = (warnings: string[], maxChars = MB): PersistenceContext => ({
    scope,
    clock,
    now: () => now,
    today: () => today,
    toValue,
    maxChars,
    warn: (m) => warnings.push(m),
  });
  const record = (data: string, at: number): string => JSON.stringify([[2, data], today, at]);

  it("loads the answers oldest written first, and drops the oldest first over the budget", async () => {
    const file = path.join(dir, "a.json");
    const prefix = `fdq.cache\n${scope}\n`;
    const { from, until } = clock.window();
    writeFileSync(
      file,
      JSON.stringify({
        [`${prefix}meta`]: JSON.stringify({ v: 3, scope, day: today, clock: clock.key, from, until }),
        // Key order a, b, c, d; written at 3, 1, 2, 1: b and d (same time) keep their key order.
        [`${prefix}e:a`]: record("A", now - 3),
        [`${prefix}e:b`]: record("B", now - 10),
        [`${prefix}e:c`]: record("C", now - 5),
        [`${prefix}e:d`]: record("D", now - 10),
      }),
    );
    const warnings: string[] = [];
    const all = await new RecordPersistence(
      new FileRecordStore(file, MB),
      "fdq.cache",
      context(warnings),
    ).load();
    expect(all?.entries.map((e) => [e.rel, e.value, e.fetched])).toEqual([
      ["b", { kind: "json", data: "B" }, today],
      ["d", { kind: "json", data: "D" }, today],
      ["c", { kind: "json", data: "C" }, today],
      ["a", { kind: "json", data: "A" }, today],
    ]);
    expect(all?.stale).toBe(false);
    // Room for two records: the two oldest (b and d) go at the next save.
    const budget = record("A", now - 3).length * 2;
    const store = new FileRecordStore(file, MB);
    const bounded = await new RecordPersistence(store, "fdq.cache", context(warnings, budget)).load();
    expect(bounded?.entries.map((e) => e.rel)).toEqual(["c", "a"]);
    expect(bounded?.stale).toBe(true);
    expect(warnings).toEqual([]);
  });
});
