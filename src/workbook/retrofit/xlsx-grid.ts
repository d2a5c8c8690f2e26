// The cells fdq retrofit reads (grid.ts), from an xlsx package: each worksheet's constants and formulas from the
// workbook model, each cell's number format from styles.xml (its style's numFmtId: one of Excel's built-in
// formats or the workbook's own), and whether the sheet is protected (<sheetProtection sheet="1">).
import { ExcelError, sheetKey, type WorkbookModel } from "../model";
import type { WorkbookPackage } from "../xlsx/package";
import { attributeIn, layoutOf, scanSheet } from "../xlsx/sheet-scan";
import { unescapeXml } from "../xlsx/xml";
import type { GridCell, GridSheet } from "./grid";

/** Excel's built-in number formats that fdq retrofit tells apart (ECMA-376 §18.8.30); others are General. */
const BUILT_IN: Readonly<Record<number, string>> = {
  0: "General",
  1: "0",
  2: "0.00",
  3: "#,##0",
  4: "#,##0.00",
  9: "0%",
  10: "0.00%",
  11: "0.00E+00",
  12: "# ?/?",
  13: "# ??/??",
  14: "mm-dd-yy",
  15: "d-mmm-yy",
  16: "d-mmm",
  17: "mmm-yy",
  18: "h:mm AM/PM",
  19: "h:mm:ss AM/PM",
  20: "h:mm",
  21: "h:mm:ss",
  22: "m/d/yy h:mm",
  37: "#,##0 ;(#,##0)",
  38: "#,##0 ;[Red](#,##0)",
  39: "#,##0.00;(#,##0.00)",
  40: "#,##0.00;[Red](#,##0.00)",
  45: "mm:ss",
  46: "[h]:mm:ss",
  47: "mmss.0",
  48: "##0.0E+0",
  49: "@",
};

/** The number format of each style index (cellXfs order). */
export function styleFormats(pkg: WorkbookPackage): string[] {
  const part = pkg.relationships(pkg.workbookPart).find((r) => r.type === "styles")?.part;
  if (part === undefined || !pkg.has(part)) return [];
  const xml = pkg.text(part);
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:\w+:)?numFmt\s[^>]*>/g)) {
    const id = attributeIn(m[0], "numFmtId");
    const code = attributeIn(m[0], "formatCode");
    if (id !== undefined && code !== undefined) custom.set(Number(id), unescapeXml(code));
  }
  const xfs = /<(?:\w+:)?cellXfs[\s>][\s\S]*?<\/(?:\w+:)?cellXfs>/.exec(xml)?.[0] ?? "";
  return [...xfs.matchAll(/<(?:\w+:)?xf[\s/>][^>]*>/g)].map((m) => {
    const id = Number(attributeIn(m[0], "numFmtId") ?? "0");
    return custom.get(id) ?? BUILT_IN[id] ?? "General";
  });
}

const PROTECTED = /<(?:\w+:)?sheetProtection\s[^>]*\bsheet="(?:1|true)"/;

/** Every worksheet of the package as fdq retrofit reads it. */
export function gridSheets(pkg: WorkbookPackage, model: WorkbookModel): GridSheet[] {
  const formats = styleFormats(pkg);
  const sheets: GridSheet[] = [];
  for (const entry of pkg.sheets) {
    if (entry.part === undefined) continue;
    const sheet = model.sheets.find((s) => sheetKey(s.name) === sheetKey(entry.name));
    if (!sheet) continue;
    const xml = pkg.text(entry.part);
    const styles = new Map<string, number>();
    scanSheet(
      xml,
      layoutOf(xml),
      () => undefined,
      (span) => {
        const s = attributeIn(xml.slice(span.start, span.tagEnd), "s");
        if (s !== undefined) styles.set(`${span.row}:${span.col}`, Number(s));
      },
    );
    const cells: GridCell[] = [];
    for (const [row, cols] of sheet.rows) {
      for (const [col, held] of cols) {
        const formula = typeof held === "object" && held !== null && !(held instanceof ExcelError);
        const raw = formula ? held.cached : held;
        const value = raw === undefined || raw instanceof ExcelError ? null : raw;
        const style = styles.get(`${row}:${col}`);
        const format = style === undefined ? undefined : formats[style];
        cells.push({ row, col, value, formula, ...(format !== undefined ? { format } : {}) });
      }
    }
    sheets.push({ name: entry.name, cells, protected: PROTECTED.test(xml) });
  }
  return sheets;
}
