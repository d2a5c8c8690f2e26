import { maxCellsOnPlan, refreshTime, tradingDays } from "../../../bench/month";
import {
  daysFrom,
  isClosedYear,
  isSpCell,
  mayBeKept,
  staleness,
  valueKey,
  type DayAnswer,
  type PolicyUnderTest,
} from "../../../bench/staleness";
import { datasetOf, type CellFetch } from "../../../bench/workloads";

const cell = (dataset: string, name: string, year: number): CellFetch => ({
  kind: "datapoint",
  ticker: "AAPL",
  dataset: datasetOf(dataset),
  name,
  period: { year },
});

const roic2020 = cell("metrics/roic", "ROIC", 2020);
const roic2025 = cell("metrics/roic", "ROIC", 2025);
const ev2020 = cell("screens/enhanced", "ENTERPRISE_VALUE", 2020);
const strict: PolicyUnderTest = { kind: "strict" };
const saver: PolicyUnderTest = { kind: "saver", keepDays: 7 };

/** The service's answers: "n 1" from 2 March on, restated to "n 2" from 11 March. */
const answers = (until: string): DayAnswer[] =>
  tradingDays("2026-03-02", 21)
    .filter((day) => day <= until)
    .map((day) => ({ day, value: day < "2026-03-11" ? "n 1" : "n 2" }));

describe("M1 staleness rule", () => {
  it("calls today's answer fresh under either policy", () => {
    expect(staleness(roic2020, "2026-03-12", "n 2", answers("2026-03-12"), strict)).toBe("fresh");
    expect(staleness(ev2020, "2026-03-12", "n 2", answers("2026-03-12"), saver)).toBe("fresh");
  });

  it("allows no other value under the strict policy", () => {
    expect(staleness(roic2020, "2026-03-12", "n 1", answers("2026-03-12"), strict)).toBe("beyond");
  });

  it("lets the saver keep a closed, non-(SP) value at most keepDays days old", () => {
    // The service last answered "n 1" on 10 March: 2 days before the 12th, 7 before the 17th, 8 before the 18th.
    expect(staleness(roic2020, "2026-03-12", "n 1", answers("2026-03-12"), saver)).toBe("kept");
    expect(staleness(roic2020, "2026-03-17", "n 1", answers("2026-03-17"), saver)).toBe("kept");
    expect(staleness(roic2020, "2026-03-18", "n 1", answers("2026-03-18"), saver)).toBe("beyond");
    expect(
      staleness(roic2020, "2026-03-18", "n 1", answers("2026-03-18"), { kind: "saver", keepDays: 8 }),
    ).toBe("kept");
  });

  it("never lets the saver keep an (SP) value or an open period, nor show a value the service never gave", () => {
    expect(staleness(ev2020, "2026-03-12", "n 1", answers("2026-03-12"), saver)).toBe("beyond");
    expect(staleness(roic2025, "2026-03-12", "n 1", answers("2026-03-12"), saver)).toBe("beyond");
    expect(staleness(roic2020, "2026-03-12", "n 3", answers("2026-03-12"), saver)).toBe("beyond");
    expect(staleness(roic2020, "2026-03-12", "#error #N/A", answers("2026-03-12"), saver)).toBe("beyond");
  });

  it("needs the service's answer of the day", () => {
    expect(() => staleness(roic2020, "2026-03-13", "n 2", answers("2026-03-12"), saver)).toThrow(
      "No answer of the service for 2026-03-13",
    );
  });

  it("closes fiscal year Y on 1 January of Y+2, and reads (SP) from the catalog of the cell's dataset", () => {
    expect([
      isClosedYear(2024, "2026-03-02"),
      isClosedYear(2025, "2026-12-31"),
      isClosedYear(2025, "2027-01-01"),
    ]).toEqual([true, false, true]);
    expect([
      isSpCell(ev2020),
      isSpCell(roic2020),
      isSpCell({ kind: "rating", ticker: "X", field: "overall" }),
    ]).toEqual([true, false, false]);
    expect([mayBeKept(roic2020, "2026-03-02", saver), mayBeKept(roic2020, "2026-03-02", strict)]).toEqual([
      true,
      false,
    ]);
    expect(daysFrom("2026-03-06", "2026-03-09")).toBe(3);
  });

  it("compares numbers, texts and errors by kind (an error's message is not compared)", () => {
    expect(valueKey({ ok: true, value: 1.5 })).toBe("n 1.5");
    expect(valueKey({ ok: true, value: "1.5" })).toBe("s 1.5");
    expect(valueKey({ ok: false, error: { error: "#N/A" } })).toBe("#error #N/A");
  });
});

describe("M1's month", () => {
  it("is 21 trading days from Monday 2 March 2026, weekends skipped, in one quota month", () => {
    const days = tradingDays("2026-03-02", 21);
    expect([days.length, days[0], days[4], days[5], days[20]]).toEqual([
      21,
      "2026-03-02",
      "2026-03-06",
      "2026-03-09",
      "2026-03-30",
    ]);
    expect(days.every((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()))).toBe(true);
  });

  it("refreshes after the 05:20 America/Chicago boundary, on the same calendar day", () => {
    expect(new Date(refreshTime("2026-03-09")).toISOString()).toBe("2026-03-09T15:00:00.000Z");
  });

  it("scales the model linearly to the plan from the measured units per cell", () => {
    expect(maxCellsOnPlan(2700, 56_700, 10_000)).toBe(476);
    expect(maxCellsOnPlan(2700, 18_684, 10_000)).toBe(1445);
  });
});
