// fdq retrofit's scale matching: a typed number against an FDQ value at the scales models use, a flipped
// sign, within the rounding of the cell's number format (src/workbook/retrofit/scale.ts).
import { displayStep, isDateFormat, matchScale } from "../../../../src/workbook/retrofit/scale";

const REVENUE = 25_239_479_689.09;
const ROIC = 0.14603712860724;

describe("scale matching", () => {
  it("matches ones, thousands, millions and billions, rounded at the cell's format", () => {
    expect(matchScale(25_239_479_689.09, REVENUE, "#,##0.00")?.scale.name).toBe("ones");
    expect(matchScale(25_239_480, REVENUE, "#,##0")?.scale.name).toBe("thousands");
    expect(matchScale(25_239.5, REVENUE, "#,##0.0")?.scale.name).toBe("millions");
    expect(matchScale(25.24, REVENUE, "0.00")?.scale.name).toBe("billions");
  });

  it("matches a ratio typed as a percent, and a ratio in a percent format as itself", () => {
    expect(matchScale(14.6, ROIC, "0.0")?.scale.name).toBe("percent");
    expect(matchScale(0.146, ROIC, "0.0%")?.scale.name).toBe("ones");
    expect(matchScale(14.6, ROIC, "0.0%")).toBeUndefined();
  });

  it("matches a flipped sign and says so", () => {
    const m = matchScale(-25_239.5, REVENUE, "#,##0.0;(#,##0.0)");
    expect(m?.scale.name).toBe("millions");
    expect(m?.sign).toBe(-1);
    expect(m?.expected).toBeCloseTo(-25_239.47968909, 8);
  });

  it("refuses a number off by more than half the format's last digit", () => {
    expect(matchScale(25_239.6, REVENUE, "#,##0.0")).toBeUndefined();
    expect(matchScale(25_239.4, REVENUE, "#,##0.0")).toBeUndefined();
  });

  it("takes the rounding of the digits typed in General format", () => {
    expect(matchScale(25_239.48, REVENUE, undefined)?.scale.name).toBe("millions");
    expect(matchScale(25_239.5, REVENUE, "General")?.scale.name).toBe("millions");
    expect(matchScale(25_239.6, REVENUE, "General")).toBeUndefined();
  });

  it("records the relative difference", () => {
    const m = matchScale(25_239.5, REVENUE, "#,##0.0");
    expect(m?.difference).toBeCloseTo((25_239.5 - 25_239.47968909) / 25_239.47968909, 12);
    expect(m?.tolerance).toBeCloseTo(0.05, 6);
  });

  it("refuses a number with too few digits to say anything (more than 5% of rounding)", () => {
    expect(matchScale(0, ROIC, "General")).toBeUndefined();
    expect(matchScale(3, 3_140_000_000, "0")).toBeUndefined();
    expect(matchScale(25, REVENUE, "0")?.scale.name).toBe("billions");
  });

  it("never matches an FDQ value of 0", () => {
    expect(matchScale(0, 0, "0.0")).toBeUndefined();
  });

  it("takes a stated tolerance instead of the format's rounding", () => {
    expect(matchScale(25_400, REVENUE, "#,##0", 0.01)?.scale.name).toBe("millions");
    expect(matchScale(25_600, REVENUE, "#,##0", 0.01)).toBeUndefined();
  });

  it("reads the step of a format: decimals, percent and thousands by a trailing comma", () => {
    expect(displayStep(1, "#,##0.0")).toBeCloseTo(0.1, 12);
    expect(displayStep(1, "0.0%")).toBeCloseTo(0.001, 12);
    expect(displayStep(1, "#,##0,")).toBe(1000);
    expect(displayStep(1, '"$"#,##0.00_);[Red]("$"#,##0.00)')).toBeCloseTo(0.01, 12);
  });

  it("tells date formats from number formats", () => {
    expect(isDateFormat("yyyy-mm-dd")).toBe(true);
    expect(isDateFormat("mmm-yy")).toBe(true);
    expect(isDateFormat("#,##0.0")).toBe(false);
    expect(isDateFormat('"$"#,##0.00')).toBe(false);
    expect(isDateFormat("General")).toBe(false);
  });
});
