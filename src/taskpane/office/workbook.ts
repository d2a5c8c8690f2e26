// Everything the task pane does to the workbook, through Excel's JavaScript API. Components receive a
// WorkbookAccess, so they can be exercised with a fake one and this file is the only one that calls
// Excel.run.
import type { TemplateSheet } from "../../workbook/templates";
import { insertTemplateSheet } from "./template-sheet";
import {
  readModelSheet,
  undoLinks,
  writeLinks,
  type LinkWrite,
  type LinkWriteOutcome,
  type ModelSheetRead,
  type ReplacedConstant,
  type UndoOutcome,
} from "./link-numbers";
import type { FrozenCell } from "../../workbook/freeze/frozen-formulas";
import { parseAddress } from "./a1";
import { chunks } from "./batched-read";
import {
  readFdqFormulaCells,
  replaceFormulas,
  type FormulaChange,
  type FormulaChangeOutcome,
} from "./doctor";
import { freezeCells, readFrozen, restoreCells, type RestoreOutcome } from "./frozen";
import { handOverCopy, workbookFileBytes, type CopyHandOff } from "./share-file";
import { readResolvedPeriods, writeResolvedPeriods } from "./resolved-periods";
import type { ResolvedCellPeriods } from "../../workbook/refresh/resolved-periods";
import {
  asCellValue,
  fdqCellsOfBlock,
  isFdqFormula,
  readActiveSheetBlocks,
  readCellValues,
  readSelectionBlocks,
  readWorkbookBlocks,
  type CellSnapshot,
  type CellValue,
} from "./workbook-reads";

export { isFdqFormula } from "./workbook-reads";
export type { CellSnapshot, CellValue } from "./workbook-reads";
export type { RestoreOutcome } from "./frozen";

/** What Freeze and Restore formulas cover. */
export type FreezeScope = "selection" | "sheet";

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
  /** The FDQ cells of the active sheet. */
  activeSheetFdqCells(): Promise<CellSnapshot[]>;
  /**
   * Enters the formula each of these cells holds now again, so Excel runs it (and its dependents) and nothing
   * else: the refresh of some cells. A cell no longer holding an FDQ formula is left alone. Answers how many.
   */
  reenterFormulas(addresses: readonly string[]): Promise<number>;
  /**
   * Replaces the FDQ formulas of the scope with their current values, keeping every formula inside the
   * workbook (custom XML parts) for Restore formulas; answers the records. `refreshDays` by address, if known.
   */
  freeze(scope: FreezeScope, refreshDays?: ReadonlyMap<string, string>): Promise<FrozenCell[]>;
  /** The frozen formulas the workbook keeps. */
  frozenFormulas(): Promise<FrozenCell[]>;
  /** Brings back the kept formulas of the scope's sheet or selection, or of the whole workbook. */
  restoreFormulas(scope: FreezeScope | "workbook"): Promise<RestoreOutcome>;
  /** The workbook's file (the .xlsx package) as it is now. */
  fileBytes(): Promise<Uint8Array>;
  /** What each relative period resolved to at the last refresh (resolved-periods.ts); optional for fakes. */
  resolvedPeriods?(): Promise<ResolvedCellPeriods[]>;
  /** Keeps `records` in the workbook in place of the earlier ones. */
  keepResolvedPeriods?(records: readonly ResolvedCellPeriods[]): Promise<void>;
  /**
   * Hands an .xlsx package to the user (share-file.ts): a download named `fileName` in Excel on the web, a new
   * workbook on the desktop; answers which.
   */
  openCopy(bytes: Uint8Array, fileName: string): Promise<CopyHandOff | void>;
  /** Full calculation: the only kind that re-runs non-volatile custom functions. */
  calculateFull(): Promise<void>;
  selectCell(address: string): Promise<void>;
  /**
   * The values of single cells given by sheet-qualified addresses ("Sheet1!A2"), read in batches under Excel
   * on the web's 5 MB cap; an address on a sheet that does not exist is left out of the answer.
   */
  cellValues(addresses: readonly string[]): Promise<ReadonlyMap<string, CellValue>>;
  /**
   * Every formula cell calling an FDQ function in any form, _xldudf_FDQ_ and [2]! included (the formula
   * doctor's read: doctor.ts), in batches under the cap; optional for fakes.
   */
  fdqFormulaCells?(): Promise<CellSnapshot[]>;
  /** Enters one batch of formulas, each only where the cell still holds `from` (doctor.ts); optional for fakes. */
  replaceFormulas?(changes: readonly FormulaChange[]): Promise<FormulaChangeOutcome[]>;
  /**
   * Adds a template's sheet (template-sheet.ts) as a new worksheet, named as the template suggests or with a
   * number after it when that name is taken, and activates it; answers its name. Optional for fakes.
   */
  insertSheet?(sheet: TemplateSheet): Promise<string>;
  /** The active sheet as Link numbers reads it (link-numbers.ts), with the selection's box when asked. */
  readModelSheet?(withSelection: boolean): Promise<ModelSheetRead>;
  /** Writes accepted links in one batch where each cell still holds its constant; optional for fakes. */
  writeLinks?(links: readonly LinkWrite[]): Promise<LinkWriteOutcome>;
  /** Puts back the constants Link accepted replaced, where each cell still holds the formula written. */
  undoLinks?(replaced: readonly ReplacedConstant[]): Promise<UndoOutcome>;
}

