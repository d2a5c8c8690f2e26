// Retries: 429, 502, 503, 504, dropped connections and timeouts, with full-jitter backoff and Retry-After;
// never for the caller's own faults.
import {
  DataNotFoundError,
  FdqError,
  NetworkError,
  RateLimitedError,
  ServiceError,
  ServiceUnavailableError,
  TimeoutError,
  UnauthorizedError,
  type ClientOptions,
} from "../../../src/api";
import { DEFAULTS } from "../../../src/api/defaults";
import { backoffDelay, parseRetryAfter } from "../../../src/api/retry";
import { sleep } from "../../../src/api/sleep";
import { FakeFetch, json, makeClient, specError, valueText, type Handler } from "./fake-fetch";

const T0 = Date.UTC(2024, 2, 15, 15, 0, 0);
const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };
const expected = Number(valueText("AAPL", "ROIC", 2023, 5));

/** Answers from `script` in order, then the normal service; records every wait and moves the clock by it. */
function scripted(script: (Response | Error)[], options: Partial<ClientOptions> = {}) {
  const waits: number[] = [];
  let now = T0;
  const handler: Handler = (_url, n) => {
    const step = script[n - 1];
    if (step instanceof Error) throw step;
    return step ?? "default";
  };
  const fake = new FakeFetch(handler);
  const client = makeClient(fake, {
    now: () => now,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    ...options,
  });
  return { fake, client, waits };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as FdqError,
  );

describe("retry timing", () => {
  it("grows the backoff ceiling exponentially up to maxDelayMs, with full jitter below it", () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6, 7].map((r) => backoffDelay(r, DEFAULTS.retry, top))).toEqual([
      499, 999, 1999, 3999, 7999, 7999, 7999,
    ]);
    expect(backoffDelay(3, DEFAULTS.retry, () => 0)).toBe(0);
    expect(backoffDelay(3, DEFAULTS.retry, () => 0.25)).toBe(500);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("7", T0)).toBe(7000);
    expect(parseRetryAfter(new Date(T0 + 12_000).toUTCString(), T0)).toBe(12_000);
    expect(parseRetryAfter(new Date(T0 - 5_000).toUTCString(), T0)).toBe(0);
    expect(parseRetryAfter("soon", T0)).toBeUndefined();
    // Anything else the RFC does not allow is ignored, never read as a date.
    for (const odd of ["-5", "1.5", "+3", "2024-03-15T10:00:00Z", "5 seconds", "99999999999"]) {
      expect([odd, parseRetryAfter(odd, T0)]).toEqual([odd, undefined]);
    }
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", Date.parse("1994-11-06T08:49:30Z"))).toBe(7000);
    expect(parseRetryAfter("Sun Nov  6 08:49:37 1994", Date.parse("1994-11-06T08:49:30Z"))).toBe(7000);
    expect(parseRetryAfter(null, T0)).toBeUndefined();
  });
});

