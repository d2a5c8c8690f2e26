// A template's new workbook (src/workbook/templates/template-workbook.ts) read back by the project's own xlsx
// reader: every cell where the template put it, FDQ calls in Excel's stored form, number formats and bold labels
// as styles; and the pane's helpers for the gallery (the preview grid, a free sheet name, the typed tickers).
import { unzipSync } from "fflate";
import { freeSheetName } from "../../../src/taskpane/office/template-sheet";
import { previewGrid, tickersOf } from "../../../src/taskpane/logic/template-gallery";
import { buildTemplate, findTemplate, type TemplateSheet } from "../../../src/workbook/templates";
import { storedFormula, templateWorkbook } from "../../../src/workbook/templates/template-workbook";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";

const walk = (): TemplateSheet => buildTemplate(findTemplate("nopat-reconciliation")!, { tickers: ["aapl"] });

describe("a template's new workbook", () => {
  it("stores FDQ heads as Excel stores an add-in's function and leaves the rest of a formula as written", () => {
    expect(storedFormula('=FDQ.RATING("AAPL","roic")')).toBe('_xldudf_FDQ_RATING("AAPL","roic")');
    expect(storedFormula('=IF(ABS(C18)<=C19,"FDQ.SECTOR(x)",FDQ.SECTOR($B$3,"ROIC_AVG"))')).toBe(
      'IF(ABS(C18)<=C19,"FDQ.SECTOR(x)",_xldudf_FDQ_SECTOR($B$3,"ROIC_AVG"))',
    );
  });

  it("holds every cell of the template, read back by the project's reader", () => {
    const sheet = walk();
    const { model } = readWorkbook(openPackage(templateWorkbook(sheet)));
    expect(model.sheets.map((s) => s.name)).toEqual(["NOPAT walk AAPL"]);
    const rows = model.sheets[0]!.rows;
    const at = (ref: string) => {
      const m = /^([A-Z]+)(\d+)$/.exec(ref)!;
      return rows.get(Number(m[2]))?.get(m[1]!.charCodeAt(0) - 64);
    };
    for (const cell of sheet.cells) {
      const read = at(cell.ref);
      if (cell.formula !== undefined)
        expect({ ref: cell.ref, f: (read as { formula: string }).formula }).toEqual({
          ref: cell.ref,
          f: storedFormula(cell.formula),
        });
      else expect({ ref: cell.ref, v: read }).toEqual({ ref: cell.ref, v: cell.text ?? cell.number });
    }
  });

  it("gives each number format and bold label a style, and does not ask Excel to recalculate on open", () => {
    const parts = unzipSync(templateWorkbook(walk()));
    const styles = new TextDecoder().decode(parts["xl/styles.xml"]);
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="#,##0.00"/>');
    expect(styles).toContain(
      '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
    );
    expect(styles).toContain("<font><b/>");
    const sheetXml = new TextDecoder().decode(parts["xl/worksheets/sheet1.xml"]);
    // E5 (an amount of the walk) has the style whose format is #,##0.00; A4 (a heading) the bold font.
    const xfs = [
      ...(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? "").matchAll(/<xf [^>]*\/>/g),
    ].map((m) => m[0]);
    const styleOf = (ref: string): string | undefined =>
      xfs[Number(new RegExp(`<c r="${ref}" s="(\\d+)"`).exec(sheetXml)?.[1])];
    expect(styleOf("E5")).toContain('numFmtId="164"');
    expect(styleOf("A4")).toContain('fontId="1"');
    expect(new TextDecoder().decode(parts["xl/workbook.xml"])).not.toContain("fullCalcOnLoad");
  });
});

describe("the gallery's helpers", () => {
  it("previews the sheet's top left, an FDQ cell as the datapoint and period it asks", () => {
    const grid = previewGrid(walk(), 6, 4);
    expect(grid[3]).toEqual(["Sign", "Line item", "FY-2", "FY-1"]);
    expect(grid[4]).toEqual(["from", "INCOME_NET", "INCOME_NET FY-2", "INCOME_NET FY-1"]);
  });

  it("numbers a sheet whose name is taken, whatever its case, within 31 characters", () => {
    expect(freeSheetName("Ratings", ["Sheet1"])).toBe("Ratings");
    expect(freeSheetName("Ratings", ["ratings", "Ratings (2)"])).toBe("Ratings (3)");
    expect(freeSheetName("x".repeat(31), ["x".repeat(31)])).toBe(`${"x".repeat(27)} (2)`);
  });

  it("reads tickers separated by commas, spaces or semicolons", () => {
    expect(tickersOf(" AAPL, MSFT;NFLX  K ")).toEqual(["AAPL", "MSFT", "NFLX", "K"]);
  });
});
