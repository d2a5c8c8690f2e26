// Link numbers through Office.js: the active sheet read as retrofit's grid (src/workbook/retrofit/grid.ts) with
// values, formulas (a computed cell is never a candidate), number formats (the match's tolerance and dates) and
// the sheet's protection, in blocks under Excel on the web's 5 MB cap (batched-read.ts); then the accepted
// proposals written as FDQ formulas in one batch, and Undo putting back each constant with its number format.
// A cell changed between reading and writing is left as it is and said.
import type { GridCell, GridSheet } from "../../workbook/retrofit/grid";
import { READ_BUDGET_BYTES, readInBlocks, type Box } from "./batched-read";
import { messageOf } from "../logic/message";
import { quoteSheetName } from "./a1";

/** The active sheet as read, and the selection on it (1-based, inclusive) when the scope is the selection. */
export interface ModelSheetRead {
  readonly sheet: GridSheet;
  readonly selection?: {
    readonly top: number;
    readonly left: number;
    readonly bottom: number;
    readonly right: number;
  };
}

/** A typed number as it was before Link accepted wrote its formula: what Undo puts back. */
export interface ReplacedConstant {
  readonly sheet: string;
  /** "C7" */
  readonly cell: string;
  readonly value: number;
  /** Its number format code ("#,##0.0"). */
  readonly format: string;
  /** The formula written in its place. */
  readonly formula: string;
}

/** One accepted proposal to write: the constant the pane read and the formula that replaces it. */
export interface LinkWrite {
  readonly sheet: string;
  readonly cell: string;
  readonly value: number;
  readonly formula: string;
}

export interface LinkWriteOutcome {
  /** The constants replaced, with their formats: Undo's record. */
  readonly written: readonly ReplacedConstant[];
  /** Cells left as they are (changed since they were read), with why. */
  readonly skipped: readonly { readonly cell: string; readonly reason: string }[];
}

export interface UndoOutcome {
  readonly restored: readonly string[];
  readonly skipped: readonly { readonly cell: string; readonly reason: string }[];
}

const isFormula = (f: unknown): boolean => typeof f === "string" && f.startsWith("=");

/** The cells of one block read at (row, column), 0-based, as 1-based grid cells; empty constants left out. */
export function gridCellsOfBlock(
  row: number,
  column: number,
  formulas: readonly (readonly unknown[])[],
  values: readonly (readonly unknown[])[],
  formats: readonly (readonly unknown[])[],
): GridCell[] {
  const cells: GridCell[] = [];
  values.forEach((line, i) =>
    line.forEach((value, j) => {
      const formula = isFormula(formulas[i]?.[j]);
      if (!formula && (value === "" || value === null || value === undefined)) return;
      const format = formats[i]?.[j];
      cells.push({
        row: row + i + 1,
        col: column + j + 1,
        value:
          typeof value === "number" || typeof value === "boolean" || typeof value === "string" ? value : null,
        formula,
        ...(typeof format === "string" && format !== "" ? { format } : {}),
      });
    }),
  );
  return cells;
}

/**
 * The active sheet's used range as retrofit's grid, block by block under the cap; with the selection's box when
 * `withSelection`. The whole sheet is read either way: the header row and the ticker cell give the numbers
 * their periods and company even when only the numbers are selected.
 */
