// A template's sheet (src/workbook/templates) written through Office.js: a new worksheet, its cells' formulas and
// constants, number formats, bold labels and column widths, in one batch. Its FDQ formulas then run as typed
// ones do: Excel calls the functions, and the pane's refresh fills them as any other FDQ cell.
import type { TemplateSheet } from "../../workbook/templates";

/** Points per character of the default font: Excel's column width unit is about 7 pixels at 96 dpi. */
const POINTS_PER_CHARACTER = 5.25;

/** `name`, or `name (2)`, `name (3)`... the first one no sheet has (Excel compares names without case). */
export function freeSheetName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, 31 - suffix.length)}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

export async function insertTemplateSheet(
  context: Excel.RequestContext,
  sheet: TemplateSheet,
): Promise<string> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  const name = freeSheetName(
    sheet.sheetName,
    sheets.items.map((s) => s.name),
  );
  const ws = sheets.add(name);
  for (const cell of sheet.cells) {
    const range = ws.getRange(cell.ref);
    if (cell.format !== undefined) range.numberFormat = [[cell.format]];
    if (cell.bold) range.format.font.bold = true;
    // A constant text goes in as a value with Excel's leading apostrophe, so it is never read as a formula.
    if (cell.formula !== undefined) range.formulas = [[cell.formula]];
    else if (cell.number !== undefined) range.values = [[cell.number]];
    else range.values = [[`'${cell.text ?? ""}`]];
  }
  sheet.widths.forEach((width, i) => {
    ws.getRangeByIndexes(0, i, 1, 1).format.columnWidth = width * POINTS_PER_CHARACTER;
  });
  ws.activate();
  await context.sync();
  return name;
}
