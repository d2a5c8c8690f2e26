// The cell-sources part (src/workbook/refresh/cell-sources.ts): the requests behind each FDQ cell, kept compact in the
// workbook for fdq freeze --share's sources sheet.
import {
  mergeCellSources,
  parseCellSources,
  positionFree,
  serializeCellSources,
  SOURCES_NAMESPACE,
  type CellSourceRecord,
} from "../../../src/workbook/refresh/cell-sources";

const record = (cell: string, formula: string, extra: Partial<CellSourceRecord> = {}): CellSourceRecord => ({
  sheet: 'Model & "Co"',
  cell,
  formula: positionFree(formula, cell),
  day: "2026-11-27",
  period: "FY2023",
  sources: ["GET /metrics/roic/AAPL?datapoint=ROIC&year=2023"],
  ...extra,
});

describe("the cell-sources part", () => {
  it("reads back exactly what it wrote, markup in sheet names, formulas, periods and requests included", () => {
    const records = [
      record("B4", '=FDQ.DATAPOINT($A4,"roic","ROIC",B$1)&"<x>"'),
      record("C9", '=FDQ.SECURITY("AAPL","name")', { period: "", sources: ["GET /coverage/stock/AAPL"] }),
      record("D2", '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")', {
        period: "FY0 = fiscal 2026",
        sources: [],
      }),
    ];
    const xml = serializeCellSources(records);
    expect(xml).toContain(`xmlns="${SOURCES_NAMESPACE}"`);
    expect(parseCellSources(xml)).toEqual(records);
  });

  it("writes each text once: the formulas of a filled-down block are one entry", () => {
    const block = [4, 5, 6].flatMap((row) =>
      ["B", "C"].map((col) => record(`${col}${row}`, `=FDQ.DATAPOINT($A${row},"roic","ROIC",${col}$1)`)),
    );
    const xml = serializeCellSources(block);
    expect(xml.match(/<t>/g)).toHaveLength(4); // the formula, the day, the period, the request
    expect(new Set(block.map((r) => r.formula))).toEqual(new Set(['=FDQ.DATAPOINT($A1,"roic","ROIC",A$1)']));
    // Another formula in the same place reads differently.
    expect(positionFree('=FDQ.DATAPOINT($A4,"roic","ROIC",C$1)', "B4")).not.toBe(block[0]?.formula);
  });

  it("gives no records for a part that is not ours, of a newer version, or damaged", () => {
    const xml = serializeCellSources([record("B4", '=FDQ.INFO("ROIC")')]);
    expect(parseCellSources(xml.replace(SOURCES_NAMESPACE, "urn:other"))).toEqual([]);
    expect(parseCellSources(xml.replace('version="1"', 'version="2"'))).toEqual([]);
    expect(parseCellSources(xml.replace(/ s="\d+"/, ' s="99"'))).toEqual([]);
    expect(parseCellSources("<not xml")).toEqual([]);
  });

  it("replaces the records of refreshed cells, drops those refreshed without one, keeps the others", () => {
    const a = record("A1", "=1");
    const b = record("B1", "=2");
    const c = record("C1", "=3");
    const b2 = { ...b, day: "2026-11-28" };
    expect(
      mergeCellSources(
        [a, b, c],
        [b, c].map((r) => ({ sheet: r.sheet, cell: r.cell })),
        [b2],
      ),
    ).toEqual([a, b2]);
  });
});