export async function readModelSheet(
  context: Excel.RequestContext,
  withSelection: boolean,
): Promise<ModelSheetRead> {
  const worksheet = context.workbook.worksheets.getActiveWorksheet().load("name");
  const protection = worksheet.protection.load("protected");
  const used = worksheet
    .getUsedRangeOrNullObject(true)
    .load("isNullObject,rowIndex,columnIndex,rowCount,columnCount");
  const selected = withSelection
    ? context.workbook.getSelectedRange().load("rowIndex,columnIndex,rowCount,columnCount")
    : undefined;
  await context.sync();
  const selection = selected && {
    top: selected.rowIndex + 1,
    left: selected.columnIndex + 1,
    bottom: selected.rowIndex + selected.rowCount,
    right: selected.columnIndex + selected.columnCount,
  };
  const base = { name: worksheet.name, protected: protection.protected };
  if (used.isNullObject) return { sheet: { ...base, cells: [] }, ...(selection ? { selection } : {}) };
  const area: Box = {
    row: used.rowIndex,
    column: used.columnIndex,
    rows: used.rowCount,
    columns: used.columnCount,
  };
  // Number formats ride along with each block's formulas and values; kept here by the block's corner. The
  // blocks are sized by formulas and values alone, so they get two thirds of the budget: a format is rarely
  // longer than a constant's value, which formulas and values each carry once, and a block Excel still refuses
  // for its size is read again as halves.
  const formats = new Map<string, readonly (readonly unknown[])[]>();
  const blocks = await readInBlocks(
    worksheet.name,
    area,
    {
      read: async (box) => {
        const range = worksheet
          .getRangeByIndexes(box.row, box.column, box.rows, box.columns)
          .load("formulas,values,numberFormat");
        await context.sync();
        formats.set(`${box.row},${box.column}`, range.numberFormat);
        return { formulas: range.formulas, values: range.values };
      },
    },
    (READ_BUDGET_BYTES * 2) / 3,
  );
  const cells = blocks.flatMap((b) =>
    gridCellsOfBlock(b.row, b.column, b.formulas, b.values, formats.get(`${b.row},${b.column}`) ?? []),
  );
  return { sheet: { ...base, cells }, ...(selection ? { selection } : {}) };
}

/**
 * Writes each link's formula where its cell still holds the constant read: one sync reads the cells (formula,
 * value, number format), one writes every formula.
 */
export async function writeLinks(
  context: Excel.RequestContext,
  links: readonly LinkWrite[],
): Promise<LinkWriteOutcome> {
  const reads = links.map((link) => ({
    link,
    range: context.workbook.worksheets
      .getItem(link.sheet)
      .getRange(link.cell)
      .load("formulas,values,numberFormat"),
  }));
  await context.sync();
  const written: ReplacedConstant[] = [];
  const skipped: { cell: string; reason: string }[] = [];
  for (const { link, range } of reads) {
    const formula = range.formulas[0]?.[0];
    const value = range.values[0]?.[0];
    if (isFormula(formula) || value !== link.value) {
      skipped.push({
        cell: `${quoteSheetName(link.sheet)}!${link.cell}`,
        reason: "changed since Find matches; left as it is",
      });
      continue;
    }
    range.formulas = [[link.formula]];
    written.push({
      sheet: link.sheet,
      cell: link.cell,
      value: link.value,
      format: String(range.numberFormat[0]?.[0] ?? "General"),
      formula: link.formula,
    });
  }
  if (written.length === 0) return { written, skipped };
  try {
    await context.sync();
    return { written, skipped };
  } catch (err) {
    // Excel keeps what a refused batch did before it stopped: each cell is read again, so those that hold their
    // formula are Undo's to put back and the others are said.
    const again = written.map((w) => ({
      w,
      range: context.workbook.worksheets.getItem(w.sheet).getRange(w.cell).load("formulas"),
    }));
    await context.sync();
    const reason = `Excel refused the formula (${messageOf(err)}); left as it is`;
    return {
      written: again.filter((a) => a.range.formulas[0]?.[0] === a.w.formula).map((a) => a.w),
      skipped: [
        ...skipped,
        ...again
          .filter((a) => a.range.formulas[0]?.[0] !== a.w.formula)
          .map((a) => ({ cell: `${quoteSheetName(a.w.sheet)}!${a.w.cell}`, reason })),
      ],
    };
  }
}

/** Puts back each constant (value and number format) where its cell still holds the formula written. */
export async function undoLinks(
  context: Excel.RequestContext,
  replaced: readonly ReplacedConstant[],
): Promise<UndoOutcome> {
  const reads = replaced.map((r) => ({
    r,
    range: context.workbook.worksheets.getItem(r.sheet).getRange(r.cell).load("formulas"),
  }));
  await context.sync();
  const restored: string[] = [];
  const skipped: { cell: string; reason: string }[] = [];
  for (const { r, range } of reads) {
    const address = `${quoteSheetName(r.sheet)}!${r.cell}`;
    if (range.formulas[0]?.[0] !== r.formula) {
      skipped.push({ cell: address, reason: "changed since it was linked; left as it is" });
      continue;
    }
    range.values = [[r.value]];
    range.numberFormat = [[r.format]];
    restored.push(address);
  }
  if (restored.length > 0) await context.sync();
  return { restored, skipped };
}
