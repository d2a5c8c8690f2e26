// Everything the task pane does to the workbook, through Excel's JavaScript API. Components receive a
// WorkbookAccess, so they can be exercised with a fake one and this file is the only one that calls
// Excel.run.
import { asLiteral, literalRows } from "./literal";
import { parseAddress } from "./a1";
import { chunks, isPayloadTooLarge } from "./batched-read";
import {
  asCellValue,
  fdqCellsOfBlock,
  readCellValues,
  readSelectionBlocks,
  readWorkbookBlocks,
  type CellSnapshot,
  type CellValue,
} from "./workbook-reads";

export { isFdqFormula } from "./workbook-reads";
export type { CellSnapshot, CellValue } from "./workbook-reads";

export interface WorkbookAccess {
  /** The first cell of the selection. */
  selectedCell(): Promise<CellSnapshot>;
  /** Writes a formula into the first cell of the selection; returns that cell's address. */
  writeSelectedCell(formula: string): Promise<string>;
  /**
   * Every cell of every worksheet whose formula calls an FDQ function: read sheet by sheet, a big sheet in
   * blocks of rows, each batch under Excel on the web's 5 MB cap (batched-read.ts).
   */
  fdqCells(): Promise<CellSnapshot[]>;
  /** The FDQ cells of the selection. */
  selectedFdqCells(): Promise<CellSnapshot[]>;
  /** Replaces the FDQ formulas of the selection with their current values; returns how many. */
  freezeSelection(): Promise<number>;
  /** Full calculation: the only kind that re-runs non-volatile custom functions. */
  calculateFull(): Promise<void>;
  selectCell(address: string): Promise<void>;
  /**
   * The values of single cells given by sheet-qualified addresses ("Sheet1!A2"), read in batches under Excel
   * on the web's 5 MB cap; an address on a sheet that does not exist is left out of the answer.
   */
  cellValues(addresses: readonly string[]): Promise<ReadonlyMap<string, CellValue>>;
}

function canReadSpills(): boolean {
  return Office.context.requirements.isSetSupported("ExcelApi", "1.12");
}

/**
 * FDQ cells frozen per batch: a spill is read and written back whole (COVERAGE's can be 10,000 rows), so
 * a batch Excel on the web refuses for its size (5 MB) is done again as halves.
 */
const FROZEN_PER_SYNC = 200;

/** Replaces these FDQ cells (of one read) with their values: a spilling formula's whole spill range. */
async function freeze(context: Excel.RequestContext, cells: readonly CellSnapshot[]): Promise<void> {
  try {
    const targets = cells.map((c) => {
      const { sheet, cell } = parseAddress(c.address);
      const anchor = context.workbook.worksheets.getItem(sheet).getRange(cell);
      // A spilling formula's values cover its whole spill range, not only its own cell.
      const spill = canReadSpills() ? anchor.getSpillingToRangeOrNullObject() : undefined;
      spill?.load("isNullObject,values");
      return { anchor, spill, value: c.value };
    });
    await context.sync();
    for (const t of targets) {
      // Service text is written as text, never as a formula (asLiteral).
      if (t.spill && !t.spill.isNullObject) t.spill.values = literalRows(t.spill.values);
      else t.anchor.values = [[asLiteral(t.value)]];
    }
    await context.sync();
  } catch (err) {
    if (!isPayloadTooLarge(err) || cells.length === 1) throw err;
    const half = Math.ceil(cells.length / 2);
    await freeze(context, cells.slice(0, half));
    await freeze(context, cells.slice(half));
  }
}

export function excelWorkbook(): WorkbookAccess {
  return {
    selectedCell: () =>
      Excel.run(async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.load("address,formulas,values");
        await context.sync();
        return {
          address: cell.address,
          formula: String(cell.formulas[0]?.[0] ?? ""),
          value: asCellValue(cell.values[0]?.[0]),
        };
      }),

    writeSelectedCell: (formula) =>
      Excel.run(async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.formulas = [[formula]];
        cell.load("address");
        await context.sync();
        return cell.address;
      }),

    fdqCells: () =>
      Excel.run(async (context) => (await readWorkbookBlocks(context)).flatMap(fdqCellsOfBlock)),

    selectedFdqCells: () =>
      Excel.run(async (context) => (await readSelectionBlocks(context)).flatMap(fdqCellsOfBlock)),

    freezeSelection: () =>
      Excel.run(async (context) => {
        const cells = (await readSelectionBlocks(context)).flatMap(fdqCellsOfBlock);
        for (const chunk of chunks(cells, FROZEN_PER_SYNC)) await freeze(context, chunk);
        return cells.length;
      }),

    calculateFull: () =>
      Excel.run(async (context) => {
        context.workbook.application.calculate(Excel.CalculationType.full);
        await context.sync();
      }),

    cellValues: (addresses) =>
      Excel.run(async (context) => {
        const sheets = context.workbook.worksheets;
        sheets.load("items/name");
        await context.sync();
        // Excel matches sheet names without regard to case, as a formula's reference does.
        const byName = new Map(sheets.items.map((s) => [s.name.toLowerCase(), s]));
        const cells = addresses.flatMap((address) => {
          const { sheet, cell } = parseAddress(address);
          const worksheet = byName.get(sheet.toLowerCase());
          return worksheet ? [{ address, sheet: worksheet, cell }] : [];
        });
        return new Map(await readCellValues(context, cells));
      }),

    selectCell: (address) =>
      Excel.run(async (context) => {
        const { sheet, cell } = parseAddress(address);
        const worksheet = context.workbook.worksheets.getItem(sheet);
        worksheet.activate();
        worksheet.getRange(cell).select();
        await context.sync();
      }),
  };
}
