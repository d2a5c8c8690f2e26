import { SOURCES_HEADER, sourcesRows, sourcesSheetName } from "../../../src/workbook/share/fdq-sources";

describe('the "FDQ sources" sheet of a shared copy', () => {
  it("lists each frozen cell's formula, value, period, refresh day and source under a header", () => {
    expect(
      sourcesRows([
        {
          sheet: "Model",
          cell: "B2",
          formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
          value: 0.31,
          period: "FY2023",
          refreshDay: "2026-11-24",
          source: "GET /metrics/roic/AAPL?datapoint=ROIC&year=2023",
        },
        { sheet: "Model", cell: "B3", formula: "=FDQ.DATAPOINT(A1)", value: { error: "#N/A" } },
      ]),
    ).toEqual([
      [...SOURCES_HEADER],
      [
        "Model",
        "B2",
        '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
        0.31,
        "FY2023",
        "2026-11-24",
        "GET /metrics/roic/AAPL?datapoint=ROIC&year=2023",
      ],
      ["Model", "B3", "=FDQ.DATAPOINT(A1)", "#N/A", "", "", ""],
    ]);
  });

  it("takes a free sheet name, compared without regard to case", () => {
    expect(sourcesSheetName(["Model"])).toBe("FDQ sources");
    expect(sourcesSheetName(["fdq SOURCES", "FDQ sources (2)"])).toBe("FDQ sources (3)");
  });
});
