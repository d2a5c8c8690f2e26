// Lookups over the WorkbookModel that the recalculation needs on every cell read: sheets by name (Excel
// compares them case-insensitively), how far each sheet is used (to clip A:A), defined names by scope, and
// tables by name and by the cells they cover.
import { sheetKey, type FormulaCell, type Scalar, type Sheet, type Table, type WorkbookModel } from "./model";
import { addressOfCell, rectOf, type Rect } from "./engine/references";
import { engineFormula } from "./formula-text";

export const isFormulaCell = (v: unknown): v is FormulaCell =>
  typeof v === "object" && v !== null && "formula" in v && "sheet" in v;

export class WorkbookIndex {
  private readonly sheets = new Map<string, Sheet>();
  private readonly extents = new Map<string, { rows: number; cols: number }>();
  private readonly names = new Map<string, string>();
  private readonly tables = new Map<string, { table: Table; rect: Rect }>();

  constructor(readonly model: WorkbookModel) {
    for (const sheet of model.sheets) {
      const key = sheetKey(sheet.name);
      this.sheets.set(key, sheet);
      let rows = sheet.partial?.extent.rows ?? 0;
      let cols = sheet.partial?.extent.cols ?? 0;
      for (const [row, cells] of sheet.rows) {
        if (cells.size === 0) continue;
        rows = Math.max(rows, row);
        for (const col of cells.keys()) cols = Math.max(cols, col);
      }
      this.extents.set(key, { rows, cols });
    }
    for (const name of model.names) {
      const scope = name.scope === undefined ? "" : `${sheetKey(name.scope)}!`;
      // A name may call FDQ in any form Excel stores a call in: kept in the one form the engine knows.
      this.names.set(`${scope}${name.name.toLowerCase()}`, engineFormula(name.text).text);
    }
    for (const table of model.tables) {
      const rect = rectOf(table.sheet, table.ref);
      if (rect) this.tables.set(table.name.toLowerCase(), { table, rect });
    }
  }

  sheet(name: string): Sheet | undefined {
    return this.sheets.get(sheetKey(name));
  }

  /** The sheet whose cells are read; a sheet the reader left unread is a fault, never empty cells. */
  private cellsOf(sheet: string): Sheet | undefined {
    const found = this.sheets.get(sheetKey(sheet));
    if (found?.unread) throw new Error(`the cells of sheet "${found.name}" were not read`);
    return found;
  }

  /**
   * The stored content of a cell: a constant, a formula cell, or undefined when empty. A cell the reader did not
   * build (a sheet read in part) is a fault, never an empty cell.
   */
  content(sheet: string, row: number, col: number): Scalar | FormulaCell | undefined {
    const found = this.cellsOf(sheet);
    if (found?.partial && !found.partial.has(row, col))
      throw new Error(`cell ${addressOfCell(row, col)} of sheet "${found.name}" was not read`);
    return found?.rows.get(row)?.get(col);
  }

  extent(sheet: string): { rows: number; cols: number } {
    this.cellsOf(sheet);
    return this.extents.get(sheetKey(sheet)) ?? { rows: 0, cols: 0 };
  }

  isHiddenRow(sheet: string, row: number): boolean {
    return this.cellsOf(sheet)?.hiddenRows?.has(row) ?? false;
  }

  /** Whether the constant at the cell holds a rich value (`vm`). */
  isRichValue(sheet: string, row: number, col: number): boolean {
    return this.cellsOf(sheet)?.richValues?.has(`${row}!${col}`) ?? false;
  }

  /** Widens a sheet's used extent (a spill of this run reaching further). */
  grow(sheet: string, row: number, col: number): void {
    const e = this.extent(sheet);
    this.extents.set(sheetKey(sheet), { rows: Math.max(e.rows, row), cols: Math.max(e.cols, col) });
  }

  /**
   * A defined name's text as seen from `sheet` (its sheet-scoped name first, then the workbook's), its FDQ
   * calls written FDQ.NAME.
   */
  name(name: string, sheet: string): string | undefined {
    const lower = name.toLowerCase();
    return this.names.get(`${sheetKey(sheet)}!${lower}`) ?? this.names.get(lower);
  }

  table(name: string): Table | undefined {
    return this.tables.get(name.toLowerCase())?.table;
  }

  tableAt(sheet: string, row: number, col: number): Table | undefined {
    const key = sheetKey(sheet);
    for (const { table, rect } of this.tables.values()) {
      if (sheetKey(rect.sheet) !== key) continue;
      if (row >= rect.top && row <= rect.bottom && col >= rect.left && col <= rect.right) return table;
    }
    return undefined;
  }
}
