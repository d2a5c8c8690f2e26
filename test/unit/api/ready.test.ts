// FdqClient.ready(): a lazily configured client (as the shared runtime's) can be awaited until it knows its
// settings and has loaded its saved cache, so planDatapoint answers without a call being made first.
import { FdqClient, MemoryStorage, NotConfiguredError, type ClientOptions } from "../../../src/api";
import { API_KEY, BASE_URL, FakeFetch, makeClient } from "./fake-fetch";

const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };
const NOW = Date.parse("2024-03-15T15:00:00Z");

function lazyClient(fake: FakeFetch, storage: MemoryStorage, settings: { apiKey?: string }) {
  let asked = 0;
  const client = new FdqClient(async (): Promise<ClientOptions> => {
    asked++;
    if (!settings.apiKey) throw new NotConfiguredError();
    return { baseUrl: BASE_URL, apiKey: settings.apiKey, fetch: fake.fetch, now: () => NOW, storage };
  });
  return { client, asked: () => asked };
}

describe("FdqClient.ready()", () => {
  it("rejects with NotConfiguredError while no key is known, then resolves once the key is saved; sends nothing", async () => {
    const fake = new FakeFetch();
    const settings: { apiKey?: string } = {};
    const { client, asked } = lazyClient(fake, new MemoryStorage(), settings);
    await expect(client.ready()).rejects.toThrow(NotConfiguredError);
    expect(() => client.plan({ kind: "datapoint", request })).toThrow(NotConfiguredError);

    settings.apiKey = API_KEY;
    await expect(client.ready()).resolves.toBeUndefined();
    expect(asked()).toBe(2);
    const plan = client.plan({ kind: "datapoint", request });
    // Per-datapoint billing (the default): a lone datapoint is asked alone, and costs 1 unit.
    expect(plan.url).toBe(`${BASE_URL}/metrics/roic/AAPL?datapoint=ROIC&year=2023`);
    expect(plan.cached).toBe(false);
    expect(plan.units).toBe(1);
    expect(fake.count).toBe(0);
    await client.close();
  });

  it("resolves only after the saved cache is loaded, so a plan sees today's entries of an earlier session", async () => {
    const fake = new FakeFetch();
    const storage = new MemoryStorage();
    const earlier = makeClient(fake, { now: () => NOW, storage });
    await earlier.datapoint(request);
    await earlier.close();
    expect(fake.count).toBe(1);

    const { client } = lazyClient(fake, storage, { apiKey: API_KEY });
    await client.ready();
    expect(client.plan({ kind: "datapoint", request }).cached).toBe(true);
    expect((await client.datapoint(request)).source).toBe("cache");
    expect(fake.count).toBe(1);
    await client.close();
  });

  it("asks for the options once for simultaneous callers", async () => {
    const fake = new FakeFetch();
    const { client, asked } = lazyClient(fake, new MemoryStorage(), { apiKey: API_KEY });
    await Promise.all([client.ready(), client.ready(), client.datapoint(request)]);
    expect(asked()).toBe(1);
    // The client's default coverage rule asks the day's stock list before the ticker's first data request.
    expect(fake.seen.map((s) => s.url.pathname)).toEqual(["/v1/coverage/stock", "/v1/metrics/roic/AAPL"]);
    await client.close();
  });

  it("resolves at once for a client built with options", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    await expect(client.ready()).resolves.toBeUndefined();
    expect(client.plan({ kind: "datapoint", request }).cached).toBe(false);
    expect(fake.count).toBe(0);
    await client.close();
  });
});
