// Relative periods (FY0, FY-1, FQ0, FQ-n, LTM) through the request module against the sandbox over real
// HTTP: what each resolves to, the requests and units the search costs cold and warm, both "no data" answer
// styles, a non-December fiscal year, an inactive stock, and the roll-forward on a later sandbox day.
import { FdqClient, MemoryStorage, type ClientOptions, type DatapointRequest } from "../../../src/api";
import { parseRelativePeriod } from "../../../src/catalog";
import type { RunningSandbox, SandboxOptions } from "../../../src/sandbox";
import { sandboxes } from "./sandboxes";

// 12:00 UTC is 06:00 in Chicago: after the vendor's refresh window, so the refresh day is the date.
const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
const DAY = "2026-11-24";

const sandbox = sandboxes({});

/**
 * A sandbox and a client on the same movable clock. The client checks coverage after the fact
 * (coverageCheck "after"): this file counts the search's own requests and units, which the default rule's
 * coverage list (1 request, 1 unit before a client's first data request of the day) would add to every first
 * figure; that list and a covered ticker's FY0 after it are counted in
 * test/integration/functions/uncovered-ticker.test.ts.
 */
async function setUp(day: string, options: SandboxOptions = {}, client: Partial<ClientOptions> = {}) {
  const clock = { now: at(day) };
  const sb = await sandbox({ now: () => new Date(clock.now), ...options });
  const storage = new MemoryStorage();
  const open = (): FdqClient =>
    new FdqClient({
      baseUrl: sb.baseUrl,
      apiKey: sb.demoKey,
      now: () => clock.now,
      storage,
      persistDelayMs: 0,
      coverageCheck: "after",
      ...client,
    });
  return { sb, clock, open, storage };
}

const roic = (ticker: string, year: DatapointRequest["year"], extra: Partial<DatapointRequest> = {}) => ({
  ticker,
  dataset: "roic",
  name: "ROIC",
  year,
  ...extra,
});

/** What the sandbox saw while `run` ran: requests and units. */
async function spent<T>(sb: RunningSandbox, run: () => Promise<T>) {
  const [requests, units] = [sb.stats().requests, sb.usage()];
  const result = await run();
  return { result, requests: sb.stats().requests - requests, units: sb.usage() - units };
}

