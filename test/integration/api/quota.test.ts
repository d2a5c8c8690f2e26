// Quota-aware requests against the sandbox over real HTTP: units by the vendor's rule (counted by the
// sandbox itself), the planner under each billing model, the ledger, "Limit Exceeded" and the refresh window.
// Every client here checks coverage by the default rule: its first data request of the day follows the stock
// coverage list (1 request, 1 unit), counted in each figure as LIST.
import {
  type ClientOptions,
  FdqClient,
  type FdqError,
  MemoryStorage,
  QuotaExhaustedError,
  ServiceRefreshingError,
} from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import type { RunningSandbox } from "../../../src/sandbox";
import { sandboxes } from "./sandboxes";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";

const NOW = Date.parse("2024-03-15T15:00:00Z"); // 10:00 Chicago
const sandboxNow = () => new Date(NOW);
const YEAR = 2022;
const ROIC = findDataset("metrics/roic")!;
const N = ROIC.datapoints.length;
/** The stock coverage list a client asks once per refresh day before its first data request: 1 request, 1 unit. */
const LIST = 1;

const sandbox = sandboxes({ now: sandboxNow });

const client = (sb: RunningSandbox, options: Partial<ClientOptions> = {}) =>
  new FdqClient({ baseUrl: sb.baseUrl, apiKey: sb.demoKey, now: () => NOW, hints: EXCEL_HINTS, ...options });

const ask = (fdq: FdqClient, name: string, ticker = "AAPL") =>
  fdq.datapoint({ ticker, dataset: "metrics/roic", name, year: YEAR });

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as FdqError,
  );

describe("units by the vendor's rule", () => {
  it("costs 1 unit per single datapoint and per coverage list, and the client's count equals the sandbox's", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    await Promise.all(["ROIC", "NOPAT", "CAPITAL_INVESTED"].map((n) => ask(fdq, n)));
    expect(sb.stats().requests).toBe(LIST + 3);
    expect(sb.usage()).toBe(LIST + 3);
    expect(fdq.stats().unitsSpent).toBe(LIST + 3);
    await fdq.close();
  });

  it("costs 1 per record of a whole-dataset answer, 1 per rating, sector and security call", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    const whole = await fdq.dataset({ ticker: "AAPL", dataset: "metrics/roic", year: YEAR });
    await fdq.ratings("AAPL");
    await fdq.sector({ id: "TECHNOLOGYSEC", name: "ROIC_AVG" });
    await fdq.security("stock", "AAPL");
    expect(sb.usage()).toBe(LIST + whole.records.length + 3);
    expect(fdq.stats().unitsSpent).toBe(sb.usage());
    await fdq.close();
  });
});

describe("the planner", () => {
  it("under per-datapoint billing asks k single datapoints for k names of a dataset of N", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    const names = ROIC.datapoints.slice(0, 5).map((d) => d.name);
    await Promise.all([...names, ...names].map((n) => ask(fdq, n)));
    expect(sb.stats().requests).toBe(LIST + 5);
    expect(sb.usage()).toBe(LIST + 5);
    await fdq.close();
  });

  it("under per-datapoint billing asks the whole dataset once when the cells ask every name of it", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    const values = await Promise.all(ROIC.datapoints.map((d) => ask(fdq, d.name)));
    expect(sb.stats().requests).toBe(LIST + 1);
    expect(sb.usage()).toBe(LIST + N);
    expect(values.every((v) => v.url.endsWith(`metrics/roic/AAPL?year=${YEAR}`))).toBe(true);
    await fdq.close();
  });

  it("under per-request billing asks the whole dataset for any of its names (the fast plan)", async () => {
    const sb = await sandbox();
    const fdq = client(sb, { billing: "per-request" });
    await Promise.all(["ROIC", "NOPAT"].map((n) => ask(fdq, n)));
    expect(sb.stats().requests).toBe(LIST + 1);
    expect(sb.usage()).toBe(LIST + N);
    await fdq.close();
  });

  it("serves a single datapoint from a cached whole-dataset answer, for no unit", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    await fdq.dataset({ ticker: "AAPL", dataset: "metrics/roic", year: YEAR });
    const before = sb.usage();
    expect((await ask(fdq, "NOPAT")).source).toBe("cache");
    expect(sb.usage()).toBe(before);
    await fdq.close();
  });

  it("estimates the units of a set of calls as the planner will spend them", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    await fdq.ready();
    const some = ["ROIC", "NOPAT"].map((name) => ({
      kind: "datapoint" as const,
      request: { ticker: "MSFT", dataset: "roic", name, year: YEAR },
    }));
    const every = ROIC.datapoints.map((d) => ({
      kind: "datapoint" as const,
      request: { ticker: "AAPL", dataset: "roic", name: d.name, year: YEAR },
    }));
    const rating = { kind: "ratings" as const, ticker: "AAPL" };
    // One list for both tickers: it is asked once, before the first of them.
    expect(fdq.estimate([...some, ...some, ...every, rating])).toMatchObject({
      requests: LIST + 4,
      requestsNeeded: LIST + 4,
      units: LIST + 2 + N + 1,
    });
    expect(sb.stats().requests).toBe(0);
    await fdq.close();
  });
});

