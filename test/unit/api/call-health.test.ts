// The client's call counts behind the task pane's health view (call-tally.ts): each public call counted once,
// pending until it settles, then answered from the cache, fetched, joined, or failed by error class.
import { isRetryableFailure, type CallHealth } from "../../../src/api";
import { CallTally, ROUND_QUIET_MS } from "../../../src/api/call-tally";
import { FakeFetch, json, makeClient, specError } from "./fake-fetch";

const roic = (ticker: string, year = 2022) => ({ ticker, dataset: "roic", name: "ROIC", year });

/** The counts without the round's clock readings. */
const counts = ({ pending, cached, fetched, joined, failed }: CallHealth) => ({
  pending,
  cached,
  fetched,
  joined,
  failed,
});

describe("call health: counting the client's calls", () => {
  it("counts the call that starts a request as fetched, the calls sharing it as joined, a cached call as cached", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    await Promise.all([
      client.datapoint(roic("MSFT")),
      client.datapoint(roic("MSFT")),
      client.datapoint(roic("MSFT")),
    ]);
    await client.datapoint(roic("MSFT"));
    expect(fake.count).toBe(1);
    expect(counts(client.callHealth())).toEqual({ pending: 0, cached: 1, fetched: 1, joined: 2, failed: {} });
  });

  it("never counts a cached call as fetched, whatever the endpoint", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    await client.datapoint(roic("MSFT"));
    await client.dataset({ ticker: "MSFT", dataset: "roic", year: 2022 });
    await client.datapoint(roic("MSFT"));
    expect(fake.count).toBe(1);
    expect(counts(client.callHealth())).toMatchObject({ cached: 2, fetched: 1, joined: 0 });
  });

  it("counts a call pending from its start until it settles, and the moment the last one settled", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fake = new FakeFetch(async () => {
      await held;
      return "default" as const;
    });
    const client = makeClient(fake);
    const calls = [client.datapoint(roic("MSFT")), client.datapoint(roic("IBM"))];
    const during = client.callHealth();
    expect(during.pending).toBe(2);
    expect(during.settledAt).toBeUndefined();
    expect(during.startedAt).toEqual(expect.any(Number));
    release();
    await Promise.all(calls);
    const after = client.callHealth();
    expect(counts(after)).toEqual({ pending: 0, cached: 0, fetched: 2, joined: 0, failed: {} });
    expect(after.settledAt).toBeGreaterThanOrEqual(after.startedAt!);
  });

  it("counts failures by error class: 5xx, does not exist, bad argument", async () => {
    const fake = new FakeFetch((url) => {
      if (url.pathname.endsWith("/DOWN")) return json(503, { message: "Service Unavailable" });
      if (url.pathname.endsWith("/GONE")) return specError("DataPointNotFound");
      return "default";
    });
    const client = makeClient(fake);
    const outcomes = await Promise.allSettled([
      client.datapoint(roic("DOWN")),
      client.datapoint(roic("GONE")),
      client.datapoint({ ...roic("MSFT"), year: "next year" }),
      client.datapoint(roic("MSFT")),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected", "fulfilled"]);
    expect(counts(client.callHealth())).toEqual({
      pending: 0,
      cached: 0,
      fetched: 1,
      joined: 0,
      failed: { ServiceUnavailableError: 1, DataPointNotFoundError: 1, InvalidArgumentError: 1 },
    });
  });

  it("counts a quota refusal as QuotaExhaustedError, and the calls refused without a request after it too", async () => {
    const fake = new FakeFetch(() => json(429, { message: "Limit Exceeded" }));
    const client = makeClient(fake);
    await client.datapoint(roic("MSFT")).catch(() => undefined);
    await client.datapoint(roic("IBM")).catch(() => undefined);
    expect(fake.count).toBe(1);
    expect(client.callHealth().failed).toEqual({ QuotaExhaustedError: 2 });
  });

  it("counts a relative period's call once, by its final answer's source (its period search's probe answered it)", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    await client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: "FY0" });
    expect(fake.count).toBe(1);
    expect(counts(client.callHealth())).toEqual({ pending: 0, cached: 1, fetched: 0, joined: 0, failed: {} });
  });

  it("does not count a cache-only call (a formula's value preview): it belongs to no calculation", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake);
    await client.datapoint(roic("MSFT"));
    await client.datapoint(roic("MSFT"), { cacheOnly: true });
    await client.datapoint(roic("IBM"), { cacheOnly: true }).catch(() => undefined);
    expect(fake.count).toBe(1);
    expect(counts(client.callHealth())).toEqual({ pending: 0, cached: 0, fetched: 1, joined: 0, failed: {} });
  });

  it("counts each public method: ratings, sector, security, info, coverage", async () => {
    const client = makeClient(new FakeFetch());
    await Promise.allSettled([
      client.ratings("MSFT"),
      client.sector({ id: "TECHNOLOGYSEC", name: "ROIC_AVG" }),
      client.security("stock", "MSFT"),
      client.datapointInfo("ROIC"),
      client.coverageList("stock"),
    ]);
    const health = client.callHealth();
    const failures = Object.values(health.failed).reduce((a, b) => a + b, 0);
    expect(health.pending).toBe(0);
    expect(health.fetched + health.cached + health.joined + failures).toBe(5);
  });
});

describe("call health: rounds", () => {
  const answer = { source: "network" as const };

  it("keeps counting the same round when a call starts within the quiet gap after the last settled", async () => {
    let now = 0;
    const tally = new CallTally(() => now);
    await tally.count(Promise.resolve(answer));
    now += ROUND_QUIET_MS - 1;
    await tally.count(Promise.resolve({ source: "cache" as const }));
    expect(tally.read()).toMatchObject({ round: 1, fetched: 1, cached: 1, startedAt: 0, settledAt: now });
  });

  it("starts a new round from zero when a call starts after the quiet gap", async () => {
    let now = 0;
    const tally = new CallTally(() => now);
    await tally.count(Promise.reject(new TypeError("x"))).catch(() => undefined);
    now += ROUND_QUIET_MS;
    const next = tally.count(Promise.resolve(answer));
    expect(tally.read()).toEqual({
      round: 2,
      pending: 1,
      cached: 0,
      fetched: 0,
      joined: 0,
      failed: {},
      startedAt: now,
    });
    await next;
    expect(tally.read()).toMatchObject({ round: 2, pending: 0, fetched: 1, settledAt: now });
  });
});

describe("call health: which failures are worth retrying", () => {
  it("retries network, timeout, 5xx, the refresh window and throttling", () => {
    for (const name of [
      "NetworkError",
      "TimeoutError",
      "ServiceUnavailableError",
      "ServiceRefreshingError",
      "RateLimitedError",
    ])
      expect([name, isRetryableFailure(name)]).toEqual([name, true]);
  });

  it("does not retry a quota refusal, a 'does not exist' answer or a bad argument", () => {
    for (const name of [
      "QuotaExhaustedError",
      "DataPointNotFoundError",
      "DataNotFoundError",
      "UncoveredTickerError",
      "InvalidArgumentError",
      "UnauthorizedError",
      "NotConfiguredError",
      "BadResponseError",
    ])
      expect([name, isRetryableFailure(name)]).toEqual([name, false]);
  });
});
