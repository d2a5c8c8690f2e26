// The cells of a model as fdq retrofit reads them, whoever read them: the CLI from the xlsx package
// (xlsx-grid.ts), the task pane through Office (range values, formulas and number formats). Host-neutral: no
// Office, no Node.
import { columnLetters } from "../../formula/grid";

/** One non-empty cell. */
export interface GridCell {
  /** 1-based, as in A1 notation. */
  readonly row: number;
  readonly col: number;
  /** A constant, or a formula's cached value. */
  readonly value: number | string | boolean | null;
  /** The cell holds a formula (a computed cell: never a candidate). */
  readonly formula: boolean;
  /** Its number format code ("#,##0.0", "0.0%", "General"); undefined is General. */
  readonly format?: string;
}

export interface GridSheet {
  readonly name: string;
  readonly cells: readonly GridCell[];
  /** The sheet is protected: it is reported and skipped. */
  readonly protected: boolean;
}

/** "B7" of a 1-based row and column. */
export function addressOf(row: number, col: number): string {
  return `${columnLetters(col)}${row}`;
}
