// The pieces behind the production-like flags: the refresh window's clock, restatements, the quota meter and
// the endpoint group names.
import { servedMetadata } from "../../../src/sandbox/beyond-cutoff";
import { endpointGroup, groupNames } from "../../../src/sandbox/endpoint-groups";
import { annual, quarter, quarterIndex } from "../../../src/sandbox/periods";
import { Meter, usageTag } from "../../../src/sandbox/quota";
import { parseRestatement, restatedBefore, restatementFactor } from "../../../src/sandbox/restate";
import { Evaluator } from "../../../src/sandbox/values";

describe("restatements", () => {
  it("parseRestatement: the UTC day and the first quarter of DAY's year", () => {
    expect(parseRestatement("2025-08-15")).toEqual({
      day: Date.UTC(2025, 7, 15) / 86_400_000,
      before: quarterIndex(2025, 1),
    });
    expect(() => parseRestatement("2025-13-01")).toThrow();
  });

  it("restatedBefore: nothing before DAY, the closed years from DAY on", () => {
    const r = parseRestatement("2025-08-15");
    expect(restatedBefore(r, r.day - 1)).toBeUndefined();
    expect(restatedBefore(r, r.day)).toBe(quarterIndex(2025, 1));
    expect(restatedBefore(undefined, r.day)).toBeUndefined();
  });

  it("factors lie between 0.97 and 1.03, at least 0.5% away from 1", () => {
    for (const name of ["REVENUE", "NOPAT", "DEBT", "WACC", "WABSO", "CASH_TAX_RATE"])
      for (const ticker of ["AAPL", "MSFT", "ZZZ", "ENRN:1"]) {
        const f = restatementFactor(1, ticker, name);
        expect([name, ticker, f > 0.97 && f < 1.03 && Math.abs(f - 1) >= 0.005]).toEqual([
          name,
          ticker,
          true,
        ]);
      }
  });

  it("the Evaluator restates the quarters before the index and leaves the others exactly as they were", () => {
    const plain = new Evaluator(1, "AAPL", 20000);
    const restated = new Evaluator(1, "AAPL", 20000, undefined, quarterIndex(2024, 1));
    expect(restated.value("REVENUE", annual(2023))).not.toBe(plain.value("REVENUE", annual(2023)));
    expect(restated.value("WACC", annual(2023))).not.toBe(plain.value("WACC", annual(2023)));
    for (const name of ["REVENUE", "DEBT", "WACC", "WABSO"])
      expect(restated.value(name, quarter(2024, 2))).toBe(plain.value(name, quarter(2024, 2)));
    expect(new Evaluator(1, "AAPL", 20000, undefined, undefined).value("NOPAT", annual(2023))).toBe(
      plain.value("NOPAT", annual(2023)),
    );
  });
});

describe("Meter", () => {
  it("counts per key, limits at the quota, and starts a new month at 0", () => {
    let now = new Date("2025-01-31T23:59:59Z");
    const meter = new Meter(10, () => now);
    meter.charge("a", 9);
    expect(meter.exhausted("a")).toBe(false);
    meter.charge("a", 24);
    expect([meter.units("a"), meter.exhausted("a"), meter.units("b"), meter.exhausted("b")]).toEqual([
      33,
      true,
      0,
      false,
    ]);
    now = new Date("2025-02-01T00:00:00Z");
    expect([meter.units("a"), meter.exhausted("a")]).toEqual([0, false]);
  });

  it("without a quota, it meters and never limits", () => {
    const meter = new Meter(undefined, () => new Date());
    meter.charge("a", 1e9);
    expect([meter.units("a"), meter.exhausted("a")]).toEqual([1e9, false]);
  });

  it("usageTag is 8 hex digits of SHA-256", () => {
    // sha256("abc") = ba7816bf...
    expect(usageTag("abc")).toBe("ba7816bf");
  });
});

describe("endpoint groups", () => {
  it("maps every served endpoint to one of the five groups", () => {
    expect(endpointGroup("metrics/roic")).toBe("Model Data");
    expect(endpointGroup("screens/enhanced")).toBe("Model Data");
    expect(endpointGroup("reconciliation/revenue-to-ebitda")).toBe("Reconciliations");
    expect(endpointGroup("fundamentals/adjusted")).toBe("Adjusted Fundamentals");
    expect(endpointGroup("fundamentals/reported")).toBe("Reported Fundamentals");
    expect(endpointGroup("sector")).toBe("Sector Data");
    expect(() => endpointGroup("nowhere/else")).toThrow();
    for (const m of servedMetadata().values())
      expect(groupNames(m.endpoints)).toMatch(/^[A-Z][A-Za-z ,]+\.$/);
  });

  it("lists each group once, in a fixed order, with a trailing period", () => {
    expect(groupNames("fundamentals/adjusted, metrics/roic, screens/enhanced")).toBe(
      "Model Data, Adjusted Fundamentals.",
    );
  });
});
