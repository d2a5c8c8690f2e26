// availability.ts: each company's latest fiscal year and quarter on the sandbox's day, by its fiscal calendar
// (the month its fiscal year ends in) and its filing lag; past them there is no data.
import { hasData, latestFiledQuarter } from "../../../src/sandbox/availability";
import { annual, quarter, quarterAt, quarterIndex } from "../../../src/sandbox/periods";
import { universeFor } from "../../../src/sandbox/universe";

const universe = universeFor(1);
const day = (text: string) => new Date(`${text}T12:00:00Z`);
/** The latest fiscal year the sandbox answers annual data for, as its data route decides (hasData). */
const latestYear = (ticker: string, now: Date): number => {
  const security = universe.resolve(ticker)!;
  let year = 2040;
  while (year > 1990 && !hasData(security, annual(year), now)) year--;
  return year;
};
const latestQuarter = (ticker: string, on: string) => {
  const q = quarterAt(latestFiledQuarter(universe.resolve(ticker)!, day(on)));
  return `Q${q.n} FY${q.year}`;
};

describe("a December fiscal year, filed the day after a period ends", () => {
  it("has the quarter that ended before the day, and the year whose Q4 has", () => {
    expect(latestQuarter("AAPL", "2026-11-24")).toBe("Q3 FY2026");
    expect(latestYear("AAPL", day("2026-11-24"))).toBe(2025);
    expect(latestQuarter("AAPL", "2027-01-01")).toBe("Q4 FY2026");
    expect(latestYear("AAPL", day("2027-01-01"))).toBe(2026);
  });

  it("counts a quarter from the day after its last day (UTC)", () => {
    const at = (iso: string) => quarterAt(latestFiledQuarter(universe.resolve("AAPL")!, new Date(iso)));
    expect(at("2025-03-31T23:00:00Z")).toEqual(quarterAt(quarterIndex(2024, 4)));
    expect(at("2025-04-01T00:00:00Z")).toEqual(quarterAt(quarterIndex(2025, 1)));
    expect(at("2025-12-31T12:00:00Z")).toEqual(quarterAt(quarterIndex(2025, 3)));
  });
});

describe("a September fiscal year filed 35 days after each quarter (SEPCO)", () => {
  const sepco = universe.resolve("SEPCO")!;

  it("names fiscal quarters by the fiscal year they end: Q1 FY2027 ends in December 2026", () => {
    expect(latestQuarter("SEPCO", "2027-02-03")).toBe("Q4 FY2026"); // Q1 ended 31 Dec: not filed yet
    expect(latestQuarter("SEPCO", "2027-02-10")).toBe("Q1 FY2027");
    expect(latestYear("SEPCO", day("2027-02-10"))).toBe(2026);
  });

  it("answers no data past the latest period filed, and data up to it", () => {
    const now = day("2026-11-24"); // fiscal 2026 ended 30 September, filed 4 November
    expect(hasData(sepco, annual(2026), now)).toBe(true);
    expect(hasData(sepco, annual(2027), now)).toBe(false);
    expect(hasData(sepco, quarter(2027, 1), now)).toBe(false);
    expect(hasData(sepco, quarter(2026, 4), now)).toBe(true);
    expect(hasData(sepco, annual(2026), day("2026-10-20"))).toBe(false); // ended, not filed yet
  });
});

describe("an inactive stock", () => {
  it("stops at its last fiscal year whatever the day", () => {
    expect(latestYear("X:2", day("2026-11-24"))).toBe(2019);
    expect(latestQuarter("X:2", "2026-11-24")).toBe("Q3 FY2026"); // the calendar's; coverage stops earlier
    expect(hasData(universe.resolve("X:2")!, quarter(2020, 1), day("2026-11-24"))).toBe(false);
  });
});
