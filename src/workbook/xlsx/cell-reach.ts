// Which cells `fdq refresh` must build, cell by cell. The refresh gives new values to the formulas that call FDQ,
// that the file holds no result of, or that read such a cell (transitively); every other formula keeps its cached
// result (src/workbook/refresh/recalculation.ts). The recalculation evaluates those formulas and, to know whether
// they changed, everything they read, transitively. Every other cell is never built as an object: one sheet of a
// million plain cells beside a thousand FDQ cells then costs the memory of the FDQ cells and what they touch.
//
// Decided from the formulas' text and positions alone, before any cell is built, and on the safe side:
//   - changed: the FDQ formulas (in their text or through a defined name), the formulas without a cached result,
//     the what-if data tables (their sheet as a whole); then every formula reading a changed cell, until none is
//     added.
//   - built: the changed formulas, and every cell in a rectangle a built formula reads (a formula found there is
//     built too, until none is added).
// A formula reads what formula-reach.ts finds in its text (a shared formula's follower its master's rectangles,
// moved; a whole column the whole column). A sheet is built whole, and counts as changed as a whole once any of its formulas is, where a cell's
// reach cannot be told from its text: an array formula (legacy or dynamic), a what-if data table, an FDQ call
// whose result may spill (a spilling function, or an argument that may be a range or an array), a spill
// reference (A1#) into it; and where its built formulas are most of its cells (a region would save little).
// Where a formula may reach any cell (INDIRECT, OFFSET, a 3-D reference, a range whose
// ends are computed, a name or table the workbook does not have, a formula that cannot be split into tokens),
// the reach is not decided here: the caller falls back to the sheets' reach (sheet-reach.ts).
import { MAX_COL, MAX_ROW } from "../engine/references";
import { sheetKey, type DefinedName, type Table } from "../model";
import { ReachesAny, ReachOfText, rectOfCorners, type TextReach } from "./formula-reach";

/** What the cell reach needs of one formula cell. */
export interface FormulaAt {
  readonly row: number;
  readonly col: number;
  /** The formula's text as stored; a shared formula's follower gives its master's text and cell (origin). */
  readonly text: string;
  /** A shared formula's follower: its master's cell, where `text` is written from (else the cell itself). */
  readonly originRow: number;
  readonly originCol: number;
  /** The file holds a result of it. */
  readonly cached: boolean;
  /** `<f t="array">` (legacy or dynamic). */
  readonly array: boolean;
  /** `<f t="dataTable">`, with the range it fills. */
  readonly dataTable: boolean;
  readonly tableRange?: string;
}

/** The last row and column holding a cell the reader would build (a value or a formula). */
export interface Extent {
  readonly rows: number;
  readonly cols: number;
}

/** A sheet as the pass sees it: its extent, and how many cells (`<c>` elements) it holds. */
export interface SheetSize extends Extent {
  readonly cells: number;
}

/** The cells of one sheet the refresh builds; reading any other is a fault (workbook-index.ts). */
export class CellRegion {
  private readonly cells = new Set<number>();
  /** Multi-cell rectangles, by block of 256 rows they cover (clipped to the sheet's extent). */
  private readonly blocks = new Map<number, number[]>();

  constructor(readonly extent: Extent) {}

  addCell(row: number, col: number): void {
    this.cells.add(cellKey(row, col));
  }

  addRect(top: number, left: number, bottom: number, right: number): void {
    const last = Math.min(bottom, Math.max(this.extent.rows, top));
    if (top === last && left === right) {
      this.addCell(top, left);
      return;
    }
    for (let block = top >> 8; block <= last >> 8; block++) {
      let list = this.blocks.get(block);
      if (!list) this.blocks.set(block, (list = []));
      list.push(top, left, bottom, right);
    }
  }

  has(row: number, col: number): boolean {
    if (this.cells.has(cellKey(row, col))) return true;
    const list = this.blocks.get(row >> 8);
    if (!list) return false;
    for (let i = 0; i < list.length; i += 4) {
      if (
        row >= (list[i] as number) &&
        col >= (list[i + 1] as number) &&
        row <= (list[i + 2] as number) &&
        col <= (list[i + 3] as number)
      )
        return true;
    }
    return false;
  }
}

/** Per sheet (by sheetKey): unread (nothing needed), built whole, or built in part. */
export type SheetReach = "unread" | "whole" | CellRegion;

const cellKey = (row: number, col: number): number => row * (MAX_COL + 1) + col;

/** A growing list of 32-bit integers. */
class IntList {
  private data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  at(i: number): number {
    return this.data[i] as number;
  }
}

/**
 * The cells the refresh builds, per sheet (sheetKey), or undefined when a formula may reach any cell (then the
 * sheets' reach decides). `formulasOf` visits one sheet's formulas and answers its extent (called once per sheet,
 * in order; a sheet it visits no formula of and gives no extent is left unread unless read).
 */