describe("retries", () => {
  it("honours Retry-After (seconds) on 429, then answers the value", async () => {
    const { fake, client, waits } = scripted([
      json(429, { message: "Too Many Requests" }, { "retry-after": "2" }),
    ]);
    expect((await client.datapoint(request)).value).toBe(expected);
    expect(waits).toEqual([2000]);
    expect(fake.count).toBe(2);
    expect(client.stats()).toMatchObject({ requestsSent: 2, retries: 1, failures: {} });
  });

  it("holds back every other request while a 429's Retry-After runs (one shared wait)", async () => {
    let endPause: () => void = () => undefined;
    const waits: number[] = [];
    const fake = new FakeFetch((_url, n) =>
      n === 1 ? json(429, { message: "Too Many Requests" }, { "retry-after": "3" }) : "default",
    );
    const client = makeClient(fake, {
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((resolve) => (endPause = resolve));
      },
    });
    const throttled = client.datapoint(request);
    while (waits.length === 0) await sleep(1);
    const later = client.datapoint({ ...request, ticker: "MSFT" });
    await sleep(20);
    expect(fake.count).toBe(1);
    endPause();
    await Promise.all([throttled, later]);
    expect(fake.count).toBe(3);
    expect(waits).toEqual([3000]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const at = new Date(T0 + 5_000).toUTCString();
    const { client, waits } = scripted([
      json(503, { message: "Service Unavailable" }, { "retry-after": at }),
    ]);
    expect((await client.datapoint(request)).value).toBe(expected);
    expect(waits).toEqual([5000]);
  });

  it.each([502, 503, 504])("retries %i with jittered backoff", async (status) => {
    const { fake, client, waits } = scripted([json(status, { message: "Bad Gateway" }), json(status, {})]);
    expect((await client.datapoint(request)).value).toBe(expected);
    expect(waits).toEqual([250, 500]);
    expect(fake.count).toBe(3);
  });

  it("retries a dropped connection", async () => {
    const dropped = new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    const { fake, client } = scripted([dropped]);
    expect((await client.datapoint(request)).value).toBe(expected);
    expect(fake.count).toBe(2);
  });

  it("gives up after `attempts` and counts the failure by kind", async () => {
    const down = json(503, { message: "Service Unavailable" });
    const { fake, client, waits } = scripted([down, down.clone(), down.clone(), down.clone(), down.clone()]);
    const error = await failure(client.datapoint(request));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(fake.count).toBe(4);
    expect(waits).toEqual([250, 500, 1000]);
    expect(client.stats().failures).toEqual({ ServiceUnavailableError: 1 });
  });

  it("ends with NetworkError naming the cause when every attempt is dropped", async () => {
    const dropped = () => new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    const { client } = scripted([dropped(), dropped()], { retry: { attempts: 2 } });
    const error = await failure(client.datapoint(request));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error?.message).toBe(
      "Could not reach the FDQ service (fetch failed: ECONNREFUSED). Check the network connection and the base URL in the FDQ task pane.",
    );
  });

  it("stops retrying when the next wait would pass maxElapsedMs", async () => {
    const busy = () => json(429, { message: "Too Many Requests" }, { "retry-after": "20" });
    const { fake, client, waits } = scripted([busy(), busy(), busy(), busy()], {
      retry: { attempts: 10, maxElapsedMs: 45_000 },
    });
    const error = await failure(client.datapoint(request));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(waits).toEqual([20_000, 20_000]);
    expect(fake.count).toBe(3);
  });

  it("does not wait for a Retry-After longer than maxRetryAfterMs", async () => {
    const { fake, client, waits } = scripted([json(429, {}, { "retry-after": "120" })]);
    expect(await failure(client.datapoint(request))).toBeInstanceOf(RateLimitedError);
    expect(waits).toEqual([]);
    expect(fake.count).toBe(1);
  });

  it.each([
    [json(403, { message: "Forbidden" }), UnauthorizedError],
    [json(401, { message: "Unauthorized" }), UnauthorizedError],
    [specError("DataNotFound"), DataNotFoundError],
    [json(400, { message: "year is required" }), ServiceError],
    [json(500, { message: "Internal Server Error" }), ServiceUnavailableError],
  ])("never retries the caller's own faults or a plain 500 (%#)", async (answer, cls) => {
    const { fake, client, waits } = scripted([answer]);
    expect(await failure(client.datapoint(request))).toBeInstanceOf(cls);
    // A "not found" also asks the ticker's coverage record once (ticker-coverage.ts): no retry either.
    expect(fake.seen.filter((s) => !s.url.pathname.startsWith("/v1/coverage/"))).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(client.stats().retries).toBe(0);
  });

  it("aborts an attempt after timeoutMs (AbortController), retries it, then reports TimeoutError", async () => {
    const fake = new FakeFetch();
    const hanging: typeof fetch = (input, init) => {
      void fake.fetch(input, { headers: init?.headers });
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    };
    const client = makeClient(fake, { fetch: hanging, timeoutMs: 40, retry: { attempts: 2 } });
    const error = await failure(client.datapoint(request));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error?.message).toBe(
      "The FDQ service did not answer within 0.04 s. Try again later, then recalculate.",
    );
    expect(fake.count).toBe(2);
    expect(client.stats()).toMatchObject({ retries: 1, failures: { TimeoutError: 1 }, inFlight: 0 });
  });

  it("does not cache a transient failure: the next call asks again and gets the value", async () => {
    const { fake, client } = scripted([json(503, {})], { retry: { attempts: 1 } });
    expect(await failure(client.datapoint(request))).toBeInstanceOf(ServiceUnavailableError);
    expect((await client.datapoint(request)).value).toBe(expected);
    expect(fake.count).toBe(2);
  });
});
