// Which cells `fdq refresh` builds (src/workbook/xlsx/cell-reach.ts): the FDQ cells, the formulas without a
// cached result, the formulas reading those (transitively) and every cell those read; any other formula keeps its
// cached value and is never built, and the recalculation gives the same results without it.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { addressOf } from "../../../src/workbook/engine/references";
import type { WorkbookModel } from "../../../src/workbook/model";
import { WorkbookIndex } from "../../../src/workbook/workbook-index";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { recalculated } from "../../support/recalculated";
import { TestBook, type CellValue } from "../../support/xlsx-corpus/test-book";

/** An FDQ call reading its ticker from Inputs!A1. */
const FDQ = '_xldudf_FDQ_DATAPOINT(Inputs!A1,"metrics/roic","ROIC",2023)';

const f = (formula: string, result?: number): CellValue =>
  result === undefined ? { formula } : { formula, result };

function book(
  sheets: Record<string, Record<string, CellValue>>,
  names: { name: string; text: string }[] = [],
): TestBook {
  const b = new TestBook();
  for (const [name, cells] of Object.entries(sheets)) {
    const sheet = b.addWorksheet(name);
    for (const [address, value] of Object.entries(cells)) sheet.getCell(address).value = value;
  }
  b.names.push(...names);
  return b;
}

/** The book's bytes with each sheet's XML edited (to write what TestBook does not: shared formulas). */
function edited(b: TestBook, edit: (xml: string) => string): Uint8Array {
  const parts = unzipSync(b.bytes());
  for (const name of Object.keys(parts)) {
    if (name.startsWith("xl/worksheets/")) parts[name] = strToU8(edit(strFromU8(parts[name] as Uint8Array)));
  }
  return zipSync(parts);
}

type Reach = "cells" | "sheets" | "none";

function read(bytes: Uint8Array, reach: Reach): WorkbookModel {
  return readWorkbook(openPackage(bytes), {
    refreshReach: reach !== "none",
    cellReach: reach === "cells",
  }).model;
}

const built = (model: WorkbookModel): string[] => model.formulas.map((c) => addressOf(c));

const INPUTS = { A1: "AAPL", A2: 2, A3: 3 };

/** Rows 10-19: values and formulas over them that nothing reads, so that a sheet holds more unbuilt formulas than built. */
const FAR: Record<string, CellValue> = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [
    [`A${i + 10}`, i + 10],
    [`B${i + 10}`, f(`A${i + 10}*3`, (i + 10) * 3)],
  ]).flat(),
);

/** Model: an FDQ cell, a chain on it, and formulas reading nothing that changes (unrelated, below). */
const MODEL: Record<string, CellValue> = {
  ...FAR,
  A1: f(FDQ, 0.1),
  B1: f("A1*2", 0.2),
  C1: f("B1+Inputs!A2", 2.2),
  A5: 5,
  B5: f("A5*3", 15),
  C5: f("B5+Inputs!A3", 18),
  A6: 6,
  B6: f("A6*3", 18),
  B7: f("SUM(B5:B6)", 33),
};