export function cellsTheRefreshBuilds(
  sheetNames: readonly string[],
  names: readonly DefinedName[],
  tables: readonly Table[],
  formulasOf: (sheet: string, visit: (formula: FormulaAt) => void) => SheetSize,
): Map<string, SheetReach> | undefined {
  try {
    return decide(sheetNames, names, tables, formulasOf);
  } catch (err) {
    if (err instanceof ReachesAny) return undefined;
    throw err;
  }
}

const isWholeSheet = (top: number, left: number, bottom: number, right: number): boolean =>
  top === 1 && left === 1 && bottom === MAX_ROW && right === MAX_COL;

function decide(
  sheetNames: readonly string[],
  names: readonly DefinedName[],
  tables: readonly Table[],
  formulasOf: (sheet: string, visit: (formula: FormulaAt) => void) => SheetSize,
): Map<string, SheetReach> {
  const reach = new ReachOfText(sheetNames, names, tables);
  const sheetCount = sheetNames.length;
  // Every formula of the workbook, sheet by sheet (sheet s holds sheetStart[s] to sheetStart[s + 1]): its cell,
  // and the rectangles it reads, 5 integers each (sheet, top, left, bottom, right), from first[i] to first[i + 1].
  const rowOf = new IntList();
  const colOf = new IntList();
  const first = new IntList();
  const reads = new IntList();
  const seeds = new IntList();
  const sheetStart: number[] = [];
  /** Sheets built whole when anything of them is, and changed whole when any of their formulas is. */
  const whole: boolean[] = new Array<boolean>(sheetCount).fill(false);
  const extents: SheetSize[] = [];
  /** A shared formula's reach, by its master's text: worked out once for the whole group. */
  const sharedReach = new Map<string, TextReach>();
  const read = (sheet: number, top: number, left: number, bottom: number, right: number): void => {
    reads.push(sheet);
    reads.push(top);
    reads.push(left);
    reads.push(bottom);
    reads.push(right);
  };
  let reachesAny = false;
  sheetNames.forEach((sheetName, s) => {
    sheetStart.push(rowOf.length);
    if (reachesAny) return;
    const extent = formulasOf(sheetName, (f) => {
      if (reachesAny) return;
      try {
        see(f, s);
      } catch (err) {
        // Not thrown through the reader, which names the sheet it cannot read in its errors.
        if (!(err instanceof ReachesAny)) throw err;
        reachesAny = true;
      }
    });
    extents.push(extent);
  });
  if (reachesAny) throw new ReachesAny();
  function see(f: FormulaAt, s: number): void {
    const follower = f.originRow !== f.row || f.originCol !== f.col;
    let r = follower ? sharedReach.get(f.text) : undefined;
    if (!r) {
      r = reach.of(f.text);
      if (follower) sharedReach.set(f.text, r);
    }
    const i = rowOf.length;
    rowOf.push(f.row);
    colOf.push(f.col);
    first.push(reads.length);
    if (f.array || f.dataTable || r.wholeOwnSheet) whole[s] = true;
    if (r.callsFdq || !f.cached || f.dataTable) seeds.push(i);
    const dr = f.row - f.originRow;
    const dc = f.col - f.originCol;
    for (const ref of r.refs) {
      const box = rectOfCorners(ref.corners, dr, dc);
      read(ref.sheet === -1 ? s : ref.sheet, box.top, box.left, box.bottom, box.right);
    }
    for (const sheet of r.wholeSheets) read(sheet, 1, 1, MAX_ROW, MAX_COL);
    if (r.ownTable) {
      const table = reach.tableAt(s, f.row, f.col);
      if (!table) throw new ReachesAny();
      read(s, table.top, table.left, table.bottom, table.right);
    }
  }
  const count = rowOf.length;
  first.push(reads.length);
  sheetStart.push(count);
  const sheetOf = new Int32Array(count);
  for (let s = 0; s < sheetCount; s++) sheetOf.fill(s, sheetStart[s], sheetStart[s + 1]);

  // Each sheet's formulas by cell (row-major), to find the formulas inside a rectangle.
  const keyOf = (i: number): number => cellKey(rowOf.at(i), colOf.at(i));
  const order: Int32Array[] = [];
  const keys: Float64Array[] = [];
  for (let s = 0; s < sheetCount; s++) {
    const from = sheetStart[s] as number;
    const ids = new Int32Array((sheetStart[s + 1] as number) - from);
    for (let j = 0; j < ids.length; j++) ids[j] = from + j;
    let sorted = true;
    for (let j = 1; j < ids.length && sorted; j++)
      sorted = keyOf(ids[j - 1] as number) < keyOf(ids[j] as number);
    if (!sorted) ids.sort((a, b) => keyOf(a) - keyOf(b));
    order.push(ids);
    keys.push(Float64Array.from(ids, keyOf));
  }
  /** Visits the formulas of sheet `s` inside the rectangle. */
  const formulasIn = (
    s: number,
    top: number,
    left: number,
    bottom: number,
    right: number,
    visit: (i: number) => void,
  ): void => {
    const k = keys[s] as Float64Array;
    const ids = order[s] as Int32Array;
    const low = cellKey(top, left);
    const high = cellKey(bottom, right);
    let lo = 0;
    let hi = k.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((k[mid] as number) < low) lo = mid + 1;
      else hi = mid;
    }
    for (let j = lo; j < k.length && (k[j] as number) <= high; j++) {
      const i = ids[j] as number;
      const col = colOf.at(i);
      if (col >= left && col <= right) visit(i);
    }
  };

  // changed: cells by sheet and row; whole sheets.
  const changed = new Uint8Array(count);
  const changedRows: Map<number, number[]>[] = Array.from({ length: sheetCount }, () => new Map());
  const changedWhole: boolean[] = new Array<boolean>(sheetCount).fill(false);
  const markChanged = (i: number): void => {
    changed[i] = 1;
    const s = sheetOf[i] as number;
    if (whole[s]) {
      changedWhole[s] = true;
      return;
    }
    const rows = changedRows[s] as Map<number, number[]>;
    const list = rows.get(rowOf.at(i));
    if (list) list.push(colOf.at(i));
    else rows.set(rowOf.at(i), [colOf.at(i)]);
  };
  const touchesChanged = (s: number, top: number, left: number, bottom: number, right: number): boolean => {
    if (changedWhole[s]) return true;
    const rows = changedRows[s] as Map<number, number[]>;
    const inRow = (cols: number[] | undefined): boolean =>
      cols !== undefined && cols.some((c) => c >= left && c <= right);
    if (bottom - top + 1 <= rows.size) {
      for (let r = top; r <= bottom; r++) if (inRow(rows.get(r))) return true;
      return false;
    }
    for (const [r, cols] of rows) if (r >= top && r <= bottom && inRow(cols)) return true;
    return false;
  };
  for (let j = 0; j < seeds.length; j++) markChanged(seeds.at(j));
  for (let grown = true; grown;) {
    grown = false;
    for (let i = 0; i < count; i++) {
      if (changed[i] || changedWhole[sheetOf[i] as number]) continue;
      for (let r = first.at(i); r < first.at(i + 1); r += 5) {
        if (touchesChanged(reads.at(r), reads.at(r + 1), reads.at(r + 2), reads.at(r + 3), reads.at(r + 4))) {
          markChanged(i);
          grown = true;
          break;
        }
      }
    }
  }

  // built: the changed formulas, and what built formulas read, until none is added.
  const built = new Uint8Array(count);
  const builtWhole: boolean[] = new Array<boolean>(sheetCount).fill(false);
  const builtCount: number[] = new Array<number>(sheetCount).fill(0);
  const regions: (CellRegion | undefined)[] = new Array<CellRegion | undefined>(sheetCount).fill(undefined);
  const seenRects = new Set<string>();
  const pending: number[] = [];
  const buildWhole = (s: number): void => {
    whole[s] = true;
    if (builtWhole[s]) return;
    builtWhole[s] = true;
    for (let i = sheetStart[s] as number; i < (sheetStart[s + 1] as number); i++) build(i);
  };
  const build = (i: number): void => {
    if (built[i]) return;
    built[i] = 1;
    pending.push(i);
    const s = sheetOf[i] as number;
    builtCount[s] = (builtCount[s] as number) + 1;
    // A sheet where the formulas built are most of its cells is built whole: a region would save little. (Most of
    // its formulas is not enough: a sheet of FDQ cells beside a million plain values would be built whole.)
    if (!whole[s] && (builtCount[s] as number) * 2 > (extents[s] as SheetSize).cells) buildWhole(s);
  };
  for (let i = 0; i < count; i++) if (changed[i]) build(i);
  for (let s = 0; s < sheetCount; s++) if (changedWhole[s]) buildWhole(s);
  while (pending.length > 0) {
    const i = pending.pop() as number;
    const own = sheetOf[i] as number;
    if (!whole[own])
      (regions[own] ??= new CellRegion(extents[own] as Extent)).addCell(rowOf.at(i), colOf.at(i));
    for (let r = first.at(i); r < first.at(i + 1); r += 5) {
      const s = reads.at(r);
      const [top, left, bottom, right] = [reads.at(r + 1), reads.at(r + 2), reads.at(r + 3), reads.at(r + 4)];
      if (whole[s] || isWholeSheet(top, left, bottom, right)) {
        buildWhole(s);
        continue;
      }
      const key = `${s}:${top}:${left}:${bottom}:${right}`;
      if (seenRects.has(key)) continue;
      seenRects.add(key);
      (regions[s] ??= new CellRegion(extents[s] as Extent)).addRect(top, left, bottom, right);
      formulasIn(s, top, left, bottom, right, build);
    }
  }

  const out = new Map<string, SheetReach>();
  sheetNames.forEach((name, s) => {
    out.set(sheetKey(name), builtWhole[s] ? "whole" : (regions[s] ?? "unread"));
  });
  return out;
}
