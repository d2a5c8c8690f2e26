// The relative period grammar (src/catalog/relative-period.ts): what it accepts, what it refuses, and the
// arithmetic that moves along the line of periods.
import {
  applyRelative,
  isRelativePeriod,
  parseRelativePeriod,
  period,
  periodAtIndex,
  periodIndex,
  relativeConflict,
  relativeText,
  resolvedWords,
  type DatedPeriod,
} from "../../../src/catalog";

const annual = (year: number): DatedPeriod => ({ year, period: period("annual") });
const quarter = (year: number, n: number): DatedPeriod => ({ year, period: period("quarter", n) });
const ttm = (year: number, n: number): DatedPeriod => ({ year, period: period("ttm", n) });

describe("parseRelativePeriod", () => {
  it.each([
    ["FY0", "FY", 0],
    ["fy0", "FY", 0],
    [" Fy-1 ", "FY", -1],
    ["FY-30", "FY", -30],
    ["FQ0", "FQ", 0],
    ["fq-2", "FQ", -2],
    ["FQ-120", "FQ", -120],
    ["LTM", "LTM", 0],
    ["ltm0", "LTM", 0],
    ["LTM-4", "LTM", -4],
  ])("reads %s as %s%s (any case, spaces around ignored)", (text, basis, offset) => {
    expect(parseRelativePeriod(text)).toEqual({ relative: true, basis, offset });
  });

  it.each([
    "FY+1",
    "FY1",
    "FY-31",
    "FQ-121",
    "FY",
    "FQ",
    "FY-0",
    "F Y0",
    "FY 0",
    "FY0.5",
    "2023",
    "",
    "LTM+1",
    "CY0",
  ])("refuses %j", (text) => {
    expect(parseRelativePeriod(text)).toBeUndefined();
  });

  it("writes the canonical text back", () => {
    expect(
      ["fy0", "FY-3", "fq-1", "ltm", "LTM0", "ltm-2"].map((t) => relativeText(parseRelativePeriod(t)!)),
    ).toEqual(["FY0", "FY-3", "FQ-1", "LTM", "LTM", "LTM-2"]);
  });

  it("recognises only well-formed relative periods as such", () => {
    expect(isRelativePeriod(parseRelativePeriod("FQ-3"))).toBe(true);
    expect(isRelativePeriod({ relative: true, basis: "FY", offset: -31 })).toBe(false);
    expect(isRelativePeriod({ relative: true, basis: "FY", offset: 1 })).toBe(false);
    expect(isRelativePeriod("FY0")).toBe(false);
    expect(isRelativePeriod(2023)).toBe(false);
  });
});

describe("the line of periods", () => {
  it("numbers quarters across fiscal years", () => {
    expect(periodIndex(quarter(2025, 1)) - 1).toBe(periodIndex(quarter(2024, 4)));
    expect(periodAtIndex("quarter", periodIndex(quarter(2025, 1)) - 2)).toEqual(quarter(2024, 3));
    expect(periodAtIndex("ttm", periodIndex(ttm(2026, 2)))).toEqual(ttm(2026, 2));
    expect(periodAtIndex("annual", 2024)).toEqual(annual(2024));
  });

  it("FY-n counts years back from the latest fiscal year", () => {
    expect(applyRelative(parseRelativePeriod("FY-1")!, annual(2025))).toEqual(annual(2024));
  });

  it("FY0 with a quarter is that quarter of the latest fiscal year; with a ttm, that window", () => {
    expect(applyRelative(parseRelativePeriod("FY0")!, annual(2025), period("quarter", 2))).toEqual(
      quarter(2025, 2),
    );
    expect(applyRelative(parseRelativePeriod("FY-2")!, annual(2025), period("ttm", 4))).toEqual(ttm(2023, 4));
  });

  it("FQ-n crosses a fiscal-year boundary", () => {
    expect(applyRelative(parseRelativePeriod("FQ-2")!, quarter(2026, 1))).toEqual(quarter(2025, 3));
    expect(applyRelative(parseRelativePeriod("LTM-1")!, ttm(2026, 1))).toEqual(ttm(2025, 4));
  });

  it("quarter and ttm go with FY only", () => {
    expect(relativeConflict(parseRelativePeriod("FY0")!, period("quarter", 2))).toBeUndefined();
    expect(relativeConflict(parseRelativePeriod("FQ0")!, period("annual"))).toBeUndefined();
    expect(relativeConflict(parseRelativePeriod("FQ0")!, period("quarter", 2))).toBe(
      "quarter must be omitted with FQ0: FQ periods are quarters of their own (use FY0 with a quarter for a quarter of the latest fiscal year).",
    );
    expect(relativeConflict(parseRelativePeriod("LTM")!, period("ttm", 1))).toMatch(
      /^ttm must be omitted with LTM:/,
    );
  });

  it("words what a relative period resolved to", () => {
    expect(resolvedWords(parseRelativePeriod("FY0")!, annual(2024))).toBe("FY0 = fiscal 2024");
    expect(resolvedWords(parseRelativePeriod("fq-2")!, quarter(2025, 3))).toBe("FQ-2 = Q3 FY2025");
    expect(resolvedWords(parseRelativePeriod("LTM")!, ttm(2026, 3))).toBe("LTM = TTM to Q3 FY2026");
  });
});
