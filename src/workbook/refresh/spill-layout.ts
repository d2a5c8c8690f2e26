// Where the spills of this run land, decided while the workbook is recalculated, so that a formula reading
// a cell of a spill reads the new value (and a cell a smaller spill no longer covers reads empty). A spill
// whose range holds the user's data (a value, a formula, or another spill of this run) is #SPILL! and
// places nothing, as in Excel. The cells a dynamic array spilled into last time (its `ref` in the file) are
// the array's own, not the user's data.
import { ExcelError, sheetKey, type FormulaCell, type Scalar, type WorkbookModel } from "../model";
import { addressOfCell, rectOf, refOf, type Rect } from "../engine/references";

const key = (sheet: string, row: number, col: number): string => `${sheetKey(sheet)}!${row}!${col}`;

export interface Placement {
  /** The rows placed, or undefined when the spill was blocked. */
  readonly rows: Scalar[][] | undefined;
  /** The range the rows cover ("B2:D4"), or the anchor alone when blocked. */
  readonly ref: string;
  /** Addresses (A1) of the user's cells that blocked it. */
  readonly blocked: readonly string[];
}

const isFormulaCell = (v: unknown): v is FormulaCell =>
  typeof v === "object" && v !== null && "formula" in v && "sheet" in v;

/** The multi-cell range each array formula of the file covers (its `ref`): a dynamic array's last spill, or
 * a legacy array formula's fixed range. */
export function previousSpills(model: WorkbookModel): Map<FormulaCell, Rect> {
  const previous = new Map<FormulaCell, Rect>();
  for (const cell of model.formulas) {
    if (!cell.array) continue;
    const rect = rectOf(cell.sheet, cell.array.ref);
    if (rect && (rect.bottom > rect.top || rect.right > rect.left)) previous.set(cell, rect);
  }
  return previous;
}

export class SpillLayout {
  /** Cell of a previous spill -> its anchor. */
  private readonly owners = new Map<string, FormulaCell>();
  /** Values of the cells spilled into (or emptied) in this run. */
  private readonly values = new Map<string, Scalar>();
  private readonly placements = new Map<FormulaCell, Placement>();
  private readonly sheets = new Map<string, WorkbookModel["sheets"][number]>();

  constructor(
    model: WorkbookModel,
    private readonly previous: ReadonlyMap<FormulaCell, Rect>,
  ) {
    for (const sheet of model.sheets) this.sheets.set(sheetKey(sheet.name), sheet);
    for (const [anchor, range] of previous) {
      for (let row = range.top; row <= range.bottom; row++) {
        for (let col = range.left; col <= range.right; col++) {
          if (row !== anchor.row || col !== anchor.col) this.owners.set(key(anchor.sheet, row, col), anchor);
        }
      }
    }
  }

  ownerOf(sheet: string, row: number, col: number): FormulaCell | undefined {
    return this.owners.get(key(sheet, row, col));
  }

  /** The value of a cell spilled into or emptied in this run; undefined for any other cell. */
  valueAt(sheet: string, row: number, col: number): Scalar | undefined {
    return this.values.get(key(sheet, row, col));
  }

  /** Whether this run placed (or emptied) anything at the cell. */
  has(sheet: string, row: number, col: number): boolean {
    return this.values.has(key(sheet, row, col));
  }

  placementOf(anchor: FormulaCell): Placement | undefined {
    return this.placements.get(anchor);
  }

  /**
   * A legacy array formula ({=...}) fills its fixed range: a single row or column repeats across it, and a
   * cell beyond a smaller result is #N/A, as in Excel. Answers the anchor's value.
   */
  fill(anchor: FormulaCell, rect: Rect, rows: Scalar[][]): Scalar {
    const height = rect.bottom - rect.top + 1;
    const width = rect.right - rect.left + 1;
    const filled: Scalar[][] = [];
    for (let r = 0; r < height; r++) {
      const line: Scalar[] = [];
      for (let c = 0; c < width; c++) {
        const row = rows.length === 1 ? rows[0] : rows[r];
        const value = row === undefined ? undefined : row.length === 1 ? row[0] : row[c];
        line.push(value === undefined ? new ExcelError("#N/A") : value);
        if (r > 0 || c > 0)
          this.values.set(key(anchor.sheet, rect.top + r, rect.left + c), line[c] as Scalar);
      }
      filled.push(line);
    }
    this.placements.set(anchor, { rows: filled, ref: refOf(rect), blocked: [] });
    return filled[0]?.[0] ?? null;
  }

  /** Places `rows` from `anchor`; answers the anchor's own value (its first, or #SPILL!). */
  place(anchor: FormulaCell, rows: Scalar[][]): Scalar {
    const sheet = this.sheets.get(sheetKey(anchor.sheet));
    const width = Math.max(1, ...rows.map((r) => r.length));
    const blocked: string[] = [];
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < width; c++) {
        if (r === 0 && c === 0) continue;
        const [row, col] = [anchor.row + r, anchor.col + c];
        const k = key(anchor.sheet, row, col);
        // A sheet read in part holds no spilling formula (cell-reach.ts); a cell it did not read is a fault.
        if (sheet?.partial && !sheet.partial.has(row, col))
          throw new Error(`cell ${addressOfCell(row, col)} of sheet "${sheet.name}" was not read`);
        const held = sheet?.rows.get(row)?.get(col);
        const ours = this.owners.get(k) === anchor;
        const placedByOther = this.values.has(k) && this.values.get(k) !== null && !ours;
        if (isFormulaCell(held) || (held !== undefined && held !== null && !ours) || placedByOther) {
          blocked.push(addressOfCell(row, col));
        }
      }
    }
    // The previous spill's cells are emptied; the new ones (when it can spill) are set below.
    const range = this.previous.get(anchor);
    if (range) {
      for (let row = range.top; row <= range.bottom; row++) {
        for (let col = range.left; col <= range.right; col++) {
          const k = key(anchor.sheet, row, col);
          if ((row !== anchor.row || col !== anchor.col) && !this.values.has(k)) this.values.set(k, null);
        }
      }
    }
    if (blocked.length > 0) {
      this.placements.set(anchor, { rows: undefined, ref: addressOfCell(anchor.row, anchor.col), blocked });
      return new ExcelError(
        "#SPILL!",
        `its spill range holds data in ${blocked.join(", ")}; nothing else written`,
      );
    }
    rows.forEach((values, r) =>
      values.forEach((value, c) => {
        if (r > 0 || c > 0) this.values.set(key(anchor.sheet, anchor.row + r, anchor.col + c), value);
      }),
    );
    const ref = refOf({
      top: anchor.row,
      left: anchor.col,
      bottom: anchor.row + rows.length - 1,
      right: anchor.col + width - 1,
    });
    this.placements.set(anchor, { rows, ref, blocked });
    return rows[0]?.[0] ?? null;
  }
}
