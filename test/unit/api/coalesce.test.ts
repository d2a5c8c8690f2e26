// Speed: coalescing single-datapoint calls into one all-datapoints request, sharing identical requests,
// de-duplicating fundamentals, and the concurrency limit with its FIFO queue.
import { DataPointNotFoundError, type FdqError } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { FakeFetch, envelope, makeClient, valueText } from "./fake-fetch";

const screens = findDataset("screens/enhanced")!;
const names = screens.datapoints.map((d) => d.name);

describe("coalescing", () => {
  it("turns 200 single-datapoint calls for one ticker, dataset and period into one all-datapoints request", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    const calls = Array.from({ length: 200 }, (_, i) => names[i % names.length]!);
    const results = await Promise.all(
      calls.map((name) =>
        client.datapoint({ ticker: "MSFT", dataset: "enhanced", name, year: 2022, quarter: 3 }),
      ),
    );
    expect(fake.count).toBe(1);
    expect(fake.seen[0]!.url.search).toBe("?year=2022&quarter=3");
    expect(results.map((r) => r.value)).toEqual(
      calls.map((name) => Number(valueText("MSFT", name, 2022, 3))),
    );
    expect(results.map((r) => r.record.datapoint)).toEqual(calls);
    expect(client.stats().coalescedCalls).toBe(199);
  });

  it("asks for the whole dataset even for a call alone in its window, and answers its siblings from cache", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    const first = await client.datapoint({
      ticker: "MSFT",
      dataset: "enhanced",
      name: names[0]!,
      year: 2022,
    });
    const sibling = await client.datapoint({
      ticker: "MSFT",
      dataset: "enhanced",
      name: names[5]!,
      year: 2022,
    });
    expect(first.source).toBe("network");
    expect(sibling.source).toBe("cache");
    expect(sibling.url).toBe("https://fdq.test/v1/screens/enhanced/MSFT?year=2022");
    expect(fake.count).toBe(1);
  });

  it("gives DataPointNotFound to the caller whose datapoint is missing from the whole-dataset answer, then remembers it", async () => {
    const fake = new FakeFetch(() =>
      envelope(
        names
          .slice(1)
          .map((name) => ({ ticker: "MSFT", year: 2022, period: 5, datapoint: name, datavalue: "1.5" })),
      ),
    );
    const client = makeClient(fake);
    const outcomes = await Promise.allSettled(
      [names[0]!, names[1]!].map((name) =>
        client.datapoint({ ticker: "MSFT", dataset: "enhanced", name, year: 2022 }),
      ),
    );
    expect(outcomes[0]).toMatchObject({ status: "rejected", reason: expect.any(DataPointNotFoundError) });
    expect(outcomes[1]).toMatchObject({ status: "fulfilled", value: { value: 1.5 } });
    const again = await client
      .datapoint({ ticker: "MSFT", dataset: "enhanced", name: names[0]!, year: 2022 })
      .catch((e: unknown) => e as FdqError);
    expect(again).toBeInstanceOf(DataPointNotFoundError);
    expect(fake.count).toBe(1);
  });

  it("keeps different periods, tickers and datasets in separate requests", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    await Promise.all([
      client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022 }),
      client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022, quarter: 1 }),
      client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022, ttm: 1 }),
      client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2021 }),
      client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 }),
      client.datapoint({ ticker: "MSFT", dataset: "ebv", name: "NOPAT", year: 2022 }),
    ]);
    expect(fake.seen.map((s) => s.url.pathname + s.url.search).sort()).toEqual([
      "/v1/metrics/ebv/MSFT?year=2022",
      "/v1/metrics/roic/AAPL?year=2022",
      "/v1/metrics/roic/MSFT?year=2021",
      "/v1/metrics/roic/MSFT?year=2022",
      "/v1/metrics/roic/MSFT?year=2022&quarter=1",
      "/v1/metrics/roic/MSFT?year=2022&ttm=1",
    ]);
  });

  it("shares one in-flight request between dataset() and datapoint() callers", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    const [whole, one] = await Promise.all([
      client.dataset({ ticker: "MSFT", dataset: "roic", year: 2022 }),
      client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022 }),
    ]);
    expect(fake.count).toBe(1);
    expect(whole.records.map((r) => r.datapoint)).toEqual(findDataset("roic")!.datapoints.map((d) => d.name));
    expect(whole.values[whole.records.findIndex((r) => r.datapoint === "ROIC")]).toBe(one.value);
    const cached = await client.dataset({ ticker: "MSFT", dataset: "roic", year: 2022 });
    expect(cached.source).toBe("cache");
    expect(cached.values).toEqual(whole.values);
  });

  it("sends fundamentals one request per distinct datapoint, de-duplicated", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    const asked = [
      "ACCOUNTS_PAYABLE",
      "ACCOUNTS_RECEIVABLE",
      "ACCOUNTS_PAYABLE",
      "ADJUSTMENT_DCF_TOTAL",
      "accounts_payable",
    ];
    const results = await Promise.all(
      asked.map((name) =>
        client.datapoint({ ticker: "AAPL", dataset: "fundamentals/adjusted", name, year: 2023 }),
      ),
    );
    expect(fake.seen.map((s) => s.url.searchParams.get("datapoint"))).toEqual([
      "ACCOUNTS_PAYABLE",
      "ACCOUNTS_RECEIVABLE",
      "ADJUSTMENT_DCF_TOTAL",
    ]);
    expect(results.map((r) => r.value)).toEqual(
      asked.map((name) => Number(valueText("AAPL", name.toUpperCase(), 2023, 5))),
    );
    expect(client.stats().coalescedCalls).toBe(2);
  });
});

describe("concurrency limit", () => {
  // A burst hundreds of times the limit proves the rule; the scale of a whole model is the benchmarks' job
  // (bench/README.md), and 50,000 calls here cost half a minute of every run.
  it("never opens more than the limit during a burst of 2,000 calls, and serves them in FIFO order", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { concurrency: 6 });
    const tickers = Array.from({ length: 2_000 }, (_, i) => `T${i}`);
    const results = await Promise.all(
      tickers.map((ticker) =>
        client.datapoint({ ticker, dataset: "fundamentals/reported", name: "ACCOUNTS_PAYABLE", year: 2023 }),
      ),
    );
    expect(results).toHaveLength(2_000);
    expect(fake.count).toBe(2_000);
    expect(fake.maxOpen).toBe(6);
    expect(client.stats()).toMatchObject({ maxInFlight: 6, inFlight: 0, queued: 0 });
    expect(fake.seen.map((s) => s.url.pathname.split("/")[4])).toEqual(tickers);
  });

  it("applies a configured limit to requests that take time", async () => {
    const fake = new FakeFetch();
    fake.latencyMs = 5;
    const client = makeClient(fake, { concurrency: 2 });
    await Promise.all(
      ["A", "B", "C", "D", "E", "F", "G"].map((ticker) =>
        client.datapoint({ ticker, dataset: "roic", name: "ROIC", year: 2023 }),
      ),
    );
    expect(fake.count).toBe(7);
    expect(fake.maxOpen).toBe(2);
  });
});
