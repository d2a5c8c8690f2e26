import type { FdqRequest } from "../../../src/api";
import { parseRelativePeriod } from "../../../src/catalog";
import { requestPeriod } from "../../../src/workbook/changes/call-periods";

const datapoint = (year: unknown, extra: object = {}): FdqRequest =>
  ({
    kind: "datapoint",
    request: { ticker: "AAPL", dataset: "roic", name: "ROIC", year, ...extra },
  }) as unknown as FdqRequest;

describe("requestPeriod (the period a change report names)", () => {
  it("names a fixed fiscal year, quarter or trailing twelve months as an analyst does", () => {
    expect(requestPeriod(datapoint(2023))).toBe("FY2023");
    expect(requestPeriod(datapoint(2023, { quarter: 2 }))).toBe("Q2 FY2023");
    expect(requestPeriod(datapoint(2023, { ttm: 2 }))).toBe("TTM to Q2 FY2023");
  });

  it("names a relative period by its own words, parsed or as typed", () => {
    expect(requestPeriod(datapoint(parseRelativePeriod("fy-1")))).toBe("FY-1");
    expect(requestPeriod(datapoint("ltm"))).toBe("LTM");
  });

  it("has no period for a request without a year, rather than failing the report", () => {
    expect(requestPeriod(datapoint(null))).toBeUndefined();
    expect(requestPeriod(datapoint(undefined))).toBeUndefined();
  });
});
