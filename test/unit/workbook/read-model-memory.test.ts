// What the model read from a worksheet keeps alive (src/workbook/xlsx/read-model.ts): its formulas and texts
// only, never the worksheet's whole text they were read from. A refresh keeps the model to its end, so a kept
// formula holding its sheet's text would hold a sheet of a million cells (tens of MB) for the whole run.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import v8 from "node:v8";
import vm from "node:vm";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { TestBook } from "../../support/xlsx-corpus/test-book";

/** The heap in use after a full collection (jest does not expose global.gc; the flag serves new contexts). */
function retainedHeap(): number {
  v8.setFlagsFromString("--expose_gc");
  (vm.runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}

/** Characters of blank space between <sheetData> and its first row: a worksheet text this long. */
const PADDING = 32_000_000;

const FORMULA = '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)';
const TEXT_RESULT = "a text result long enough to be a slice";

/** One sheet: an FDQ cell and a formula with a text result, in a worksheet text of PADDING characters more. */
function bigSheetBook(): Uint8Array {
  const b = new TestBook();
  const sheet = b.addWorksheet("Model");
  sheet.getCell("A1").value = { formula: FORMULA, result: 0.25 };
  sheet.getCell("B1").value = {
    formula: 'A1&" a text result long enough to be a slice"',
    result: TEXT_RESULT,
  };
  const parts = unzipSync(b.bytes());
  for (const name of Object.keys(parts)) {
    if (!name.startsWith("xl/worksheets/")) continue;
    const xml = strFromU8(parts[name] as Uint8Array);
    parts[name] = strToU8(xml.replace("<sheetData>", `<sheetData>${" ".repeat(PADDING)}`));
  }
  return zipSync(parts);
}

describe("the model read from a worksheet", () => {
  it("keeps its formulas and text results without the worksheet's text", () => {
    const bytes = bigSheetBook();
    const before = retainedHeap();
    const model = readWorkbook(openPackage(bytes), { refreshReach: true, cellReach: true }).model;
    // V8 keeps the subject of the last regular expression match (RegExp.lastMatch) until the next match: a
    // match of our own ends that, as any later work in a refresh does.
    expect(/kept/.test("kept")).toBe(true);
    const kept = retainedHeap() - before;

    expect(model.formulas.map((c) => [c.formula, c.cached])).toEqual([
      [FORMULA, 0.25],
      ['A1&" a text result long enough to be a slice"', TEXT_RESULT],
    ]);
    // The worksheet's text is PADDING characters (one byte each); what stays is the model, well under a tenth.
    expect(kept).toBeLessThan(PADDING / 10);
  });
});
