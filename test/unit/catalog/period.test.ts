// Period: the spec's annual, quarter n and ttm n, with its bounds, words, URL parameters and record fields.
import {
  ANNUAL,
  FISCAL_YEARS,
  fiscalYearProblem,
  isFiscalYear,
  period,
  periodDetail,
  periodLabel,
  periodOfArgs,
  periodQuery,
  periodType,
} from "../../../src/catalog";

describe("Period: bounds", () => {
  it("allows quarter and ttm 1 to 4 only", () => {
    expect(period("quarter", 1)).toEqual({ kind: "quarter", n: 1 });
    expect(period("ttm", 4)).toEqual({ kind: "ttm", n: 4 });
    expect(() => period("quarter", 0)).toThrow(RangeError);
    expect(() => period("ttm", 5)).toThrow(RangeError);
  });

  it("has one fiscal-year range, 1900 to 2100, with whole years only", () => {
    expect(FISCAL_YEARS).toEqual({ first: 1900, last: 2100 });
    expect([1899, 1900, 2100, 2101, 2023.5, "2023"].map(isFiscalYear)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("Period: words for messages", () => {
  it("names the argument and what it must be", () => {
    expect(fiscalYearProblem(2023)).toBeUndefined();
    expect(fiscalYearProblem(2023.5)).toBe("year must be a whole fiscal year such as 2023 (got 2023.5).");
    expect(fiscalYearProblem(3001, "to_year")).toBe(
      "to_year must be a fiscal year from 1900 to 2100 (got 3001).",
    );
    expect(fiscalYearProblem("x", "from_year", 2019)).toBe(
      'from_year must be a whole fiscal year such as 2019 (got "x").',
    );
  });

  it("reads the functions' quarter and ttm arguments, naming the one at fault", () => {
    expect(periodOfArgs(null, undefined)).toBe(ANNUAL);
    expect(periodOfArgs(2, null)).toEqual({ kind: "quarter", n: 2 });
    expect(periodOfArgs(undefined, 3)).toEqual({ kind: "ttm", n: 3 });
    expect(periodOfArgs(5, null)).toEqual({
      argument: "quarter",
      problem: "quarter must be 1, 2, 3 or 4 (got 5).",
    });
    expect(periodOfArgs(null, "2")).toEqual({
      argument: "ttm",
      problem: 'ttm must be 1, 2, 3 or 4 (got "2").',
    });
    expect(periodOfArgs(1, 1)).toEqual({
      argument: "quarter",
      problem: "quarter and ttm cannot both be given: choose one period.",
    });
  });

  it("labels a period for an analyst and spells out the quarters a ttm window covers", () => {
    expect(periodLabel(ANNUAL, 2023)).toBe("FY2023");
    expect(periodLabel(period("quarter", 2), 2023)).toBe("Q2 FY2023");
    expect(periodLabel(period("ttm", 2), 2023)).toBe("TTM to Q2 FY2023");
    expect(periodDetail(period("ttm", 1), 2023)).toBe(
      "Trailing twelve months ending with Q1 of fiscal year 2023: Q1 of 2023 plus Q4, Q3, Q2 of 2022 (TTM, period 1).",
    );
    expect(periodDetail(ANNUAL, 2023)).toBe("Fiscal year 2023 (ANNUAL, period 5).");
  });
});

describe("Period: URL parameters and record fields", () => {
  it("adds nothing for annual and quarter=n or ttm=n otherwise", () => {
    expect([periodQuery(ANNUAL), periodQuery(period("quarter", 3)), periodQuery(period("ttm", 1))]).toEqual([
      "",
      "&quarter=3",
      "&ttm=1",
    ]);
    expect(periodQuery(period("ttm", 2))).toBe("&ttm=2");
  });

  // That a record of another period is refused is the client's rule: test/unit/api/answers-to-messages.test.ts.
  it("is answered by records with period 5 ANNUAL, n QUARTERLY or n TTM (spec rules 1-3)", () => {
    expect([periodType(ANNUAL), periodType(period("quarter", 1)), periodType(period("ttm", 1))]).toEqual([
      "ANNUAL",
      "QUARTERLY",
      "TTM",
    ]);
    expect([ANNUAL.n, period("quarter", 2).n, period("ttm", 3).n]).toEqual([5, 2, 3]);
  });
});
