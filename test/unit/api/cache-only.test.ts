// Cache-only calls (CallOptions.cacheOnly, what Excel's formula value preview reads with): answered from
// today's cache or refused with NotCachedError and the price of the request, without sending, joining or
// shaping any request of the calls around them.
import { NotCachedError, UncoveredTickerError } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { FakeFetch, json, makeClient, specError } from "./fake-fetch";

const CACHE_ONLY = { cacheOnly: true } as const;
const roic = { ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022 };

async function refusal(call: Promise<unknown>): Promise<NotCachedError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotCachedError);
  return error as NotCachedError;
}

describe("a cache-only call", () => {
  it("is refused with its request's price, then answered from the cache once an entered call fetched it", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-datapoint" });
    expect((await refusal(client.datapoint(roic, CACHE_ONLY))).units).toBe(1);
    const whole = { ticker: "MSFT", dataset: "metrics/roic", year: 2022 };
    expect((await refusal(client.dataset(whole, CACHE_ONLY))).units).toBe(
      findDataset("metrics/roic")!.datapoints.length,
    );
    expect(fake.count).toBe(0);
    const entered = await client.datapoint(roic);
    const preview = await client.datapoint(roic, CACHE_ONLY);
    expect(preview).toMatchObject({ value: entered.value, source: "cache" });
    expect(fake.count).toBe(1);
    expect(client.stats().unitsSpent).toBe(1);
  });

  it("joins no request in flight: the entered call's answer is its own, and the refusal does not reach it", async () => {
    const fake = new FakeFetch();
    fake.latencyMs = 20;
    const client = makeClient(fake, { billing: "per-datapoint" });
    const entered = client.datapoint(roic);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await refusal(client.datapoint(roic, CACHE_ONLY));
    expect((await entered).source).toBe("network");
    expect(fake.count).toBe(1);
    expect(client.stats().coalescedCalls).toBe(0);
  });

  it("does not join a recalculation's gathering: the entered calls' plan stays their own", async () => {
    const dataset = findDataset("metrics/roic")!;
    const [first, ...rest] = dataset.datapoints.map((d) => d.name);
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-datapoint", coalesceWindowMs: 10 });
    const ask = (name: string) => ({ ...roic, dataset: dataset.path, name });
    // Every name entered but one, and that one previewed: together they would be the whole dataset.
    const [entered, preview] = await Promise.all([
      Promise.all(rest.map((name) => client.datapoint(ask(name)))),
      refusal(client.datapoint(ask(first!), CACHE_ONLY)),
    ]);
    expect(entered).toHaveLength(rest.length);
    expect(preview.units).toBe(1);
    expect(fake.seen.map((s) => s.url.searchParams.get("datapoint"))).toEqual(rest);
  });

  it("asks no coverage question: refused with its price, and the entered call still asks it", async () => {
    let coverageAnswers = 0;
    const fake = new FakeFetch((url) => {
      if (!url.pathname.includes("/coverage/")) return specError("DataNotFound");
      // The first coverage question fails in passing (an outage), so no verdict is known today.
      return coverageAnswers++ === 0
        ? json(503, { message: "Service Unavailable" })
        : specError("DataNotFound");
    });
    const client = makeClient(fake, { retry: { attempts: 1 } });
    const zzzs = { ...roic, ticker: "ZZZS" };
    await expect(client.datapoint(zzzs)).rejects.toThrow("The requested data was not found.");
    expect(fake.count).toBe(2);
    expect((await refusal(client.datapoint(zzzs, CACHE_ONLY))).units).toBe(1);
    expect(fake.count).toBe(2);
    await expect(client.datapoint(zzzs)).rejects.toBeInstanceOf(UncoveredTickerError);
    expect(fake.count).toBe(3);
    // Known now: the cache-only call answers what the entered one does, with no request.
    await expect(client.datapoint(zzzs, CACHE_ONLY)).rejects.toBeInstanceOf(UncoveredTickerError);
    await expect(client.datapoint({ ...zzzs, year: 2021 }, CACHE_ONLY)).rejects.toBeInstanceOf(
      UncoveredTickerError,
    );
    expect(fake.count).toBe(3);
  });

  it("starts no latest-period search and joins none: refused with the search's and the call's price", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-datapoint" });
    const fy0 = { ...roic, year: "FY0" };
    const fy1 = { ...roic, year: "FY-1" };
    await client.ready();
    const [fy0Price, fy1Price] = [fy0, fy1].map(
      (request) => client.estimate([{ kind: "datapoint", request }]).units,
    );
    expect((await refusal(client.datapoint(fy0, CACHE_ONLY))).units).toBe(fy0Price);
    expect((await refusal(client.datapoint(fy1, CACHE_ONLY))).units).toBe(fy1Price);
    expect(fake.count).toBe(0);
    const searching = client.datapoint(fy0);
    await refusal(client.datapoint(fy0, CACHE_ONLY));
    const entered = await searching;
    expect(await client.datapoint(fy0, CACHE_ONLY)).toMatchObject({ value: entered.value, source: "cache" });
  });

  it("joined refusals count each search once, at the least any of its calls gives it", () => {
    const search = (units: number) => [{ id: "MSFT|annual", units }];
    const joined = NotCachedError.joined([
      new NotCachedError({ units: 2, shared: search(1) }),
      new NotCachedError({ units: 2, shared: search(1) }),
      new NotCachedError({ units: 1, shared: search(0) }),
      new NotCachedError({ units: 1 }),
    ]);
    expect(joined.units).toBe(4);
  });

  it("joined refusals count the coverage list their ticker would ask first once", () => {
    const list = { id: "coverage/stock", units: 1 };
    const year = () => new NotCachedError({ units: 1 }).with(list);
    expect(year().units).toBe(2);
    expect(NotCachedError.joined([year(), year(), year()]).units).toBe(3 + 1);
  });

  it("a preview of a ticker whose coverage is not known today is priced with the day's coverage list", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { coverageCheck: "list", billing: "per-datapoint" });
    const year = { ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2023 };
    expect((await refusal(client.datapoint(year, CACHE_ONLY))).units).toBe(1 + 1);
    expect((await refusal(client.datapoint({ ...year, year: "FY0" }, CACHE_ONLY))).units).toBe(1 + 1);
    expect(fake.count).toBe(0);
    await client.datapoint({ ...year, ticker: "MSFT" });
    expect(fake.seen.map((s) => s.url.pathname)).toEqual(["/v1/coverage/stock", "/v1/metrics/roic/MSFT"]);
    // Today's list is cached: the preview's price is the call's own request.
    expect((await refusal(client.datapoint(year, CACHE_ONLY))).units).toBe(1);
    await client.close();
  });
});
