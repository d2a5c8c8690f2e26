// The task pane's reads of the workbook, kept under Excel on the web's 5 MB cap per request or response
// (batched-read.ts): whole sheets for Estimate cost, Cells in error and Refresh, the selection clipped to the
// used range for Cell > Freeze, and referenced cells in chunks.
import { cellAddress } from "./a1";
import { chunks, isPayloadTooLarge, readInBlocks, type Box, type SheetBlock } from "./batched-read";

export type CellValue = string | number | boolean;

export interface CellSnapshot {
  /** Sheet-qualified, e.g. "Sheet1!B2". */
  readonly address: string;
  /** The formula as typed ("=FDQ.DATAPOINT(...)"), or the constant for a cell without one. */
  readonly formula: string;
  readonly value: CellValue;
}

const FDQ_CALL = /\bFDQ\.[A-Za-z]+\s*\(/i;

export function isFdqFormula(formula: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && FDQ_CALL.test(formula);
}

export function asCellValue(value: unknown): CellValue {
  return typeof value === "number" || typeof value === "boolean" ? value : String(value ?? "");
}

/** The FDQ cells of a block read at (row, column) of a sheet. */
export function fdqCellsOfBlock(block: SheetBlock): CellSnapshot[] {
  const cells: CellSnapshot[] = [];
  block.formulas.forEach((line, i) =>
    line.forEach((formula, j) => {
      if (!isFdqFormula(formula)) return;
      const address = cellAddress({ sheet: block.sheet, row: block.row + i, column: block.column + j });
      cells.push({ address, formula, value: asCellValue(block.values[i]?.[j]) });
    }),
  );
  return cells;
}

/**
 * Addresses read per sync by cellValues: single cells, a few hundred bytes each at most in practice; a
 * chunk Excel still refuses for its size (long texts) is read again as halves.
 */
const CELLS_PER_READ = 2_000;

/**
 * Every sheet's used range, sheet by sheet in blocks each answered under Excel on the web's 5 MB cap (see
 * batched-read.ts): one sync for the sheets' names, one for their used ranges' extents, one per block.
 */
export async function readWorkbookBlocks(context: Excel.RequestContext): Promise<SheetBlock[]> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  const used = sheets.items.map((sheet) => ({
    sheet,
    range: sheet
      .getUsedRangeOrNullObject(true)
      .load("isNullObject,rowIndex,columnIndex,rowCount,columnCount"),
  }));
  await context.sync();
  const blocks: SheetBlock[] = [];
  for (const { sheet, range } of used) {
    const area = usedBox(range);
    if (area) blocks.push(...(await readArea(context, sheet, sheet.name, area)));
  }
  return blocks;
}

/** The values of single cells, `CELLS_PER_READ` per sync, halving a chunk Excel refuses for its size. */
export async function readCellValues(
  context: Excel.RequestContext,
  cells: readonly { address: string; sheet: Excel.Worksheet; cell: string }[],
): Promise<[string, CellValue][]> {
  const out: [string, CellValue][] = [];
  const readChunk = async (chunk: typeof cells): Promise<void> => {
    const ranges = chunk.map((c) => ({ address: c.address, range: c.sheet.getRange(c.cell).load("values") }));
    try {
      await context.sync();
    } catch (err) {
      if (!isPayloadTooLarge(err) || chunk.length === 1) throw err;
      const half = Math.ceil(chunk.length / 2);
      await readChunk(chunk.slice(0, half));
      await readChunk(chunk.slice(half));
      return;
    }
    for (const { address, range } of ranges) out.push([address, asCellValue(range.values[0]?.[0])]);
  };
  for (const chunk of chunks(cells, CELLS_PER_READ)) await readChunk(chunk);
  return out;
}

/** A sheet's used range as a box (null when the sheet is empty). */
function usedBox(range: Excel.Range): Box | null {
  if (range.isNullObject) return null;
  return { row: range.rowIndex, column: range.columnIndex, rows: range.rowCount, columns: range.columnCount };
}

/** `area` of `sheet` in blocks under the cap, one sync each. */
function readArea(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  name: string,
  area: Box,
): Promise<SheetBlock[]> {
  return readInBlocks(name, area, {
    read: async (box) => {
      const block = sheet
        .getRangeByIndexes(box.row, box.column, box.rows, box.columns)
        .load("formulas,values");
      await context.sync();
      return { formulas: block.formulas, values: block.values };
    },
  });
}

/**
 * The selection, clipped to its sheet's used range (a whole-column selection is a million rows of nothing that
 * would not fit in one answer), in blocks under the cap.
 */
export async function readSelectionBlocks(context: Excel.RequestContext): Promise<SheetBlock[]> {
  const selection = context.workbook.getSelectedRange().load("rowIndex,columnIndex,rowCount,columnCount");
  const sheet = selection.worksheet.load("name");
  const used = sheet
    .getUsedRangeOrNullObject(true)
    .load("isNullObject,rowIndex,columnIndex,rowCount,columnCount");
  await context.sync();
  const within = usedBox(used);
  if (!within) return [];
  const row = Math.max(selection.rowIndex, within.row);
  const column = Math.max(selection.columnIndex, within.column);
  const rows = Math.min(selection.rowIndex + selection.rowCount, within.row + within.rows) - row;
  const columns =
    Math.min(selection.columnIndex + selection.columnCount, within.column + within.columns) - column;
  if (rows <= 0 || columns <= 0) return [];
  return readArea(context, sheet, sheet.name, { row, column, rows, columns });
}

/** The active sheet's used range, in blocks under the cap. */
export async function readActiveSheetBlocks(context: Excel.RequestContext): Promise<SheetBlock[]> {
  const sheet = context.workbook.worksheets.getActiveWorksheet().load("name");
  const used = sheet
    .getUsedRangeOrNullObject(true)
    .load("isNullObject,rowIndex,columnIndex,rowCount,columnCount");
  await context.sync();
  const area = usedBox(used);
  return area ? readArea(context, sheet, sheet.name, area) : [];
}
