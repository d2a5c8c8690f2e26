// `fdq refresh --changes FILE`: what the refresh changed, for the analyst to read. Every FDQ cell the refresh
// gave a value is compared with the value the workbook held before (its cached value), by the change report's
// rules (src/workbook/changes/changes.ts: kinds, 15 significant digits, sort by size), and the changes are written as
// JSON or CSV by FILE's extension. Every cell of a result of several cells (a dynamic array such as a SERIES
// or a DATASET, a lifted range, a legacy array formula's range) is compared on its own: its value before (what
// the workbook held in that cell) and after (what the refresh wrote there, or emptied); a cell of an earlier,
// larger spill that the refresh emptied is compared too. Cells the refresh left with their old values
// (skipped) are not changes.
//
// The report is a second output of the run: its file is checked (and its temporary file created) before the
// first request, and written atomically after the workbook, so a report never describes a workbook that was
// not written.
import path from "node:path";
import {
  CHANGE_KINDS,
  compareCells,
  countByKind,
  serializeChanges,
  type CellObservation,
  type Change,
} from "../workbook/changes/changes";
import { addressOfCell, rectOf, type Rect } from "../workbook/engine/references";
import { sheetKey, type FormulaCell, type Scalar, type WorkbookModel } from "../workbook/model";
import type { CellResult } from "../workbook/refresh/recalculation";
import { isFormulaCell } from "../workbook/workbook-index";
import type { CellWrites } from "../workbook/xlsx/patch";
import { AtomicOutput, FileProblem, sameFile } from "../workbook/xlsx/node-files";
import type { CellPeriods } from "./refresh-records";
import { reportOf } from "./scoped-model";

/** The cells a result covers now and covered before, row by row: its new range, then its old one's others. */
function cellsOf(result: Extract<CellResult, { kind: "value" }>): { row: number; col: number }[] {
  const { cell, spill } = result;
  const rects: Rect[] = [];
  const now = spill?.rows ? rectOf(cell.sheet, spill.ref) : undefined;
  if (now) rects.push(now);
  const before = cell.array ? rectOf(cell.sheet, cell.array.ref) : undefined;
  if (before) rects.push(before);
  const seen = new Set<string>();
  const out: { row: number; col: number }[] = [{ row: cell.row, col: cell.col }];
  seen.add(`${cell.row}!${cell.col}`);
  for (const rect of rects) {
    for (let row = rect.top; row <= rect.bottom; row++) {
      for (let col = rect.left; col <= rect.right; col++) {
        if (seen.has(`${row}!${col}`)) continue;
        seen.add(`${row}!${col}`);
        out.push({ row, col });
      }
    }
  }
  return out;
}

/**
 * The FDQ cells the refresh gave a value, before and after, with the period each asked before and after
 * (src/cli/refresh-records.ts: fixed periods from the calls, relative ones from their resolutions): every cell
 * of a result of several cells, each with its own value's period when it has one (a SERIES' year, a lifted
 * range's call), else the formula's.
 */
export function observationsOf(
  results: readonly CellResult[],
  periods: ReadonlyMap<FormulaCell, CellPeriods>,
  model: WorkbookModel,
  writes: CellWrites,
): CellObservation[] {
  const sheets = new Map(model.sheets.map((s) => [sheetKey(s.name), s]));
  const cells: CellObservation[] = [];
  for (const result of results) {
    if (result.kind !== "value" || !result.callsFdq) continue;
    const { cell, spill } = result;
    const formula = `=${cell.formula}`;
    const period = periods.get(cell);
    const rows = sheets.get(sheetKey(cell.sheet))?.rows;
    const written = writes.get(cell.sheet);
    const width = spill?.rows ? Math.max(1, ...spill.rows.map((r) => r.length)) : 1;
    for (const { row, col } of cellsOf(result)) {
      const anchor = row === cell.row && col === cell.col;
      const held = rows?.get(row)?.get(col);
      // A cell holding another formula is that formula's, never this result's.
      if (!anchor && isFormulaCell(held)) continue;
      const old: Scalar | undefined = anchor ? cell.cached : (held as Scalar | undefined);
      const write = written?.get(row)?.get(col);
      const now = anchor ? (write?.value ?? result.value) : write ? write.value : old;
      const i = (row - cell.row) * width + (col - cell.col);
      const inSpill =
        spill?.rows !== undefined && row >= cell.row && col >= cell.col && col - cell.col < width;
      const own = inSpill ? period?.values?.[i] : undefined;
      const pair = own ?? period;
      cells.push({
        sheet: cell.sheet,
        cell: addressOfCell(row, col),
        formula,
        old: reportOf(old),
        new: reportOf(now),
        ...(pair && (pair.before !== undefined || pair.after !== undefined)
          ? {
              period: {
                ...(pair.before !== undefined && { before: pair.before }),
                ...(pair.after !== undefined && { after: pair.after }),
              },
            }
          : {}),
      });
    }
  }
  return cells;
}

/** "3 changes (2 restated, 1 new value)" or "no changes". */
export function changesSentence(changes: readonly Change[]): string {
  if (changes.length === 0) return "no changes";
  const counts = countByKind(changes);
  const parts = CHANGE_KINDS.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  return `${changes.length.toLocaleString("en-US")} ${changes.length === 1 ? "change" : "changes"} (${parts.join(", ")})`;
}

export class ChangesOutput {
  private constructor(
    readonly file: string,
    private readonly output: AtomicOutput,
  ) {}

  /** Checks FILE before any work: not the workbook read or written, in a folder that can be written. */
  static async prepare(file: string, workbooks: readonly string[]): Promise<ChangesOutput> {
    for (const workbook of workbooks) {
      if (await sameFile(file, workbook)) {
        throw new FileProblem(
          `--changes ${file} names the workbook; give the report its own file (.json or .csv)`,
        );
      }
    }
    const ext = path.extname(file).toLowerCase();
    if (ext === ".xlsx" || ext === ".xlsm") {
      throw new FileProblem(
        `--changes ${file}: the report is JSON or CSV; give a file ending in .json or .csv`,
      );
    }
    return new ChangesOutput(file, await AtomicOutput.prepare(file, 1024 * 1024));
  }

  /** Writes the report of `results`; answers the changes. */
  async write(
    results: readonly CellResult[],
    periods: ReadonlyMap<FormulaCell, CellPeriods>,
    model: WorkbookModel,
    writes: CellWrites,
  ): Promise<Change[]> {
    const changes = compareCells(observationsOf(results, periods, model, writes));
    await this.output.commit(new TextEncoder().encode(serializeChanges(changes, this.file)));
    return changes;
  }

  async discard(): Promise<void> {
    await this.output.discard();
  }
}
