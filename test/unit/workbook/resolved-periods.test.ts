// The resolved-periods part (src/workbook/refresh/resolved-periods.ts): what each relative period resolved to at the
// last refresh, kept in the workbook for the next refresh's "new period".
import {
  mergeResolvedPeriods,
  parseResolvedPeriods,
  PERIODS_NAMESPACE,
  serializeResolvedPeriods,
  type ResolvedCellPeriods,
} from "../../../src/workbook/refresh/resolved-periods";
import { copyName } from "../../../src/taskpane/logic/share-copy";

const FY0 = '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")&"<x>"';
const b2: ResolvedCellPeriods = {
  sheet: "Model & Co",
  cell: "B2",
  formula: FY0,
  periods: "FY2024",
  day: "2026-01-02",
};
const c3: ResolvedCellPeriods = {
  sheet: "Model",
  cell: "C3",
  formula: "=1",
  periods: "Q3 FY2025; FY2024",
  day: "2026-01-02",
};

describe("the resolved-periods part", () => {
  it("reads back exactly what it wrote, markup in names and formulas included", () => {
    const xml = serializeResolvedPeriods([b2, c3]);
    expect(xml).toContain(`xmlns="${PERIODS_NAMESPACE}"`);
    expect(parseResolvedPeriods(xml)).toEqual([b2, c3]);
  });

  it("gives no records for a part that is not ours, of a newer version, or damaged", () => {
    expect(
      parseResolvedPeriods(serializeResolvedPeriods([b2]).replace(PERIODS_NAMESPACE, "urn:other")),
    ).toEqual([]);
    expect(
      parseResolvedPeriods(serializeResolvedPeriods([b2]).replace('version="1"', 'version="2"')),
    ).toEqual([]);
    expect(parseResolvedPeriods("<resolvedPeriods")).toEqual([]);
    expect(
      parseResolvedPeriods(serializeResolvedPeriods([b2]).replace('day="2026-01-02"', 'day="soon"')),
    ).toEqual([]);
  });

  it("replaces the records of refreshed cells, drops those refreshed without one, keeps the others", () => {
    const moved = { ...b2, periods: "FY2025", day: "2026-01-05" };
    expect(mergeResolvedPeriods([b2, c3], [{ sheet: "model & co", cell: "B2" }], [moved])).toEqual([
      c3,
      moved,
    ]);
    expect(mergeResolvedPeriods([b2, c3], [{ sheet: "Model", cell: "C3" }], [])).toEqual([b2]);
  });
});

describe("the shared copy's file name", () => {
  it("is the workbook's name with (values), its extension kept", () => {
    expect(copyName("https://contoso.sharepoint.com/sites/x/Shared%20Documents/Q3%20model.xlsm?web=1")).toBe(
      "Q3 model (values).xlsm",
    );
    expect(copyName("C:\\Users\\ana\\Forecast.xlsx")).toBe("Forecast (values).xlsx");
    expect(copyName(undefined)).toBe("Workbook (values).xlsx");
    expect(copyName("")).toBe("Workbook (values).xlsx");
  });
});
