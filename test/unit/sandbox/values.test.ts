// values.ts: deterministic on-demand values, the 17-decimal text, and which names move with price.
import { DATASETS } from "../../../src/catalog";
import { annual, quarter } from "../../../src/sandbox/periods";
import { Evaluator, SP_NAMES, formatDecimal } from "../../../src/sandbox/values";

describe("formatDecimal", () => {
  it.each([
    [0, "0.00000000000000000"],
    [-0, "0.00000000000000000"],
    [1234.5, "1234.50000000000000000"],
    [-1234.56, "-1234.56000000000000000"],
    [0.125, "0.12500000000000000"],
    [-0.00000000000000001, "0.00000000000000000"],
    [123456789012.34, "123456789012.34000000000000000"],
    [Number.NaN, "0.00000000000000000"],
  ])("%p -> %s", (x, text) => {
    expect(formatDecimal(x)).toBe(text);
  });

  it("always has exactly 17 digits after the point and at most 15 significant digits", () => {
    for (const x of [1 / 3, -2 / 3, 1e11 / 7, 98765.4321, -1e-9]) {
      const text = formatDecimal(x);
      expect(text).toMatch(/^-?\d+\.\d{17}$/);
      expect(
        text
          .replace(/^-?0*\.?0*/, "")
          .replace(/0+$/, "")
          .replace(".", "").length,
      ).toBeLessThanOrEqual(15);
    }
  });
});

describe("Evaluator", () => {
  it("is a pure function of seed, ticker, day and period", () => {
    const a = new Evaluator(1, "AAPL", 20000);
    const b = new Evaluator(1, "AAPL", 20000);
    expect(b.value("NOPAT", annual(2020))).toBe(a.value("NOPAT", annual(2020)));
    expect(new Evaluator(2, "AAPL", 20000).value("NOPAT", annual(2020))).not.toBe(
      a.value("NOPAT", annual(2020)),
    );
    expect(new Evaluator(1, "MSFT", 20000).value("NOPAT", annual(2020))).not.toBe(
      a.value("NOPAT", annual(2020)),
    );
  });

  it("computes every catalog datapoint as a finite number for any quarter", () => {
    const ev = new Evaluator(1, "ZZZ", 20000);
    for (const d of DATASETS)
      for (const p of d.datapoints)
        expect([p.name, Number.isFinite(ev.value(p.name, quarter(2015, 3)))]).toEqual([p.name, true]);
  });

  it("only (SP) inputs depend on the day", () => {
    const day1 = new Evaluator(1, "AAPL", 20000);
    const day2 = new Evaluator(1, "AAPL", 20001);
    for (const name of SP_NAMES)
      expect(day1.value(name, annual(2020))).not.toBe(day2.value(name, annual(2020)));
    for (const name of ["REVENUE", "NOPAT", "CAPITAL_INVESTED", "ROIC"])
      expect(day1.value(name, annual(2020))).toBe(day2.value(name, annual(2020)));
  });
});

describe("values computed from the daily price", () => {
  it("move from one day to the next when computed from an (SP) input, and stay otherwise", () => {
    const day1 = new Evaluator(1, "AAPL", 20000);
    const day2 = new Evaluator(1, "AAPL", 20001);
    const moves = (name: string): boolean =>
      day1.value(name, annual(2020)) !== day2.value(name, annual(2020));
    expect(
      [
        "EQUITY_MARKET_VALUE",
        "ENTERPRISE_VALUE",
        "WACC",
        "BOOK_VALUE_ECONOMIC",
        "BOOK_VALUE_ECONOMIC_PER_SHARES_OUTSTANDING_SPLIT_ADJUSTED",
      ].map(moves),
    ).toEqual([true, true, true, true, true]);
    expect(["REVENUE", "NOPAT", "ROIC", "CAPITAL_INVESTED", "ASSETS_UNADJUSTED"].map(moves)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
