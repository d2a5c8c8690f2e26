// The workbook as the formula engine reads it: every non-empty cell by sheet, row and column, a formula
// cell with its stored text and its cached result (none when the file was written by a tool that does not
// calculate), and the defined names. Values are in the engine's form (FormulaError for Excel errors).
import ExcelJS from "exceljs";
import { FormulaError } from "fast-formula-parser";

/** A value as the engine reads and returns it; arrays are a spill's rows. */
export type EngineValue = number | string | boolean | null | FormulaError | EngineValue[][];

export interface FormulaCell {
  readonly sheet: string;
  readonly row: number;
  readonly col: number;
  readonly cell: ExcelJS.Cell;
  /** The formula as stored (a shared formula's follower translated to its own position). */
  readonly stored: string;
  /** The result saved in the file, or undefined when the file has none. */
  readonly cached: EngineValue | undefined;
  /** The range of the dynamic array this cell anchors in the file (its `ref`), when it has one. */
  readonly arrayRef: string | undefined;
}

export interface SheetCells {
  readonly name: string;
  readonly worksheet: ExcelJS.Worksheet;
  /** Row -> column -> the constant's value or the formula cell. */
  readonly rows: Map<number, Map<number, EngineValue | FormulaCell>>;
  lastRow: number;
}

export interface NamedRange {
  readonly sheet: string;
  readonly from: { row: number; col: number };
  readonly to: { row: number; col: number };
}

export interface WorkbookCells {
  /** By lower-case sheet name: Excel's sheet names are case-insensitive. */
  readonly sheets: Map<string, SheetCells>;
  /** Formula cells in sheet order, then row-major: the order precedents are usually found in. */
  readonly formulas: FormulaCell[];
  /** Defined names (workbook-level by lower-case name; sheet-level by "sheet!name"). */
  readonly names: Map<string, NamedRange>;
}

export const isFormulaCell = (v: EngineValue | FormulaCell | undefined): v is FormulaCell =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof FormulaError) && "stored" in v;

/** Excel's serial day number of a date exceljs decoded from a date-formatted number (1900 date system). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const serialOf = (date: Date): number => (date.getTime() - EXCEL_EPOCH_MS) / 86_400_000;

/** A cell value as exceljs reads it, in the engine's form; undefined for an empty cell. */
export function engineValueOf(value: unknown): EngineValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
  if (value instanceof Date) return serialOf(value);
  if (typeof value === "object") {
    if ("error" in value) return new FormulaError(String((value as { error: unknown }).error));
    if ("richText" in value) {
      return (value as { richText: { text: string }[] }).richText.map((r) => r.text).join("");
    }
    if ("text" in value) return String((value as { text: unknown }).text);
  }
  return undefined;
}

const A1 = /^\$?([A-Za-z]{1,3})\$?(\d+)$/;

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

/** "A1" or "$B$2" as row and column. */
export function cellPosition(address: string): { row: number; col: number } | undefined {
  const m = A1.exec(address);
  return m ? { row: Number(m[2]), col: columnNumber(m[1] as string) } : undefined;
}

/** "'Sheet 2'!$A$1:$B$3" or "Data!A1" as a range; undefined for anything else (constants, formulas). */
export function parseRangeText(text: string): NamedRange | undefined {
  const bang = text.lastIndexOf("!");
  if (bang < 0) return undefined;
  let sheet = text.slice(0, bang);
  if (sheet.startsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  const [first, last = first] = text.slice(bang + 1).split(":");
  const from = cellPosition(first ?? "");
  const to = cellPosition(last ?? "");
  return from && to ? { sheet, from, to } : undefined;
}

function definedNames(workbook: ExcelJS.Workbook, sheetNames: readonly string[]): Map<string, NamedRange> {
  const names = new Map<string, NamedRange>();
  for (const entry of workbook.definedNames.model as {
    name: string;
    ranges: string[];
    localSheetId?: number;
  }[]) {
    const range = entry.ranges.length === 1 ? parseRangeText(entry.ranges[0] as string) : undefined;
    if (!range) continue;
    const scope = entry.localSheetId === undefined ? undefined : sheetNames[entry.localSheetId];
    names.set(
      scope === undefined ? entry.name.toLowerCase() : `${scope.toLowerCase()}!${entry.name.toLowerCase()}`,
      range,
    );
  }
  return names;
}

export function readCells(workbook: ExcelJS.Workbook): WorkbookCells {
  const sheets = new Map<string, SheetCells>();
  const formulas: FormulaCell[] = [];
  const sheetNames: string[] = [];
  workbook.eachSheet((worksheet) => {
    sheetNames.push(worksheet.name);
    const sheet: SheetCells = { name: worksheet.name, worksheet, rows: new Map(), lastRow: 0 };
    sheets.set(worksheet.name.toLowerCase(), sheet);
    worksheet.eachRow((row, rowNumber) => {
      const cells = new Map<number, EngineValue | FormulaCell>();
      row.eachCell((cell, col) => {
        if (cell.type === ExcelJS.ValueType.Formula) {
          const model = cell.model as { result?: unknown; shareType?: string; ref?: string };
          const formula: FormulaCell = {
            sheet: worksheet.name,
            row: rowNumber,
            col,
            cell,
            // A shared formula whose master is missing (a damaged file) has no text: the engine reports it.
            stored: cell.formula ?? "",
            cached: engineValueOf(model.result),
            arrayRef: model.shareType === "array" ? model.ref : undefined,
          };
          cells.set(col, formula);
          formulas.push(formula);
          return;
        }
        const value = engineValueOf(cell.value);
        if (value !== undefined) cells.set(col, value);
      });
      if (cells.size > 0) {
        sheet.rows.set(rowNumber, cells);
        sheet.lastRow = Math.max(sheet.lastRow, rowNumber);
      }
    });
  });
  return { sheets, formulas, names: definedNames(workbook, sheetNames) };
}
