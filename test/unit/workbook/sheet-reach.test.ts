// Which worksheets `fdq refresh` builds the cells of (src/workbook/xlsx/sheet-reach.ts): the sheets of FDQ calls,
// of formulas without a cached result, of the formulas reading those (transitively) and of what they read; any
// other sheet is left unread, and the recalculation gives the same results without it.
import { addressOf } from "../../../src/workbook/engine/references";
import type { WorkbookModel } from "../../../src/workbook/model";
import { WorkbookIndex } from "../../../src/workbook/workbook-index";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { sheetsTheRefreshReads, type FormulaSeen } from "../../../src/workbook/xlsx/sheet-reach";
import { recalculated } from "../../support/recalculated";
import { TestBook, type CellValue } from "../../support/xlsx-corpus/test-book";

const FDQ = '_xldudf_FDQ_DATAPOINT(Inputs!A1,"metrics/roic","ROIC",2023)';
/** An FDQ call reading no other sheet. */
const CALL = '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)';

/** A workbook of the given sheets (cells by address), every formula with a cached result unless given none. */
function book(sheets: Record<string, Record<string, CellValue>>): TestBook {
  const b = new TestBook();
  for (const [name, cells] of Object.entries(sheets)) {
    const sheet = b.addWorksheet(name);
    for (const [address, value] of Object.entries(cells)) sheet.getCell(address).value = value;
  }
  return b;
}

const f = (formula: string, result?: number): CellValue =>
  result === undefined ? { formula } : { formula, result };

const WORKBOOK = {
  Data: { A1: 5, B1: f("A1*2", 10), A2: "label", B2: f("SUM(A1:B1)", 15) },
  Inputs: { A1: "AAPL", A2: 2023 },
  Model: { A1: f(FDQ, 0.1), A2: f(FDQ.replace("ROIC", "NOPAT"), 1000), B1: f("A1*Rates!A1", 0.01) },
  Rates: { A1: 0.1 },
  Summary: { A1: f("SUM(Model!A1:B2)", 1000.11), A2: f("Rates!A1+1", 1.1) },
  Other: { A1: f("Data!B2*3", 45) },
};

function read(b: TestBook, refreshReach: boolean): WorkbookModel {
  return readWorkbook(openPackage(b.bytes()), { refreshReach }).model;
}

const unread = (model: WorkbookModel): string[] => model.sheets.filter((s) => s.unread).map((s) => s.name);

/** The reach of formulas given as text, sheet by sheet (every one with a cached result). */
function reach(
  sheets: Record<string, string[]>,
  names: { name: string; text: string; scope?: string }[] = [],
  tables: { name: string; sheet: string }[] = [],
): string[] {
  const found = sheetsTheRefreshReads(
    Object.keys(sheets),
    names.map((n) => ({ ...n, hidden: false })),
    tables.map((t) => ({ ...t, ref: "A1:B3", headerRowCount: 1, totalsRowCount: 0, columns: [] })),
    (sheet, visit: (formula: FormulaSeen) => void) => {
      for (const text of sheets[sheet] ?? []) visit({ text, cached: true, dataTable: false });
    },
  );
  return Object.keys(sheets).filter((s) => found.has(s.toLowerCase()));
}

describe("the sheets fdq refresh reads", () => {
  it("reads the FDQ sheet, the sheets it reads, the sheets reading it and what they read; no other", () => {
    const model = read(book(WORKBOOK), true);
    expect(unread(model)).toEqual(["Data", "Other"]);
    expect(model.sheets.find((s) => s.name === "Data")?.rows.size).toBe(0);
    expect(model.formulas.map((c) => addressOf(c))).toEqual([
      "Model!A1",
      "Model!B1",
      "Model!A2",
      "Summary!A1",
      "Summary!A2",
    ]);
  });

  it("gives the same results as the recalculation of the whole workbook", () => {
    const whole = recalculated(read(book(WORKBOOK), false));
    expect(whole).toEqual(["Model!A1 35", "Model!B1 3.5", "Model!A2 36", "Summary!A1 74.5"]);
    expect(recalculated(read(book(WORKBOOK), true))).toEqual(whole);
  });

  it("reads a sheet holding a formula without a cached result, and the sheets reading it", () => {
    const model = read(book({ ...WORKBOOK, Data: { ...WORKBOOK.Data, C1: f("A1+1") } }), true);
    expect(unread(model)).toEqual([]);
  });

  it("reads a workbook of one sheet whole", () => {
    expect(unread(read(book({ Data: WORKBOOK.Data }), true))).toEqual([]);
  });

  it("never gives an unread sheet's cells as empty: reading one is a fault", () => {
    const index = new WorkbookIndex(read(book(WORKBOOK), true));
    expect(() => index.content("Data", 1, 1)).toThrow('the cells of sheet "Data" were not read');
    expect(() => index.extent("data")).toThrow('the cells of sheet "Data" were not read');
    expect(index.content("Rates", 1, 1)).toBe(0.1);
  });
});

describe("what a formula reads, from its text", () => {
  it("reads the sheets its references name, and a sheet reading a changed sheet changes too", () => {
    // Out reads F, so it changes, and what it reads is read; Far reads only itself.
    expect(reach({ F: [CALL], In: ["A1"], Out: ["F!A1+'In'!B2"], Far: ["SUM(A1:A9)"] })).toEqual([
      "F",
      "In",
      "Out",
    ]);
    expect(reach({ F: [`${CALL}+In!A1`], In: ["1"], Far: ["2"] })).toEqual(["F", "In"]);
  });

  it("follows defined names through names, and tables by name and by structured reference", () => {
    const names = [
      { name: "Rate", text: "In!$A$1" },
      { name: "Both", text: "Rate*2" },
      { name: "Local", text: "Far!$B$1", scope: "Far" },
    ];
    const tables = [{ name: "Prices", sheet: "Tab" }];
    expect(reach({ F: [`${CALL}*Both`], In: [], Far: [], Tab: [] }, names, tables)).toEqual(["F", "In"]);
    expect(reach({ F: [`${CALL}*Local`], In: [], Far: [], Tab: [] }, names, tables)).toEqual(["F", "Far"]);
    expect(reach({ F: [`${CALL}*SUM(Prices[Price])`], In: [], Tab: [] }, names, tables)).toEqual([
      "F",
      "Tab",
    ]);
    expect(reach({ F: [`${CALL}*ROWS(Prices)`], In: [], Tab: [] }, names, tables)).toEqual(["F", "Tab"]);
  });

  it("counts a name calling FDQ as an FDQ call", () => {
    const names = [{ name: "Roic", text: '_xldudf_FDQ_DATAPOINT("AAPL","roic","ROIC",2023)' }];
    expect(reach({ Calc: ["Roic*2"], Far: ["1"] }, names)).toEqual(["Calc"]);
  });

  it("reads every sheet for INDIRECT, OFFSET, a 3-D reference, an unknown sheet or table, or a formula it cannot split", () => {
    const every = ["F", "In", "Far"];
    for (const text of [
      'INDIRECT("In!A1")',
      "SUM(OFFSET(A1,1,1))",
      "SUM(In:Far!A1)",
      "Gone!A1",
      "SUM(Gone[Col])",
      "'In!A1",
    ]) {
      expect([text, reach({ F: [`${CALL}+${text}`], In: [], Far: [] })]).toEqual([text, every]);
    }
  });
});
