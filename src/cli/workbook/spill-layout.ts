// Where the spills of this run land, decided while the workbook is recalculated, so that a formula reading
// a cell of a spill reads the new value (and a cell a smaller spill no longer covers reads empty). A spill
// whose range holds the user's data (a value, a formula, or another spill of this run) is #SPILL! and
// places nothing, as in Excel. The cells fdq spilled into last time are fdq's own, not the user's data.
import { FormulaError } from "fast-formula-parser";
import { addressOfCell } from "./addresses";
import {
  isFormulaCell,
  type EngineValue,
  type FormulaCell,
  type NamedRange,
  type WorkbookCells,
} from "./cells";

const key = (sheet: string, row: number, col: number): string => `${sheet.toLowerCase()}!${row}!${col}`;

export interface Placement {
  /** The rows placed, or undefined when the spill was blocked. */
  readonly rows: EngineValue[][] | undefined;
  /** Addresses (A1) of the user's cells that blocked it. */
  readonly blocked: readonly string[];
}

export class SpillLayout {
  /** Cell of a previous spill -> its anchor. */
  private readonly owners = new Map<string, FormulaCell>();
  /** Values of the cells spilled into (or emptied) in this run. */
  private readonly values = new Map<string, EngineValue>();
  private readonly placements = new Map<FormulaCell, Placement>();

  constructor(
    private readonly workbook: WorkbookCells,
    private readonly previous: ReadonlyMap<FormulaCell, NamedRange>,
  ) {
    for (const [anchor, range] of previous) {
      for (let row = range.from.row; row <= range.to.row; row++) {
        for (let col = range.from.col; col <= range.to.col; col++) {
          if (row !== anchor.row || col !== anchor.col) this.owners.set(key(anchor.sheet, row, col), anchor);
        }
      }
    }
  }

  ownerOf(sheet: string, row: number, col: number): FormulaCell | undefined {
    return this.owners.get(key(sheet, row, col));
  }

  /** The value of a cell spilled into or emptied in this run; undefined for any other cell. */
  valueAt(sheet: string, row: number, col: number): EngineValue | undefined {
    return this.values.get(key(sheet, row, col));
  }

  placementOf(anchor: FormulaCell): Placement | undefined {
    return this.placements.get(anchor);
  }

  /** Places `rows` from `anchor`; answers the anchor's own value (its first, or #SPILL!). */
  place(anchor: FormulaCell, rows: EngineValue[][]): EngineValue {
    const sheet = this.workbook.sheets.get(anchor.sheet.toLowerCase());
    const width = Math.max(1, ...rows.map((r) => r.length));
    const blocked: string[] = [];
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < width; c++) {
        if (r === 0 && c === 0) continue;
        const [row, col] = [anchor.row + r, anchor.col + c];
        const k = key(anchor.sheet, row, col);
        const held = sheet?.rows.get(row)?.get(col);
        const ours = this.owners.get(k) === anchor;
        if (isFormulaCell(held) || (held !== undefined && !ours) || (this.values.has(k) && !ours)) {
          blocked.push(addressOfCell(row, col));
        }
      }
    }
    // The previous spill's cells are emptied; the new ones (when it can spill) are set below.
    const range = this.previous.get(anchor);
    if (range) {
      for (let row = range.from.row; row <= range.to.row; row++) {
        for (let col = range.from.col; col <= range.to.col; col++) {
          if (row !== anchor.row || col !== anchor.col) this.values.set(key(anchor.sheet, row, col), null);
        }
      }
    }
    if (blocked.length > 0) {
      this.placements.set(anchor, { rows: undefined, blocked });
      return new FormulaError(
        "#SPILL!",
        `its spill range holds data in ${blocked.join(", ")}; nothing else written`,
      );
    }
    rows.forEach((values, r) =>
      values.forEach((value, c) => {
        if (r > 0 || c > 0) this.values.set(key(anchor.sheet, anchor.row + r, anchor.col + c), value);
      }),
    );
    this.placements.set(anchor, { rows, blocked });
    return rows[0]?.[0] ?? null;
  }
}
