// "Share as values": a copy of a workbook for a colleague without the add-in. Its FDQ cells hold their values
// (their dependents keep their formulas and so stay intact), and a sheet "FDQ sources" lists each frozen cell
// with its formula, resolved period, refresh day and source, so every number stays traceable. Host-neutral:
// the task pane and `fdq freeze --share` build the same sheet. The byte-level step (the package patcher of
// src/workbook, which edits cell values inside the xlsx and keeps every other part) implements
// ShareCopyWriter.
import type { FrozenCell } from "../freeze/frozen-formulas";

/** The name of the added sheet; a workbook that already has one gets "FDQ sources (2)" and so on. */
export const SOURCES_SHEET = "FDQ sources";

export const SOURCES_HEADER = [
  "Sheet",
  "Cell",
  "Formula",
  "Value",
  "Period",
  "Refresh day",
  "Source",
] as const;

/** One frozen cell with what makes it traceable. */
export interface SourcedCell extends FrozenCell {
  /** "FY2023", "Q2 FY2023", "TTM to Q2 FY2023", or several joined with "; " for a formula of several calls. */
  readonly period?: string;
  /** Where the number came from: the service requests of its calls, without the key ("GET /metrics/roic/AAPL?..."). */
  readonly source?: string;
}

/** A cell of the sources sheet: always a constant (text is written as text, never as a formula). */
export type SourcesCell = string | number | boolean;

/** A sheet name not yet taken (Excel compares sheet names without regard to case). */
export function sourcesSheetName(existing: readonly string[]): string {
  const taken = new Set(existing.map((s) => s.toLowerCase()));
  if (!taken.has(SOURCES_SHEET.toLowerCase())) return SOURCES_SHEET;
  for (let n = 2; ; n++) {
    const name = `${SOURCES_SHEET} (${n})`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

function valueCell(value: FrozenCell["value"]): SourcesCell {
  if (value === null) return "";
  if (typeof value === "object") return value.error;
  return value;
}

/** The rows of the sources sheet: the header, then one row per cell in the order given. */
export function sourcesRows(cells: readonly SourcedCell[]): SourcesCell[][] {
  return [
    [...SOURCES_HEADER],
    ...cells.map((c) => [
      c.sheet,
      c.cell,
      c.formula,
      valueCell(c.value),
      c.period ?? "",
      c.refreshDay ?? "",
      c.source ?? "",
    ]),
  ];
}

/** What the byte-level step is asked to do to a copy of the workbook's package. */
export interface ShareCopyRequest {
  /** The workbook's file as Office gives it (getFileAsync, compressed: the xlsx package). */
  readonly bytes: Uint8Array;
  /** The cells whose formulas become their values (a spill: its whole range). */
  readonly cells: readonly FrozenCell[];
  /**
   * The sheet to add: `name` is the wanted one (SOURCES_SHEET); the writer, which sees every sheet of the
   * package, takes `sourcesSheetName(its sheet names)`.
   */
  readonly sourcesSheet: { readonly name: string; readonly rows: readonly (readonly SourcesCell[])[] };
}

/** The package step of Share as values: answers the copy's bytes; every part it does not need to touch is kept. */
export interface ShareCopyWriter {
  writeShareCopy(request: ShareCopyRequest): Promise<Uint8Array>;
}
