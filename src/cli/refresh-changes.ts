// `fdq refresh --changes FILE`: what the refresh changed, for the analyst to read. Every FDQ cell the refresh
// gave a value is compared with the value the workbook held before (its cached value), by the change report's
// rules (src/workbook/changes.ts: kinds, 15 significant digits, sort by size), and the changes are written as
// JSON or CSV by FILE's extension. A spilling FDQ formula is one change, of its anchor's value. Cells the
// refresh left with their old values (skipped) are not changes.
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
} from "../workbook/changes";
import { addressOfCell } from "../workbook/engine/references";
import type { FormulaCell } from "../workbook/model";
import type { CellResult } from "../workbook/recalculation";
import { AtomicOutput, FileProblem, sameFile } from "../workbook/xlsx/node-files";
import type { CellPeriods } from "./refresh-periods";
import { reportOf } from "./refresh-scope";

/**
 * The FDQ cells the refresh gave a value, before and after, with the period each asked before and after
 * (src/cli/refresh-periods.ts: fixed periods from the calls, relative ones from their resolutions).
 */
export function observationsOf(
  results: readonly CellResult[],
  periods: ReadonlyMap<FormulaCell, CellPeriods>,
): CellObservation[] {
  const cells: CellObservation[] = [];
  for (const result of results) {
    if (result.kind !== "value" || !result.callsFdq) continue;
    const { cell } = result;
    const period = periods.get(cell);
    cells.push({
      sheet: cell.sheet,
      cell: addressOfCell(cell.row, cell.col),
      formula: `=${cell.formula}`,
      old: reportOf(cell.cached),
      new: reportOf(result.value),
      ...(period && (period.before !== undefined || period.after !== undefined) ? { period } : {}),
    });
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
  ): Promise<Change[]> {
    const changes = compareCells(observationsOf(results, periods));
    await this.output.commit(new TextEncoder().encode(serializeChanges(changes, this.file)));
    return changes;
  }

  async discard(): Promise<void> {
    await this.output.discard();
  }
}
