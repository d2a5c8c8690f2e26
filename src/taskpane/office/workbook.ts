// Everything the task pane does to the workbook, through Excel's JavaScript API. Components receive a
// WorkbookAccess, so they can be exercised with a fake one and this file is the only one that calls
// Excel.run.
import { asLiteral, literalRows } from "./literal";
import { cellAddress, parseAddress } from "./a1";

export type CellValue = string | number | boolean;

export interface CellSnapshot {
  /** Sheet-qualified, e.g. "Sheet1!B2". */
  readonly address: string;
  /** The formula as typed ("=FDQ.DATAPOINT(...)"), or the constant for a cell without one. */
  readonly formula: string;
  readonly value: CellValue;
}

export interface WorkbookAccess {
  /** The first cell of the selection. */
  selectedCell(): Promise<CellSnapshot>;
  /** Writes a formula into the first cell of the selection; returns that cell's address. */
  writeSelectedCell(formula: string): Promise<string>;
  /** Every cell of every worksheet whose formula calls an FDQ function. */
  fdqCells(): Promise<CellSnapshot[]>;
  /** The FDQ cells of the selection. */
  selectedFdqCells(): Promise<CellSnapshot[]>;
  /** Replaces the FDQ formulas of the selection with their current values; returns how many. */
  freezeSelection(): Promise<number>;
  /** Full calculation: the only kind that re-runs non-volatile custom functions. */
  calculateFull(): Promise<void>;
  selectCell(address: string): Promise<void>;
  /**
   * The values of single cells given by sheet-qualified addresses ("Sheet1!A2"), read in one batch; an
   * address on a sheet that does not exist is left out of the answer.
   */
  cellValues(addresses: readonly string[]): Promise<ReadonlyMap<string, CellValue>>;
}

const FDQ_CALL = /\bFDQ\.[A-Za-z]+\s*\(/i;

export function isFdqFormula(formula: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && FDQ_CALL.test(formula);
}

function asCellValue(value: unknown): CellValue {
  return typeof value === "number" || typeof value === "boolean" ? value : String(value ?? "");
}

/** The FDQ cells of a loaded range (address, formulas and values loaded). */
function fdqCellsOf(range: Excel.Range): CellSnapshot[] {
  const origin = parseAddress(range.address);
  const cells: CellSnapshot[] = [];
  range.formulas.forEach((line: unknown[], i: number) =>
    line.forEach((formula, j) => {
      if (!isFdqFormula(formula)) return;
      const address = cellAddress({ sheet: origin.sheet, row: origin.row + i, column: origin.column + j });
      cells.push({ address, formula, value: asCellValue(range.values[i]?.[j]) });
    }),
  );
  return cells;
}

function canReadSpills(): boolean {
  return Office.context.requirements.isSetSupported("ExcelApi", "1.12");
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
      Excel.run(async (context) => {
        const sheets = context.workbook.worksheets;
        sheets.load("items/name");
        await context.sync();
        const used = sheets.items.map((sheet) => {
          const range = sheet.getUsedRangeOrNullObject(true);
          range.load("isNullObject,address,formulas,values");
          return range;
        });
        await context.sync();
        return used.filter((r) => !r.isNullObject).flatMap(fdqCellsOf);
      }),

    selectedFdqCells: () =>
      Excel.run(async (context) => {
        const range = context.workbook.getSelectedRange();
        range.load("address,formulas,values");
        await context.sync();
        return fdqCellsOf(range);
      }),

    freezeSelection: () =>
      Excel.run(async (context) => {
        const range = context.workbook.getSelectedRange();
        range.load("address,formulas,values");
        await context.sync();
        const cells = fdqCellsOf(range);
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
        const ranges = addresses.flatMap((address) => {
          const { sheet, cell } = parseAddress(address);
          const range = byName.get(sheet.toLowerCase())?.getRange(cell);
          return range ? [{ address, range: range.load("values") }] : [];
        });
        await context.sync();
        return new Map(ranges.map(({ address, range }) => [address, asCellValue(range.values[0]?.[0])]));
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