describe("the cells fdq refresh builds", () => {
  it("builds an FDQ cell and the chain of formulas depending on it, and no other formula", () => {
    const model = read(book({ Model: MODEL, Inputs: INPUTS }).bytes(), "cells");
    expect(built(model)).toEqual(["Model!A1", "Model!B1", "Model!C1"]);
  });

  it("builds the cells the built formulas read, and the formulas those read with what they read", () => {
    // D1 reads B7, which reads B5:B6, which read A5 and A6: all built, and their cached values stand.
    const model = read(book({ Model: { ...MODEL, D1: f("A1+B7", 33.1) }, Inputs: INPUTS }).bytes(), "cells");
    expect(built(model)).toEqual([
      "Model!A1",
      "Model!B1",
      "Model!C1",
      "Model!D1",
      "Model!B5",
      "Model!B6",
      "Model!B7",
    ]);
    expect(model.sheets[0]?.rows.get(5)?.get(1)).toBe(5);
    expect(model.sheets[0]?.rows.get(6)?.get(1)).toBe(6);
    // C5 reads B5 but is read by none of them: not built.
    expect(model.sheets[0]?.rows.get(5)?.has(3)).toBe(false);
  });

  it("leaves a formula no FDQ cell reaches unbuilt: it is no result, and its cached value is the file's", () => {
    const model = read(book({ Model: MODEL, Inputs: INPUTS }).bytes(), "cells");
    expect(model.sheets[0]?.rows.get(5)).toBeUndefined();
    expect(recalculated(model)).toEqual(["Model!A1 35", "Model!B1 70", "Model!C1 72"]);
  });

  it("builds a formula reading an FDQ cell through a defined name", () => {
    const names = [{ name: "Roic", text: "Model!$A$1" }];
    const model = read(
      book({ Model: { ...MODEL, E1: f("Roic*100", 10) }, Inputs: INPUTS }, names).bytes(),
      "cells",
    );
    expect(built(model)).toContain("Model!E1");
    expect(recalculated(model)).toContain("Model!E1 3500");
  });

  it("builds a formula reading an FDQ cell through a whole column, and every cell of that column", () => {
    const model = read(
      book({ Model: { ...MODEL, E1: f("SUM(A:A)", 11.1) }, Inputs: INPUTS }).bytes(),
      "cells",
    );
    expect(built(model)).toContain("Model!E1");
    // A5, A6 and A10:A19 are values of column A: built, and summed with the FDQ cell's 35.
    expect(recalculated(model)).toContain("Model!E1 191");
    expect(model.sheets[0]?.rows.get(5)?.get(1)).toBe(5);
  });

  it("builds a shared formula's follower reading an FDQ cell, not the cells of the group reading none", () => {
    // F1:F3 one shared formula (G1*2 moved down): only F3 reads an FDQ cell (G3).
    const b = book({
      Model: {
        ...MODEL,
        G1: 1,
        G2: 2,
        G3: f(FDQ, 0.3),
        F1: f("G1*2", 2),
        F2: f("SHARED", 4),
        F3: f("SHARED", 0.6),
      },
      Inputs: INPUTS,
    });
    const bytes = edited(b, (xml) =>
      xml
        .replace("<f>G1*2</f>", '<f t="shared" ref="F1:F3" si="0">G1*2</f>')
        .replaceAll("<f>SHARED</f>", '<f t="shared" si="0"/>'),
    );
    const model = read(bytes, "cells");
    expect(built(model)).toEqual(["Model!A1", "Model!B1", "Model!C1", "Model!F3", "Model!G3"]);
    expect(model.formulas.find((c) => c.row === 3 && c.col === 6)?.formula).toBe("G3*2");
    expect(recalculated(model)).toContain("Model!F3 70");
  });

  it("builds a sheet whole when its built formulas are most of its cells, in part when its plain values are", () => {
    const values = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`Z${i + 1}`, i]));
    const few = { A1: f(FDQ, 0.1), B1: f("A1*2", 0.2), C1: f("A6*3", 18), D1: f("B1+1", 1.2), A6: 6 };
    expect(read(book({ Model: few, Inputs: INPUTS }).bytes(), "cells").sheets[0]?.partial).toBeUndefined();
    const model = read(book({ Model: { ...few, ...values }, Inputs: INPUTS }).bytes(), "cells");
    expect(model.sheets[0]?.partial).toBeDefined();
    expect(built(model)).toEqual(["Model!A1", "Model!B1", "Model!D1"]);
  });

  it("builds a sheet holding an array formula whole", () => {
    const cells = {
      ...MODEL,
      E1: { formula: "B5:B6*2", result: 30, shareType: "array" as const, ref: "E1:E2" },
    };
    const model = read(book({ Model: cells, Inputs: INPUTS }).bytes(), "cells");
    expect(model.sheets[0]?.partial).toBeUndefined();
    expect(built(model)).toHaveLength(18);
  });

  it("builds a sheet whole where an FDQ result may spill (a spilling function, or a range as an argument)", () => {
    for (const call of [
      '_xldudf_FDQ_SERIES("AAPL","metrics/roic","ROIC",2020,2023)',
      '_xldudf_FDQ_DATAPOINT(Inputs!A1:A3,"metrics/roic","ROIC",2023)',
    ]) {
      const model = read(book({ Model: { ...MODEL, A1: f(call, 0.1) }, Inputs: INPUTS }).bytes(), "cells");
      expect([call, model.sheets[0]?.partial === undefined, built(model).length]).toEqual([call, true, 17]);
    }
  });

  it("falls back to the sheets' reach for INDIRECT, OFFSET and a range whose ends are computed", () => {
    for (const text of ['INDIRECT("Inputs!A2")', "SUM(OFFSET(A5,1,0))", "SUM(INDEX(A:A,5):A6)"]) {
      const bytes = book({ Model: { ...MODEL, E1: f(`A1+${text}`, 1) }, Inputs: INPUTS }).bytes();
      const model = read(bytes, "cells");
      expect([text, model.sheets.map((s) => s.partial === undefined && s.unread === undefined)]).toEqual([
        text,
        [true, true],
      ]);
      expect(built(model)).toEqual(built(read(bytes, "sheets")));
    }
  });

  it("gives the same results as the recalculation of the whole workbook", () => {
    const names = [{ name: "Roic", text: "Model!$A$1" }];
    const cells = {
      ...MODEL,
      D1: f("A1+B7", 33.1),
      E1: f("Roic*100", 10),
      E2: f("SUM(A:A)", 11.1),
      H1: f("C1*2"),
    };
    const bytes = book({ Model: cells, Inputs: INPUTS }, names).bytes();
    const whole = recalculated(read(bytes, "none"));
    expect(whole).toHaveLength(7);
    expect(read(bytes, "cells").formulas.length).toBeLessThan(read(bytes, "none").formulas.length);
    expect(recalculated(read(bytes, "cells"))).toEqual(whole);
  });

  it("gives the same results as the whole workbook's on a sheet of many kinds of formulas, built in part", () => {
    const names = [
      { name: "Roic", text: "Model!$A$1" },
      { name: "Twice", text: "Roic*2" },
      { name: "Block", text: "Model!$A$30:$C$32" },
    ];
    const cells: Record<string, CellValue> = {
      ...MODEL,
      // Read by the FDQ cells' dependents: a block of values and formulas, a volatile cached value.
      A30: 1,
      B30: f("A30+1", 2),
      C30: f("B30*2", 4),
      A31: "x",
      B31: f("A30*10", 10),
      A32: 3,
      C32: f("TODAY()", 46000),
      // Dependents of every kind.
      D1: f("VLOOKUP(1,A30:C32,2,FALSE)+A1", 2.1),
      D2: f('INDEX(A30:C32,MATCH("x",A30:A32,0),2)*Twice', 2),
      D3: f('SUMIF(A30:A32,">0",B30:B32)+A1', 2.1),
      D4: f("SUM(Block)+A1", 7.1),
      D5: f("IF(A1>0,SUM(2:2),C30)", 0),
      D6: f("SUBTOTAL(9,B30:B31)+A1", 12.1),
      D7: f("A1+C32", 46000.1),
      D8: f("COUNTA(A:A)+A1", 20.1),
      D9: f("B1*Inputs!A2+Inputs!A3"),
      // Without a cached result, reading nothing that changes: computed.
      E1: f("A30*5"),
      // Formulas nothing changed reaches, so that most of the sheet's formulas are not built.
      ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`K${i + 1}`, f(`J${i + 1}+1`, 1)])),
    };
    const bytes = book({ Model: cells, Inputs: INPUTS }, names).bytes();
    const model = read(bytes, "cells");
    expect(model.sheets[0]?.partial).toBeDefined();
    const whole = recalculated(read(bytes, "none"));
    expect(whole.length).toBeGreaterThan(10);
    expect(recalculated(model)).toEqual(whole);
  });

  it("does not report a circular reference no changed cell reaches: its cached values stand", () => {
    const cells = { ...MODEL, H20: f("H21+1", 1), H21: f("H20+1", 2) };
    const bytes = book({ Model: cells, Inputs: INPUTS }).bytes();
    expect(recalculated(read(bytes, "none"))).toContain("Model!H21 circular reference through Model!H20");
    expect(recalculated(read(bytes, "cells"))).toEqual(["Model!A1 35", "Model!B1 70", "Model!C1 72"]);
  });

  it("never gives a cell it did not build as empty: reading one is a fault", () => {
    const index = new WorkbookIndex(read(book({ Model: MODEL, Inputs: INPUTS }).bytes(), "cells"));
    expect(() => index.content("Model", 5, 2)).toThrow('cell B5 of sheet "Model" was not read');
    expect(() => index.content("Model", 9, 9)).toThrow('cell I9 of sheet "Model" was not read');
    expect(index.content("Model", 1, 2)).toMatchObject({ formula: "A1*2" });
    expect(index.content("Inputs", 2, 1)).toBe(2);
    // The extent of a sheet read in part is the whole sheet's.
    expect(index.extent("Model")).toEqual({ rows: 19, cols: 3 });
  });
});
