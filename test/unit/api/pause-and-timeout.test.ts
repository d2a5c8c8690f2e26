// A 429 pause holds back every request, queued ones included; every call settles by its timeout even when
// fetch ignores the abort signal.
import { TimeoutError, type FdqError } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { FakeFetch, json, makeClient } from "./fake-fetch";

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe("429 pause", () => {
  it("starts no request, queued ones included, until the Retry-After pause ends", async () => {
    let pauseOver = false;
    const startedDuringPause: number[] = [];
    const fake = new FakeFetch((_url, n) => {
      if (!pauseOver && n > 1) startedDuringPause.push(n);
      return n === 1 ? json(429, { message: "Too Many Requests" }, { "retry-after": "1" }) : "default";
    });
    const pauses: { ms: number; end: () => void }[] = [];
    const client = makeClient(fake, {
      concurrency: 2,
      sleep: (ms) => new Promise<void>((end) => pauses.push({ ms, end })),
    });
    const name = findDataset("fundamentals/reported")!.datapoints[0]!.name;
    const tickers = ["AAPL", "MSFT", "NFLX", "AMZN", "GOOG", "META", "NVDA", "TSLA", "IBM", "ORCL"];
    const calls = tickers.map((ticker) =>
      client.datapoint({ ticker, dataset: "fundamentals/reported", name, year: 2023 }),
    );
    await settle();
    // Only the request that shared the first slot pair had started before the 429 arrived.
    expect(fake.count).toBe(2);
    expect(pauses.map((p) => p.ms)).toEqual([1000]);
    pauseOver = true;
    pauses[0]!.end();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.record.ticker)).toEqual(tickers);
    expect(startedDuringPause).toEqual([2]);
    expect(fake.count).toBe(11);
    expect(client.stats()).toMatchObject({ requestsSent: 11, retries: 1, maxInFlight: 2 });
  });
});

describe("timeout without the abort", () => {
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as FdqError,
    );
  const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };

  it("settles with TimeoutError when fetch never answers and ignores the signal", async () => {
    const fake = new FakeFetch(() => new Promise<Response>(() => undefined));
    const client = makeClient(fake, { timeoutMs: 50, retry: { attempts: 1 } });
    const error = await failure(client.datapoint(request));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error?.message).toBe(
      "The FDQ service did not answer within 0.05 s. Try again later, then recalculate.",
    );
    expect(client.stats()).toMatchObject({ requestsSent: 1, failures: { TimeoutError: 1 } });
  });

  it("settles with TimeoutError when the body never ends", async () => {
    const endless = () =>
      new Response(new ReadableStream({ start: () => undefined }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    const fake = new FakeFetch(endless);
    const client = makeClient(fake, { timeoutMs: 50, retry: { attempts: 1 } });
    const error = await failure(client.datapoint(request));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(client.stats().failures).toEqual({ TimeoutError: 1 });
  });
});
