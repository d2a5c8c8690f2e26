import {
  FROZEN_NAMESPACE,
  FrozenFormatError,
  mergeFrozen,
  parseFrozen,
  parseFrozenParts,
  serializeFrozen,
  serializeFrozenParts,
  withoutCells,
  type FrozenCell,
} from "../../../src/workbook/freeze/frozen-formulas";

const cell = (
  address: string,
  formula: string,
  value: FrozenCell["value"],
  extra: Partial<FrozenCell> = {},
): FrozenCell => ({
  sheet: "Model & Co",
  cell: address,
  formula,
  value,
  ...extra,
});

describe("frozen formulas kept in the workbook (custom XML part)", () => {
  it("brings back every formula and value exactly: quotes, <, &, newlines, tabs, unicode", () => {
    const cells = [
      cell("A1", '=FDQ.DATAPOINT("AT&T","roic","ROIC",2023)', 0.1 + 0.2, {
        spill: "A1:C3",
        frozenAt: "2026-11-24T08:00:00.000Z",
        refreshDay: "2026-11-24",
      }),
      cell("B2", '=IF(A1<2,"a\r\nb\t>",FDQ.DATAPOINT("MSFT","roic","ROIC",2022))', 'x < y & "z" ☃'),
      cell("C3", "=FDQ.DATAPOINT(A1)", { error: "#N/A" }),
      cell("D4", '=FDQ.INFO("ROIC")', true),
      cell("E5", '=FDQ.INFO("X")', null),
      cell("F6", '=FDQ.INFO("Y")', "  padded  "),
    ];
    const xml = serializeFrozen(cells);
    expect(xml).toContain(`xmlns="${FROZEN_NAMESPACE}" version="1"`);
    expect(parseFrozen(xml)).toEqual(cells);
  });

  it("reads an empty part as no cells", () => {
    expect(parseFrozen(serializeFrozen([]))).toEqual([]);
  });

  it("refuses a part of another namespace, of a newer version, or malformed, saying which", () => {
    expect(() => parseFrozen('<frozenFormulas xmlns="urn:other" version="1"/>')).toThrow(FrozenFormatError);
    expect(() => parseFrozen(serializeFrozen([]).replace('version="1"', 'version="2"'))).toThrow(
      "These formulas were frozen by a newer FDQ for Excel (format 2): update the add-in to restore them.",
    );
    expect(() => parseFrozen("<frozenFormulas")).toThrow(FrozenFormatError);
    const noFormula = serializeFrozen([cell("A1", "=X()", 1)]).replace(
      "<formula>=X()</formula>",
      "<formula>X</formula>",
    );
    expect(() => parseFrozen(noFormula)).toThrow("frozen cell 1 (Model & Co!A1) has no formula.");
  });

  it("refuses to keep a control character XML cannot carry", () => {
    expect(() => serializeFrozen([cell("A1", '=X("\u0001")', 1)])).toThrow(FrozenFormatError);
  });

  it("splits many cells into parts under the size bound and reads them back as one list", () => {
    const cells = Array.from({ length: 50 }, (_, i) =>
      cell(`A${i + 1}`, `=FDQ.DATAPOINT("T${i}","roic","ROIC",2023)`, i),
    );
    const parts = serializeFrozenParts(cells, 2_000);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(2_000);
    expect(parseFrozenParts(parts)).toEqual(cells);
    expect(serializeFrozenParts([])).toEqual([]);
  });

  it("replaces the record of a cell frozen again and forgets restored cells (sheet names without case)", () => {
    const first = [cell("A1", "=X(1)", 1), cell("A2", "=X(2)", 2)];
    const again = [{ ...cell("A1", "=X(9)", 9), sheet: "MODEL & CO" }];
    expect(mergeFrozen(first, again).map((c) => c.formula)).toEqual(["=X(2)", "=X(9)"]);
    expect(withoutCells(first, [{ sheet: "model & co", cell: "A2" }])).toEqual([first[0]]);
  });
});