describe("the usage ledger", () => {
  it("counts this month's units by US Central day and by dataset, and keeps them across restarts", async () => {
    const sb = await sandbox();
    const storage = new MemoryStorage();
    const first = client(sb, { storage });
    await ask(first, "ROIC");
    await first.ratings("AAPL");
    await first.close();
    const second = client(sb, { storage });
    await ask(second, "NOPAT");
    expect(await second.usage()).toEqual({
      month: "2024-03",
      units: LIST + 3,
      byDay: { "2024-03-15": LIST + 3 },
      byDataset: { coverage: LIST, "metrics/roic": 2, ratings: 1 },
      exhausted: false,
      resetsOn: "2024-04-01",
    });
    expect(sb.usage()).toBe(LIST + 3);
    await second.close();
  });

  it("starts afresh on the 1st of the month, US Central", async () => {
    const sb = await sandbox();
    const storage = new MemoryStorage();
    const march = client(sb, { storage, now: () => Date.parse("2024-04-01T04:59:00Z") }); // 23:59 CDT, 31 March
    await ask(march, "ROIC");
    await march.close();
    const april = client(sb, { storage, now: () => Date.parse("2024-04-01T05:00:00Z") }); // 00:00 CDT, 1 April
    expect((await april.usage()).units).toBe(0);
    expect((await april.usage()).month).toBe("2024-04");
    await april.close();
  });
});

describe("Limit Exceeded", () => {
  const message =
    "The monthly quota of this FDQ API key is used up (429: Limit Exceeded). It resets on 2024-04-01 (US Central). No request is sent until then. Cells keep their last values until they are recalculated. If your plan was raised, say so in the FDQ task pane (Usage).";

  it("is never retried, stops the account at once, and says when the quota resets", async () => {
    const sb = await sandbox({ quota: 2 });
    // Its 40 made-up tickers stand for 40 requests the quota refuses: the after-the-fact coverage rule sends
    // them, where the default list rule would refuse them as not covered without a request.
    const fdq = client(sb, { concurrency: 2, coalesceWindowMs: 0, coverageCheck: "after" });
    await ask(fdq, "ROIC");
    await ask(fdq, "NOPAT");
    const requestsBefore = sb.stats().requests;
    const tickers = Array.from({ length: 40 }, (_, i) => `T${i}`);
    const errors = await Promise.all(tickers.map((t) => failure(ask(fdq, "ROIC", t))));
    // In flight when the first refusal came: at most the concurrency limit; the rest were never sent.
    expect(sb.stats().requests - requestsBefore).toBeLessThanOrEqual(2);
    expect(errors.every((e) => e instanceof QuotaExhaustedError)).toBe(true);
    expect(errors[0]?.message).toBe(message);
    expect(fdq.stats().retries).toBe(0);
    expect(sb.usage()).toBe(2);
    await fdq.close();
  });

  it("is remembered by the ledger: a restart sends nothing until the user says the plan was raised", async () => {
    const sb = await sandbox({ quota: LIST + 1 });
    const storage = new MemoryStorage();
    const first = client(sb, { storage });
    await ask(first, "ROIC");
    expect(await failure(ask(first, "NOPAT"))).toBeInstanceOf(QuotaExhaustedError);
    await first.close();
    const requests = sb.stats().requests;
    const second = client(sb, { storage });
    expect(await failure(ask(second, "CAPITAL_INVESTED"))).toBeInstanceOf(QuotaExhaustedError);
    expect(sb.stats().requests).toBe(requests);
    // The day of the refusal (US Central: 2024-03-15 10:00) is kept with the stop, for the one-truth wording.
    expect(await second.usage()).toMatchObject({
      units: LIST + 1,
      exhausted: true,
      exhaustedOn: "2024-03-15",
    });
    await second.planRaised();
    expect(await second.usage()).not.toHaveProperty("exhaustedOn");
    expect(await failure(ask(second, "CAPITAL_INVESTED"))).toBeInstanceOf(QuotaExhaustedError);
    expect(sb.stats().requests).toBe(requests + 1);
    await second.close();
  });

  it("is never cached as a value", async () => {
    const sb = await sandbox({ quota: 0 });
    const storage = new MemoryStorage();
    const fdq = client(sb, { storage });
    expect(await failure(ask(fdq, "ROIC"))).toBeInstanceOf(QuotaExhaustedError);
    await fdq.close();
    expect([...storage.items.keys()].filter((k) => k.startsWith("fdq.cache"))).toEqual([]);
  });
});

describe("the vendor's refresh window", () => {
  it("says FDQ is refreshing its data for a 503 between 5:00 and 5:20 AM CT, and caches nothing", async () => {
    const inWindow = Date.parse("2024-03-15T10:10:00Z"); // 05:10 CDT
    const sb = await sandbox({ refreshWindow: true, now: () => new Date(inWindow) });
    let now = inWindow;
    const fdq = client(sb, { now: () => now, retry: { attempts: 1 } });
    const error = await failure(ask(fdq, "ROIC"));
    expect(error).toBeInstanceOf(ServiceRefreshingError);
    expect(error?.message).toBe(
      "FDQ is refreshing its data until 5:20 AM CT (US Central) and may not answer until then. Recalculate after 5:20 AM CT.",
    );
    await fdq.close();
    now = Date.parse("2024-03-15T10:20:00Z");
    const sbAfter = await sandbox({ now: () => new Date(now) });
    const after = client(sbAfter, { now: () => now });
    expect((await ask(after, "ROIC")).source).toBe("network");
    await after.close();
  });
});

describe("the planner and FDQ.DATASET", () => {
  it("lets a datapoint join the whole request of an FDQ.DATASET cell of the same recalculation", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    const [single, whole] = await Promise.all([
      ask(fdq, "NOPAT"),
      fdq.dataset({ ticker: "AAPL", dataset: "metrics/roic", year: YEAR }),
    ]);
    expect(sb.stats().requests).toBe(LIST + 1);
    expect(sb.usage()).toBe(LIST + whole.records.length);
    expect(single.value).toBe(whole.values[whole.records.findIndex((r) => r.datapoint === "NOPAT")]);
    await fdq.close();
  });
});
