// The formula doctor: the FDQ cells Excel no longer recognises (docs/taskpane.md), found and entered again as a
// user pressing F2 and Enter on each would, in batches with progress, and undone on request.
//
// A cell needs the doctor when its formula shows an FDQ call in a form Excel does not bind to the add-in
// (_xldudf_FDQ_NAME, _xludf.FDQ.NAME, an external-workbook prefix such as [2]! or 'C:\...\BloombergUI.xla'!, or
// lower case: the rule is src/functions/formula-repair.ts, shared with `fdq repair`), or when it shows #NAME?
// on a recognised FDQ call (a workbook saved while the add-in was not loaded: the text is right but Excel
// never bound it). The first gets its heads rewritten to FDQ.NAME, the arguments untouched; the second is
// entered again as it is. Each cell's formula before the repair is kept (in the pane, until it closes) for Undo.
import { callsFdqFunction, repairFormula } from "../../functions/formula-repair";
import type { DoctorOffers } from "../office/document-settings";
import type { FormulaChange, FormulaChangeOutcome } from "../office/doctor";
import type { CellSnapshot, CellValue } from "../office/workbook-reads";

export type { FormulaChange, FormulaChangeOutcome } from "../office/doctor";

export interface DoctorFinding {
  /** Sheet-qualified address. */
  readonly address: string;
  /** The formula as Excel shows it now. */
  readonly before: string;
  /** The formula the doctor enters (the same text when only entering it again binds it). */
  readonly after: string;
  readonly value: CellValue;
}

/** The FDQ cells Excel does not recognise, among cells read with their formulas and values. */
export function findUnrecognised(cells: readonly CellSnapshot[]): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  for (const cell of cells) {
    if (!cell.formula.startsWith("=")) continue;
    const repair = repairFormula(cell.formula, "excel");
    if (repair.changed) {
      findings.push({ address: cell.address, before: cell.formula, after: repair.text, value: cell.value });
    } else if (cell.value === "#NAME?" && callsFdqFunction(cell.formula)) {
      findings.push({ address: cell.address, before: cell.formula, after: cell.formula, value: cell.value });
    }
  }
  return findings;
}

/**
 * The start-up offer, once per workbook: the cells to offer to repair, or undefined when the workbook was offered
 * the repair before (nothing is read then) or has no such cell (nothing is recorded then, so a workbook that
 * later gets such cells is offered the repair when it next opens).
 */
export async function startupOffer(
  offers: DoctorOffers,
  read: () => Promise<readonly CellSnapshot[]>,
): Promise<DoctorFinding[] | undefined> {
  if (await offers.offered()) return undefined;
  const findings = findUnrecognised(await read());
  if (findings.length === 0) return undefined;
  await offers.markOffered();
  return findings;
}

/** Enters one batch of formulas (office/doctor.ts replaceFormulas in Excel). */
export type FormulaWriter = (changes: readonly FormulaChange[]) => Promise<FormulaChangeOutcome[]>;

/** Cells entered per batch: one sync to read them and one to write, each far under Excel on the web's 5 MB. */
export const DOCTOR_BATCH_CELLS = 200;
/** Formula text per batch, in UTF-8 bytes: a batch of very long formulas is cut before it nears the cap. */
export const DOCTOR_BATCH_BYTES = 1_000_000;

const encoder = new TextEncoder();

/** The changes in batches of at most DOCTOR_BATCH_CELLS cells and DOCTOR_BATCH_BYTES of formula text. */
export function doctorBatches(changes: readonly FormulaChange[]): FormulaChange[][] {
  const batches: FormulaChange[][] = [];
  let batch: FormulaChange[] = [];
  let bytes = 0;
  for (const change of changes) {
    const size = encoder.encode(change.from).length + encoder.encode(change.to).length;
    if (batch.length > 0 && (batch.length >= DOCTOR_BATCH_CELLS || bytes + size > DOCTOR_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(change);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** A repaired cell: what it held, and what it holds now as Excel shows it (what Undo expects to find). */
export interface RepairedCell {
  readonly address: string;
  readonly before: string;
  readonly after: string;
}

export interface SkippedCell {
  readonly address: string;
  readonly reason: string;
}

export interface DoctorRun {
  readonly done: readonly RepairedCell[];
  readonly skipped: readonly SkippedCell[];
}

/** Cells done so far and in all, after each batch. */
export type DoctorProgress = (done: number, total: number) => void;

async function run(
  changes: readonly FormulaChange[],
  write: FormulaWriter,
  onProgress: DoctorProgress | undefined,
  changedReason: string,
): Promise<DoctorRun> {
  const from = new Map(changes.map((c) => [c.address, c.from]));
  const done: RepairedCell[] = [];
  const skipped: SkippedCell[] = [];
  let handled = 0;
  onProgress?.(0, changes.length);
  for (const batch of doctorBatches(changes)) {
    for (const outcome of await write(batch)) {
      const before = from.get(outcome.address) ?? "";
      if (outcome.status === "written")
        done.push({ address: outcome.address, before, after: outcome.formula });
      else if (outcome.status === "changed")
        skipped.push({ address: outcome.address, reason: changedReason });
      else skipped.push({ address: outcome.address, reason: `Excel refused the formula: ${outcome.reason}` });
    }
    handled += batch.length;
    onProgress?.(handled, changes.length);
  }
  return { done, skipped };
}

/** Enters each finding's formula, batch by batch; a cell edited since it was read is left alone. */
export function repairCells(
  findings: readonly DoctorFinding[],
  write: FormulaWriter,
  onProgress?: DoctorProgress,
): Promise<DoctorRun> {
  return run(
    findings.map((f) => ({ address: f.address, from: f.before, to: f.after })),
    write,
    onProgress,
    "It was edited since the check: left as it is.",
  );
}

/** Puts back the formulas a repair replaced, in the cells that still hold what the repair entered. */
export function undoRepair(
  repaired: readonly RepairedCell[],
  write: FormulaWriter,
  onProgress?: DoctorProgress,
): Promise<DoctorRun> {
  return run(
    repaired.map((r) => ({ address: r.address, from: r.after, to: r.before })),
    write,
    onProgress,
    "It was edited since the repair: left as it is.",
  );
}

/** "3 FDQ cells are" / "1 FDQ cell is". */
export const cellsAre = (n: number): string =>
  `${n.toLocaleString("en-US")} FDQ ${n === 1 ? "cell is" : "cells are"}`;