describe("FdqClient.datapoint with a relative year", () => {
  it("FY0 is the latest fiscal year with an annual value: one empty answer above it, one unit", async () => {
    const { sb, open } = await setUp(DAY);
    const fdq = open();
    const { result, requests, units } = await spent(sb, () => fdq.datapoint(roic("AAPL", "FY0")));
    expect(result.resolved).toEqual({
      text: "FY0",
      year: 2025,
      period: 5,
      periodtype: "ANNUAL",
      words: "FY0 = fiscal 2025",
      resolvedOn: DAY,
    });
    expect(result.record.year).toBe(2025);
    expect(result.value).toBe((await fdq.datapoint(roic("AAPL", 2025))).value);
    // fiscal 2026 (empty, free), then fiscal 2025 (the value itself).
    expect({ requests, units }).toEqual({ requests: 2, units: 1 });
    await fdq.close();
  });

  it("FY-1, FY0 with a quarter and a ttm count from the same resolution without searching again", async () => {
    const { sb, open } = await setUp(DAY);
    const fdq = open();
    await fdq.datapoint(roic("AAPL", "fy0"));
    const { result, requests } = await spent(sb, () =>
      Promise.all([
        fdq.datapoint(roic("AAPL", "FY-1")),
        fdq.datapoint(roic("AAPL", "FY0", { name: "NOPAT", quarter: 2 })),
        fdq.datapoint(roic("AAPL", "FY0", { name: "NOPAT", ttm: 4 })),
      ]),
    );
    expect(result.map((r) => [r.record.year, r.record.periodtype, r.record.period])).toEqual([
      [2024, "ANNUAL", 5],
      [2025, "QUARTERLY", 2],
      [2025, "TTM", 4],
    ]);
    expect(result.map((r) => r.resolved?.words)).toEqual([
      "FY-1 = fiscal 2024",
      "FY0 = Q2 FY2025",
      "FY0 = TTM to Q4 FY2025",
    ]);
    expect(requests).toBe(3); // the three values: the resolution is known
    await fdq.close();
  });

  it("FQ0 is the latest quarter; FQ-2 crosses the fiscal-year boundary; LTM is the latest ttm window", async () => {
    // On 2026-05-10 the latest quarter of a December year is Q1 2026.
    const { sb, open } = await setUp("2026-05-10");
    const fdq = open();
    const { result, requests, units } = await spent(sb, () =>
      Promise.all([
        fdq.datapoint(roic("AAPL", "FQ0", { name: "NOPAT" })),
        fdq.datapoint(roic("AAPL", "FQ-2", { name: "NOPAT" })),
        fdq.datapoint(roic("AAPL", "LTM", { name: "NOPAT" })),
        fdq.datapoint(roic("AAPL", "LTM-1", { name: "NOPAT" })),
      ]),
    );
    expect(result.map((r) => r.resolved?.words)).toEqual([
      "FQ0 = Q1 FY2026",
      "FQ-2 = Q3 FY2025",
      "LTM = TTM to Q1 FY2026",
      "LTM-1 = TTM to Q4 FY2025",
    ]);
    expect(result[1]!.value).toBe(
      (await fdq.datapoint(roic("AAPL", 2025, { name: "NOPAT", quarter: 3 }))).value,
    );
    // Quarters from Q1 FY2027 (a year ending in April) down: Q1 27, Q4 26, Q3 26, Q2 26 empty, Q1 2026 found;
    // the ttm search starts at today's latest quarter: found at once. Then FQ-2 and LTM-1.
    expect({ requests, units }).toEqual({ requests: 5 + 1 + 1 + 1, units: 4 });
    await fdq.close();
  });

  it("a fiscal year ending in September, filed 35 days after each quarter", async () => {
    const { open } = await setUp("2027-02-10");
    const fdq = open();
    const [fy0, fq0, fq2] = await Promise.all([
      fdq.datapoint(roic("SEPCO", "FY0")),
      fdq.datapoint(roic("SEPCO", "FQ0", { name: "NOPAT" })),
      fdq.datapoint(roic("SEPCO", "FQ-2", { name: "NOPAT" })),
    ]);
    // Q1 FY2027 ended in December 2026 and was filed in January; fiscal 2026 ended in September 2026.
    expect([fy0.resolved?.words, fq0.resolved?.words, fq2.resolved?.words]).toEqual([
      "FY0 = fiscal 2026",
      "FQ0 = Q1 FY2027",
      "FQ-2 = Q3 FY2026",
    ]);
    await fdq.close();
  });

  it("an inactive stock resolves below its last trade date, once: its latest year never moves", async () => {
    const { sb, clock, open } = await setUp(DAY);
    const fdq = open();
    const cold = await spent(sb, () => fdq.datapoint(roic("X:2", "FY0")));
    expect(cold.result.resolved?.words).toBe("FY0 = fiscal 2019");
    // The coverage record (last traded 2020-06-30), fiscal 2020 (empty) and fiscal 2019.
    expect(cold.requests).toBe(3);
    await fdq.close();
    clock.now = at("2026-12-24");
    const later = open();
    const next = await spent(sb, () => later.datapoint(roic("X:2", "FY0")));
    expect(next.result.resolved).toMatchObject({ year: 2019, resolvedOn: DAY });
    expect(next.requests).toBe(1); // the value of a new refresh day; no search
    await later.close();
  });

  it.each(["empty", "not-found", "error"] as const)(
    "reads a %s answer past the latest period as no data, and spends no unit on it",
    async (noData) => {
      const { sb, open } = await setUp(DAY, { noData });
      const fdq = open();
      const { result, requests, units } = await spent(sb, () => fdq.datapoint(roic("MSFT", "FY0")));
      expect(result.resolved?.year).toBe(2025);
      expect({ requests, units }).toEqual({ requests: 2, units: 1 });
      await fdq.close();
    },
  );

  it("rolls forward on a later sandbox day, starting from the day before's resolution", async () => {
    const { sb, clock, open } = await setUp(DAY);
    const first = open();
    expect((await first.datapoint(roic("AAPL", "FY0"))).resolved?.words).toBe("FY0 = fiscal 2025");
    await first.close();
    // Fiscal 2026 ends on 31 December; on 5 January it is there.
    clock.now = at("2027-01-05");
    const next = open();
    const { result, requests } = await spent(sb, () => next.datapoint(roic("AAPL", "FY0")));
    expect(result.resolved).toMatchObject({ year: 2026, resolvedOn: "2027-01-05" });
    expect(requests).toBe(1); // fiscal 2026, the one period after yesterday's latest: found at once
    await next.close();
  });

  it("costs no request warm: a second client of the same store and refresh day sends nothing", async () => {
    const { sb, open } = await setUp(DAY);
    const model = (fdq: FdqClient) =>
      Promise.all(
        ["AAPL", "MSFT", "NFLX"].flatMap((ticker) => [
          fdq.datapoint(roic(ticker, "FY0")),
          fdq.datapoint(roic(ticker, "FY-1")),
          fdq.datapoint(roic(ticker, "FQ0", { name: "NOPAT" })),
          fdq.datapoint(roic(ticker, "LTM", { name: "NOPAT" })),
        ]),
      );
    const cold = open();
    const first = await spent(sb, () => model(cold));
    await cold.close();
    // The same cells in fixed years, on a client of its own (nothing cached): what the cells themselves cost.
    const fixed = new FdqClient({
      baseUrl: sb.baseUrl,
      apiKey: sb.demoKey,
      now: () => at(DAY),
      coverageCheck: "after",
    });
    const sameCells = await spent(sb, () =>
      Promise.all(
        ["AAPL", "MSFT", "NFLX"].flatMap((ticker) => [
          fixed.datapoint(roic(ticker, 2025)),
          fixed.datapoint(roic(ticker, 2024)),
          fixed.datapoint(roic(ticker, 2026, { name: "NOPAT", quarter: 3 })),
          fixed.datapoint(roic(ticker, 2026, { name: "NOPAT", ttm: 3 })),
        ]),
      ),
    );
    await fixed.close();
    const warm = open();
    const second = await spent(sb, () => model(warm));
    expect(second.result.map((r) => r.value)).toEqual(first.result.map((r) => r.value));
    expect(sameCells.result.map((r) => r.value)).toEqual(first.result.map((r) => r.value));
    // Cold: per ticker 1 empty year and 4 empty quarters (Q3 FY2027 .. Q4 FY2026) above the latest, then the
    // 4 values: no unit more than the same cells in fixed years.
    expect({ requests: first.requests, units: first.units }).toEqual({
      requests: 3 * (1 + 4 + 4),
      units: 12,
    });
    expect({ requests: sameCells.requests, units: sameCells.units }).toEqual({ requests: 12, units: 12 });
    expect({ requests: second.requests, units: second.units }).toEqual({ requests: 0, units: 0 });
    await warm.close();
  });
});

