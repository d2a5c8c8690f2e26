// The latest-period search (src/api/period-resolver.ts) with a fake service: where it starts, what it asks,
// which failures mean "no data", and that one search serves every caller of a ticker and kind.
import {
  DataNotFoundError,
  DataPointNotFoundError,
  MemoryStorage,
  NotInPortfolioError,
  ServiceError,
  ServiceUnavailableError,
} from "../../../src/api";
import { PeriodResolutions } from "../../../src/api/period-resolutions";
import {
  isNoData,
  newestPossible,
  PeriodResolver,
  startOf,
  type ProbeTarget,
} from "../../../src/api/period-resolver";
import { periodAtIndex, periodIndex, type DatedPeriod } from "../../../src/catalog";

const label = (p: DatedPeriod) => (p.period.kind === "annual" ? `FY${p.year}` : `Q${p.period.n} FY${p.year}`);
const quarterLabel = (index: number) => label(periodAtIndex("quarter", index));

describe("where the search starts", () => {
  it("at the newest period that can have ended, whatever month a fiscal year ends in", () => {
    expect(newestPossible("annual", "2026-11-24")).toBe(2026);
    expect(newestPossible("annual", "2027-01-05")).toBe(2026);
    // A fiscal year ending in January has its Q3 end in October.
    expect(quarterLabel(newestPossible("quarter", "2026-11-24"))).toBe("Q3 FY2027");
    expect(quarterLabel(newestPossible("quarter", "2026-05-10"))).toBe("Q1 FY2027");
    expect(quarterLabel(newestPossible("quarter", "2026-02-10"))).toBe("Q4 FY2026");
  });

  it("one period above the day before's latest; below an inactive stock's last trade; at today's latest quarter for ttm", () => {
    expect(startOf("annual", "2026-11-25", { previous: { index: 2025, day: "2026-11-24" } })).toBe(2026);
    expect(startOf("annual", "2026-11-25", { previous: { index: 2024, day: "2026-11-24" } })).toBe(2025);
    // Two years later the latest may have moved by two more.
    expect(startOf("annual", "2028-12-01", { previous: { index: 2024, day: "2026-11-24" } })).toBe(2027);
    expect(startOf("annual", "2026-11-24", { lastTradeDate: "2020-06-30" })).toBe(2020);
    const q3 = periodIndex({ year: 2026, period: { kind: "quarter", n: 3 } });
    expect(startOf("ttm", "2026-11-24", { quarterToday: q3 })).toBe(q3);
  });
});

describe("isNoData", () => {
  it("reads DataNotFound and a 404 as no data; not a portfolio refusal, an outage, or an unknown name", () => {
    expect(isNoData(new DataNotFoundError(), true)).toBe(true);
    expect(isNoData(new ServiceError({ status: 404, serviceMessage: "Not Found" }), true)).toBe(true);
    expect(isNoData(new DataPointNotFoundError({ status: 404 }), true)).toBe(true);
    expect(isNoData(new DataPointNotFoundError({ status: 404 }), false)).toBe(false);
    expect(
      isNoData(new NotInPortfolioError({ status: 404, serviceMessage: "not in your portfolio" }), true),
    ).toBe(false);
    expect(isNoData(new ServiceUnavailableError({ status: 503 }), true)).toBe(false);
  });
});

describe("PeriodResolver", () => {
  /** A service whose latest annual period is `latest`; records every period asked. */
  function setUp(latest: number, today = "2026-11-24") {
    const asked: string[] = [];
    const targets: ProbeTarget[] = [];
    const resolutions = new PeriodResolutions({
      storage: new MemoryStorage(),
      storageKey: "periods",
      scope: "test",
      persistDelayMs: 0,
      onWarning: () => undefined,
    });
    const resolver = new PeriodResolver({
      today: () => today,
      resolutions,
      windowMs: 1,
      probe: async (_ticker, target, at) => {
        asked.push(label(at));
        targets.push(target);
        return at.year <= latest;
      },
      lastTradeDate: async () => undefined,
    });
    return { asked, targets, resolver };
  }
  const roic: ProbeTarget = { dataset: "metrics/roic", name: "ROIC" };

  it("walks down to the first period with data, once for every caller, preferring an FY0 caller's datapoint", async () => {
    const { asked, targets, resolver } = setUp(2025);
    const [a, b] = await Promise.all([
      resolver.latest("AAPL", "annual", { dataset: "metrics/roic", name: "NOPAT" }, false),
      resolver.latest("AAPL", "annual", roic, true),
    ]);
    expect(label(a.latest)).toBe("FY2025");
    expect(b).toBe(a);
    expect(asked).toEqual(["FY2026", "FY2025"]);
    expect(targets.every((t) => t.name === "ROIC")).toBe(true);
    expect(resolver.known("AAPL", "annual")?.requests).toBe(0);
  });

  it("gives up after twelve years with DataNotFound, and answers that at once for the rest of the day", async () => {
    const { asked, resolver } = setUp(1990);
    await expect(resolver.latest("ZZZZ", "annual", roic, true)).rejects.toThrow(
      "No annual value of ROIC for ZZZZ from fiscal 2015 to fiscal 2026: there is no latest period to count from.",
    );
    expect(asked).toHaveLength(12);
    await expect(resolver.latest("ZZZZ", "annual", roic, true)).rejects.toBeInstanceOf(DataNotFoundError);
    expect(asked).toHaveLength(12);
  });

  it("guesses for an estimate: the clock's likely latest and the empty answers above it", () => {
    const { resolver } = setUp(2025);
    expect(resolver.guess("AAPL", "annual")).toEqual({
      latest: periodAtIndex("annual", 2025),
      emptyProbes: 1,
      coverage: false,
    });
    expect(resolver.guess("X:2", "annual").coverage).toBe(true);
  });
});
