// The CLI file store (atomic JSON file, batched rewrites), the settings store and the base URL rule.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  DEFAULT_BASE_URL,
  InvalidArgumentError,
  MemoryStorage,
  checkBaseUrl,
  loadSettings,
  officeStorage,
  saveSettings,
  type ClientEvent,
} from "../../../src/api";
import { FileStorage } from "../../../src/api/storage-file";
import { officeStorageDouble } from "../../support/office-storage";
import { FakeFetch, makeClient } from "./fake-fetch";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "fdq-api-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("file storage", () => {
  it("stores strings by key in one JSON file, replaced through a temporary file", async () => {
    const file = path.join(dir, "nested", "cache.json");
    const store = new FileStorage(file);
    expect(await store.get("a")).toBeNull();
    await store.set("a", "1");
    await store.set("b", "two");
    await store.remove("a");
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({ b: "two" });
    expect(await fs.readdir(path.dirname(file))).toEqual(["cache.json"]);
    expect(await new FileStorage(file).get("b")).toBe("two");
  });

  it("rewrites the file once for changes made together, not once per change", async () => {
    const file = path.join(dir, "cache.json");
    const store = new FileStorage(file);
    await store.set("old", "x");
    const renames = jest.spyOn(fs, "rename");
    try {
      await Promise.all([store.set("a", "1"), store.set("b", "2"), store.remove("old")]);
      expect(renames).toHaveBeenCalledTimes(1);
    } finally {
      renames.mockRestore();
    }
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({ a: "1", b: "2" });
  });

  it("reports an unreadable file once, then treats it as empty and replaces it on the next write", async () => {
    const file = path.join(dir, "cache.json");
    await fs.writeFile(file, "\u0000garbage{");
    const store = new FileStorage(file);
    await expect(store.get("x")).rejects.toThrow(SyntaxError);
    expect(await store.get("x")).toBeNull();
    await store.set("x", "y");
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({ x: "y" });
  });

  it("lets a client survive a restart and a corrupted store file", async () => {
    const file = path.join(dir, "cache.json");
    const fake = new FakeFetch();
    const events: ClientEvent[] = [];
    const create = () => makeClient(fake, { storage: new FileStorage(file), onEvent: (e) => events.push(e) });
    const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };
    const first = create();
    await first.datapoint(request);
    await first.close();
    const second = create();
    expect((await second.datapoint(request)).source).toBe("cache");
    await second.close();
    await fs.writeFile(file, "{ truncated");
    const third = create();
    expect((await third.datapoint(request)).source).toBe("network");
    await third.close();
    expect(events.filter((e) => e.type === "cache-warning")).toHaveLength(1);
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toHaveProperty(["fdq.cache"]);
    expect(fake.count).toBe(2);
  });
});

describe("settings", () => {
  it.each([
    ["https://api.newconstructs.com/v1/", "https://api.newconstructs.com/v1"],
    [" http://127.0.0.1:4010/v1 ", "http://127.0.0.1:4010/v1"],
    ["http://localhost:4010/v1", "http://localhost:4010/v1"],
    ["HTTPS://Proxy.Example.com/fdq/v1", "https://proxy.example.com/fdq/v1"],
  ])("accepts %s as %s", (url, clean) => {
    expect(checkBaseUrl(url)).toBe(clean);
  });

  it.each([
    [
      "http://api.newconstructs.com/v1",
      "baseUrl must start with https:// (http:// is allowed only for localhost and 127.0.0.1).",
    ],
    [
      "ftp://localhost/v1",
      "baseUrl must start with https:// (http:// is allowed only for localhost and 127.0.0.1).",
    ],
    ["not a url", 'baseUrl "not a url" is not a URL.'],
    ["https://user:pw@host/v1", "baseUrl must not carry a user name, password, query or fragment."],
    ["https://host/v1?key=1", "baseUrl must not carry a user name, password, query or fragment."],
  ])("rejects %s", (url, message) => {
    expect(() => checkBaseUrl(url)).toThrow(
      new InvalidArgumentError({ argument: "baseUrl", message: message }),
    );
  });

  it("saves normalised settings and loads them back; defaults when none or unreadable", async () => {
    const storage = new MemoryStorage();
    expect(await loadSettings(storage)).toEqual({ baseUrl: DEFAULT_BASE_URL, apiKey: "" });
    const saved = await saveSettings(storage, { baseUrl: "http://127.0.0.1:4010/v1/", apiKey: " k-1 " });
    expect(saved).toEqual({ baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k-1" });
    expect(await loadSettings(storage)).toEqual(saved);
    await storage.set("fdq.settings", "{oops");
    expect(await loadSettings(storage)).toEqual({ baseUrl: DEFAULT_BASE_URL, apiKey: "" });
    await expect(saveSettings(storage, { baseUrl: "http://example.com", apiKey: "k" })).rejects.toThrow(
      InvalidArgumentError,
    );
  });

  it("keeps the billing model and the refresh policy, which a connection save leaves as they were", async () => {
    const storage = new MemoryStorage();
    const base = { baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k-1" };
    await saveSettings(storage, {
      ...base,
      billing: "per-request",
      refreshPolicy: { kind: "saver", keepDays: 5 },
    });
    await saveSettings(storage, { ...base, apiKey: "k-2" });
    expect(await loadSettings(storage)).toEqual({
      ...base,
      apiKey: "k-2",
      billing: "per-request",
      refreshPolicy: { kind: "saver", keepDays: 5 },
    });
    await storage.set(
      "fdq.settings",
      JSON.stringify({ ...base, billing: "free", refreshPolicy: { kind: "x" } }),
    );
    expect(await loadSettings(storage)).toEqual(base);
  });

  it("adapts OfficeRuntime.storage's getItem/setItem/removeItem", async () => {
    const office = officeStorageDouble();
    const adapter = officeStorage(office);
    await adapter.set("k", "v");
    expect(office.memory.items.get("k")).toBe("v");
    expect(await adapter.get("k")).toBe("v");
    await adapter.remove("k");
    expect(office.memory.items.size).toBe(0);
  });
});
