// The shared runtime's one client: built from the saved settings on first use, replaced on new settings.
import { NotConfiguredError, type ClientEvent } from "../../../src/api";
import {
  configureSharedClient,
  getSharedClient,
  onSharedClientEvent,
  resetSharedClient,
} from "../../../src/host/shared-client";
import { officeStorageDouble } from "../../support/office-storage";
import { API_KEY, BASE_URL, FakeFetch } from "../api/fake-fetch";

const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };
const storage = officeStorageDouble();
const items = storage.memory.items;
const officeRuntime = { storage };

let fake: FakeFetch;
beforeEach(() => {
  items.clear();
  fake = new FakeFetch();
  jest.spyOn(globalThis, "fetch").mockImplementation(fake.fetch);
  (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = officeRuntime;
});
afterEach(async () => {
  await resetSharedClient();
  delete (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime;
  jest.restoreAllMocks();
});

describe("shared client", () => {
  it("is usable at once and rejects calls with NotConfiguredError while no key is saved, then picks the key up", async () => {
    const client = getSharedClient();
    expect(getSharedClient()).toBe(client);
    await expect(client.datapoint(request)).rejects.toThrow(NotConfiguredError);
    items.set("fdq.settings", JSON.stringify({ baseUrl: BASE_URL, apiKey: API_KEY }));
    expect((await client.datapoint(request)).source).toBe("network");
    expect(fake.seen[0]?.headers.get("x-api-key")).toBe(API_KEY);
  });

  it("persists its cache in OfficeRuntime.storage", async () => {
    items.set("fdq.settings", JSON.stringify({ baseUrl: BASE_URL, apiKey: API_KEY }));
    await getSharedClient().datapoint(request);
    await getSharedClient().flush();
    expect(JSON.parse(items.get("fdq.cache")!)).toMatchObject({ v: 2, chunks: 1 });
  });

  it("is replaced by configureSharedClient, and listeners follow every shared client", async () => {
    const events: ClientEvent["type"][] = [];
    const stop = onSharedClientEvent((e) => events.push(e.type));
    const before = getSharedClient();
    const after = configureSharedClient({ baseUrl: BASE_URL, apiKey: "new-key" });
    expect(after).not.toBe(before);
    expect(getSharedClient()).toBe(after);
    await after.datapoint(request);
    expect(fake.seen[0]?.headers.get("x-api-key")).toBe("new-key");
    // The add-in's default coverage rule: the day's stock coverage list, then the value.
    expect(fake.seen.map((r) => r.url.pathname)).toEqual(["/v1/coverage/stock", "/v1/metrics/roic/AAPL"]);
    expect(events).toEqual(["request", "response", "request", "response"]);
    stop();
    await after.datapoint({ ...request, year: 2022 });
    expect(events).toHaveLength(4);
  });
});

describe("storage under Office.context.partitionKey", () => {
  afterEach(() => {
    delete (globalThis as { Office?: unknown }).Office;
  });

  it("reads the settings and keeps the cache under the partition key where Office defines one", async () => {
    (globalThis as { Office?: unknown }).Office = { context: { partitionKey: "tenant-1" } };
    // Another partition's settings (unprefixed) are not this one's.
    items.set("fdq.settings", JSON.stringify({ baseUrl: BASE_URL, apiKey: "other-partition-key" }));
    items.set("tenant-1/fdq.settings", JSON.stringify({ baseUrl: BASE_URL, apiKey: API_KEY }));
    await getSharedClient().datapoint(request);
    expect(fake.seen[0]?.headers.get("x-api-key")).toBe(API_KEY);
    await getSharedClient().flush();
    // No IndexedDB in this runtime: the cache falls back to OfficeRuntime.storage, partitioned too.
    expect(JSON.parse(items.get("tenant-1/fdq.cache")!)).toMatchObject({ v: 2, chunks: 1 });
    expect(items.has("fdq.cache")).toBe(false);
  });

  it("uses the keys as they are where Office defines no partition key", async () => {
    (globalThis as { Office?: unknown }).Office = { context: {} };
    items.set("fdq.settings", JSON.stringify({ baseUrl: BASE_URL, apiKey: API_KEY }));
    await getSharedClient().datapoint(request);
    await getSharedClient().flush();
    expect([...items.keys()].filter((k) => k.includes("/"))).toEqual([]);
    expect(items.has("fdq.cache")).toBe(true);
  });
});