describe("FdqClient.dataset with a relative year", () => {
  it("asks the latest year's whole dataset as the search's answer: the units of the dataset, no more", async () => {
    const { sb, open } = await setUp(DAY);
    const fdq = open();
    const { result, requests, units } = await spent(sb, () =>
      fdq.dataset({ ticker: "NFLX", dataset: "roic", year: "FY0" }),
    );
    expect(result.resolved?.words).toBe("FY0 = fiscal 2025");
    expect(result.records.every((r) => r.year === 2025)).toBe(true);
    expect({ requests, units }).toEqual({ requests: 2, units: result.records.length });
    await fdq.close();
  });
});

describe("FdqClient.estimate with relative years", () => {
  it("counts the search cold and nothing warm", async () => {
    const { open } = await setUp(DAY);
    const requests = ["AAPL", "MSFT"].flatMap((ticker) => [
      { kind: "datapoint" as const, request: roic(ticker, parseRelativePeriod("FY0")!) },
      { kind: "datapoint" as const, request: roic(ticker, parseRelativePeriod("FY-1")!) },
    ]);
    const fdq = open();
    await fdq.ready();
    const cold = fdq.estimate(requests);
    expect(cold.resolution).toEqual({ searches: 2, requests: 2, units: 0 });
    expect({ needed: cold.requestsNeeded, units: cold.units }).toEqual({ needed: 6, units: 4 });
    await Promise.all(requests.map((r) => fdq.datapoint(r.request)));
    const warm = fdq.estimate(requests);
    expect(warm.resolution).toBeUndefined();
    expect({ needed: warm.requestsNeeded, units: warm.units }).toEqual({ needed: 0, units: 0 });
    await fdq.close();
  });
});
