// fdq retrofit --report FILE: one row per number, JSON or CSV by the file's extension (src/cli/retrofit-command.ts).
import { REPORT_COLUMNS, serializeReport } from "../../../src/cli/retrofit-command";
import type { RetrofitRow } from "../../../src/workbook/retrofit/retrofit";

const ROWS: RetrofitRow[] = [
  {
    sheet: "Apple model",
    cell: "B5",
    label: "Net sales ($m)",
    status: "linked",
    modelValue: 19547.9,
    formula: '=FDQ.DATAPOINT("AAPL","screens/traditional","REVENUE",2019)/1000000',
    fdqValue: 19547.89465028,
    scale: "millions",
    difference: 2.7e-7,
    confidence: "high",
  },
  {
    sheet: "Comps",
    cell: "C4",
    label: "Interest",
    status: "ambiguous",
    modelValue: 22.8,
    candidates: ["screens/traditional:EXPENSES_INTEREST", "fundamentals/reported:EXPENSES_INTEREST_MINORITY"],
  },
];

describe("the retrofit report", () => {
  it("is JSON for a .json name: every column for every row, null where a row has none", () => {
    const rows = JSON.parse(serializeReport(ROWS, "links.json")) as Record<string, unknown>[];
    expect(rows.map((r) => Object.keys(r))).toEqual([[...REPORT_COLUMNS], [...REPORT_COLUMNS]]);
    expect(rows[1]).toEqual({
      sheet: "Comps",
      cell: "C4",
      label: "Interest",
      status: "ambiguous",
      formula: null,
      fdqValue: null,
      modelValue: 22.8,
      scale: null,
      flipped: false,
      difference: null,
      confidence: null,
      candidates: [
        "screens/traditional:EXPENSES_INTEREST",
        "fundamentals/reported:EXPENSES_INTEREST_MINORITY",
      ],
    });
  });

  it("is CSV for a .csv name, a formula quoted so a spreadsheet does not run it", () => {
    expect(serializeReport(ROWS, "LINKS.CSV").split("\r\n")).toEqual([
      REPORT_COLUMNS.join(","),
      `Apple model,B5,Net sales ($m),linked,"'=FDQ.DATAPOINT(""AAPL"",""screens/traditional"",""REVENUE"",2019)/1000000",19547.89465028,19547.9,millions,FALSE,2.7e-7,high,`,
      "Comps,C4,Interest,ambiguous,,,22.8,,FALSE,,,screens/traditional:EXPENSES_INTEREST fundamentals/reported:EXPENSES_INTEREST_MINORITY",
      "",
    ]);
  });
});
