// A spill of this run can reach cells that were empty in the file. Anchors are evaluated first so that their
// readers see the spill, but a formula evaluated before an anchor (one the anchor itself reads, say) may have
// read such a cell as empty. This remembers who read which empty cell (near a possible spill only) and who read
// whom, so that such a reader, and everything computed from it, is reported instead of written wrong.
import { sheetKey, type FormulaCell } from "../model";

const key = (sheet: string, row: number, col: number): string => `${sheetKey(sheet)}!${row}!${col}`;

export class StaleReads<N extends { readonly cell: FormulaCell }> {
  /** Per sheet, the top-left-most corner a spill can start from. */
  private readonly corners = new Map<string, { row: number; col: number }>();
  private readonly emptyReads = new Map<string, N[]>();
  private readonly readers = new Map<N, N[]>();

  constructor(anchors: Iterable<FormulaCell>) {
    for (const cell of anchors) {
      const k = sheetKey(cell.sheet);
      const c = this.corners.get(k);
      this.corners.set(k, {
        row: Math.min(c?.row ?? Infinity, cell.row),
        col: Math.min(c?.col ?? Infinity, cell.col),
      });
    }
  }

  /** `reader` read the empty cell: remembered when a spill could reach it. */
  readEmpty(reader: N, sheet: string, row: number, col: number): void {
    const corner = this.corners.get(sheetKey(sheet));
    if (!corner || row < corner.row || col < corner.col) return;
    const k = key(sheet, row, col);
    const list = this.emptyReads.get(k);
    if (!list) this.emptyReads.set(k, [reader]);
    else if (list[list.length - 1] !== reader) list.push(reader);
  }

  /** `reader` read the value of `node`. */
  read(reader: N, node: N): void {
    const list = this.readers.get(node);
    if (!list) this.readers.set(node, [reader]);
    else if (list[list.length - 1] !== reader) list.push(reader);
  }

  /** The formulas (done before the spill) that read the cell as empty, and every formula computed from them. */
  staleAfterPlacing(anchor: N, sheet: string, row: number, col: number, isDone: (n: N) => boolean): N[] {
    const first = (this.emptyReads.get(key(sheet, row, col)) ?? []).filter((n) => n !== anchor && isDone(n));
    const out: N[] = [];
    const seen = new Set<N>();
    const queue = [...first];
    while (queue.length > 0) {
      const n = queue.pop() as N;
      if (seen.has(n)) continue;
      seen.add(n);
      out.push(n);
      for (const r of this.readers.get(n) ?? []) if (isDone(r)) queue.push(r);
    }
    return out;
  }
}
