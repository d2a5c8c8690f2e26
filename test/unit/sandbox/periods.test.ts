// periods.ts and params.ts: ttm windows, which quarters have ended, and query validation.
import { SPEC_ERRORS } from "../../../src/catalog";
import { ApiError } from "../../../src/sandbox/errors";
import { parsePeriod, parsePriorYear } from "../../../src/sandbox/params";
import { lastTradingDay, quarterAt, windowIndexes } from "../../../src/sandbox/periods";

const label = (i: number): string => {
  const q = quarterAt(i);
  return `${q.year}Q${q.n}`;
};

describe("windowIndexes", () => {
  it("ttm=n spans quarter n of the year back to quarter n+1 of the prior year (spec)", () => {
    expect(windowIndexes({ year: 2024, kind: "ttm", n: 1 }).map(label)).toEqual([
      "2023Q2",
      "2023Q3",
      "2023Q4",
      "2024Q1",
    ]);
    expect(windowIndexes({ year: 2024, kind: "ttm", n: 3 }).map(label)).toEqual([
      "2023Q4",
      "2024Q1",
      "2024Q2",
      "2024Q3",
    ]);
    expect(windowIndexes({ year: 2024, kind: "ttm", n: 4 }).map(label)).toEqual([
      "2024Q1",
      "2024Q2",
      "2024Q3",
      "2024Q4",
    ]);
    expect(windowIndexes({ year: 2024, kind: "annual", n: 5 }).map(label)).toEqual([
      "2024Q1",
      "2024Q2",
      "2024Q3",
      "2024Q4",
    ]);
    expect(windowIndexes({ year: 2024, kind: "quarter", n: 2 }).map(label)).toEqual(["2024Q2"]);
  });
});

// That a quarter has ended (and is filed) from the day after its last day: availability.test.ts.
describe("lastTradingDay", () => {
  it("the last trading day skips weekends", () => {
    expect(lastTradingDay(new Date("2025-08-18T12:00:00Z"))).toBe("2025-08-15"); // a Monday
    expect(lastTradingDay(new Date("2025-08-15T12:00:00Z"))).toBe("2025-08-14");
  });
});

describe("parsePeriod", () => {
  const parse = (query: Record<string, string>) => parsePeriod((name) => query[name]);
  const message = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      return err instanceof ApiError ? `${err.status} ${err.message}` : String(err);
    }
    return "no error";
  };

  it("reads annual, quarter and ttm requests", () => {
    expect(parse({ year: "2024" })).toEqual({ year: 2024, kind: "annual", n: 5 });
    expect(parse({ year: "2024", quarter: "3" })).toEqual({ year: 2024, kind: "quarter", n: 3 });
    expect(parse({ year: "2024", ttm: "1" })).toEqual({ year: 2024, kind: "ttm", n: 1 });
  });

  it("rejects bad parameters with a 400 and a message that names the parameter", () => {
    expect(message(() => parse({}))).toBe("400 Missing required query parameter: year.");
    expect(message(() => parse({ year: "1e3" }))).toBe("400 Invalid year: must be an integer.");
    expect(message(() => parse({ year: "2024", quarter: "04" }))).toBe(
      "400 Invalid quarter: must be an integer from 1 to 4.",
    );
    expect(message(() => parse({ year: "2024", quarter: "1", ttm: "2" }))).toBe(
      "400 Invalid request: send quarter or ttm, not both.",
    );
    expect(message(() => parsePriorYear(() => "6"))).toBe(`400 ${SPEC_ERRORS.InvalidPriorYear.message}`);
    expect(parsePriorYear(() => undefined)).toBeUndefined();
    expect(parsePriorYear(() => "5")).toBe(5);
  });
});