/** Formulas entered again per sync. */
const ENTERED_PER_SYNC = 200;

/** The selection's or the active sheet's sheet name and box, for Restore formulas of a scope. */
async function scopeBox(
  context: Excel.RequestContext,
  scope: FreezeScope,
): Promise<{ sheet: string; box?: { row: number; column: number; rows: number; columns: number } }> {
  if (scope === "sheet") {
    const sheet = context.workbook.worksheets.getActiveWorksheet().load("name");
    await context.sync();
    return { sheet: sheet.name };
  }
  const range = context.workbook.getSelectedRange().load("rowIndex,columnIndex,rowCount,columnCount");
  const sheet = range.worksheet.load("name");
  await context.sync();
  return {
    sheet: sheet.name,
    box: { row: range.rowIndex, column: range.columnIndex, rows: range.rowCount, columns: range.columnCount },
  };
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

    insertSheet: (sheet) => Excel.run((context) => insertTemplateSheet(context, sheet)),

    readModelSheet: (withSelection) => Excel.run((context) => readModelSheet(context, withSelection)),
    writeLinks: (links) => Excel.run((context) => writeLinks(context, links)),
    undoLinks: (replaced) => Excel.run((context) => undoLinks(context, replaced)),

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

    activeSheetFdqCells: () =>
      Excel.run(async (context) => (await readActiveSheetBlocks(context)).flatMap(fdqCellsOfBlock)),

    reenterFormulas: (addresses) =>
      Excel.run(async (context) => {
        let entered = 0;
        for (const chunk of chunks(addresses, ENTERED_PER_SYNC)) {
          const ranges = chunk.map((address) => {
            const { sheet, cell } = parseAddress(address);
            return context.workbook.worksheets.getItem(sheet).getRange(cell).load("formulas");
          });
          await context.sync();
          for (const range of ranges) {
            // What the cell holds now, not what was read before: an edit made meanwhile is never undone.
            const formula = range.formulas[0]?.[0];
            if (!isFdqFormula(formula)) continue;
            range.formulas = [[formula]];
            entered++;
          }
          await context.sync();
        }
        return entered;
      }),

    freeze: (scope, refreshDays) =>
      Excel.run(async (context) => {
        const blocks =
          scope === "sheet" ? await readActiveSheetBlocks(context) : await readSelectionBlocks(context);
        const cells = blocks.flatMap(fdqCellsOfBlock);
        return freezeCells(context, cells, { now: new Date(), ...(refreshDays ? { refreshDays } : {}) });
      }),

    frozenFormulas: () => Excel.run(async (context) => (await readFrozen(context)).cells),

    restoreFormulas: (scope) =>
      Excel.run(async (context) => {
        if (scope === "workbook") return restoreCells(context);
        const { sheet, box } = await scopeBox(context, scope);
        return restoreCells(context, (c) => {
          if (c.sheet.toLowerCase() !== sheet.toLowerCase()) return false;
          if (!box) return true;
          const p = parseAddress(`x!${c.cell}`);
          return (
            p.row >= box.row &&
            p.row < box.row + box.rows &&
            p.column >= box.column &&
            p.column < box.column + box.columns
          );
        });
      }),

    fileBytes: () => workbookFileBytes(),

    resolvedPeriods: () => Excel.run((context) => readResolvedPeriods(context)),

    keepResolvedPeriods: (records) => Excel.run((context) => writeResolvedPeriods(context, records)),

    openCopy: (bytes, fileName) => handOverCopy(bytes, fileName),

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

    fdqFormulaCells: () => Excel.run((context) => readFdqFormulaCells(context)),

    replaceFormulas: (changes) => Excel.run((context) => replaceFormulas(context, changes)),

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
