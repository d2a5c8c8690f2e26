// What `fdq refresh` refreshes: every FDQ cell (the default), the FDQ cells of one sheet (--sheet NAME), only
// those showing an error (--only errors), or only those whose value is from an older refresh day (--only
// stale); both may be given (the cells of that sheet that are in error or stale). The FDQ cells outside the
// scope are handed to the recalculation as the constants they hold (their cached values), so no call of theirs
// is made or priced by --budget, their cells are not written (byte for byte as they were), and a dependent of
// a refreshed cell that also reads one of them reads its value as the workbook holds it.
//
// How fdq knows a cell's refresh day: from the day cache, as the task pane does (it keeps each answer with the
// refresh day it was fetched on). A cell is current when every call it makes is answered by the cache without
// a request AND that answer is the value the workbook holds; any other FDQ cell is stale. Finding out sends
// nothing: the calls the cache answers are evaluated from it, the others are not made. With --no-cache (or a
// cache of another machine) nothing is known to be current, so every FDQ cell is stale.
import type { FdqClient } from "../api";
import type { FdqCall } from "../functions/formula";
import { classify, reportValue } from "../workbook/changes/changes";
import { engineFormula } from "../workbook/formula-text";
import {
  ExcelError,
  sheetKey,
  type FormulaCell,
  type Scalar,
  type Sheet,
  type WorkbookModel,
} from "../workbook/model";
import { Recalculation } from "../workbook/refresh/recalculation";
import { estimateRun } from "./budget";
import { evaluateAll } from "../functions/evaluate";
import { FileProblem } from "../workbook/xlsx/node-files";
import type { RefreshOptions } from "./options";

export type Scope = Pick<RefreshOptions, "sheet" | "only">;

export const isScoped = (scope: Scope): boolean => scope.sheet !== undefined || scope.only !== undefined;

/** The scope in the summary's words: " of sheet Model in error". */
export function scopePhrase(scope: Scope): string {
  const sheet = scope.sheet !== undefined ? ` of sheet ${scope.sheet}` : "";
  const only =
    scope.only === "errors" ? " in error" : scope.only === "stale" ? " from an older refresh day" : "";
  return `${sheet}${only}`;
}

/** A cell's value as the change report and the scopes compare it. */
export function reportOf(value: Scalar | undefined): ReturnType<typeof reportValue> {
  if (value instanceof ExcelError) return { error: value.code };
  return reportValue(value);
}

const callsFdq = (cell: FormulaCell): boolean => engineFormula(cell.formula).callsFdq;

/** The sheet named --sheet as the workbook spells it; an unknown name is refused (exit 2) with the names. */
export function sheetNamed(model: WorkbookModel, name: string): string {
  const sheet = model.sheets.find((s) => sheetKey(s.name) === sheetKey(name));
  if (sheet) return sheet.name;
  throw new FileProblem(
    `the workbook has no sheet "${name}"; its sheets are ${model.sheets.map((s) => `"${s.name}"`).join(", ")}`,
  );
}

/** `model` with the FDQ cells `keep` rejects turned into the constants they hold. */
export function withFdqCellsOutside(
  model: WorkbookModel,
  keep: (cell: FormulaCell) => boolean,
): WorkbookModel {
  const outside = model.formulas.filter((cell) => callsFdq(cell) && !keep(cell));
  if (outside.length === 0) return model;
  const gone = new Set(outside);
  const bySheet = new Map<string, FormulaCell[]>();
  for (const cell of outside) {
    const key = sheetKey(cell.sheet);
    const list = bySheet.get(key);
    if (list) list.push(cell);
    else bySheet.set(key, [cell]);
  }
  const sheets: Sheet[] = model.sheets.map((sheet) => {
    const cells = bySheet.get(sheetKey(sheet.name));
    if (!cells) return sheet;
    const rows = new Map([...sheet.rows].map(([r, row]) => [r, new Map(row)]));
    for (const cell of cells) {
      const row = rows.get(cell.row);
      if (cell.cached === undefined) row?.delete(cell.col);
      else row?.set(cell.col, cell.cached);
    }
    return { ...sheet, rows };
  });
  return { ...model, sheets, formulas: model.formulas.filter((cell) => !gone.has(cell)) };
}

/**
 * The FDQ cells whose value is not known to be today's: a call not answered by the day cache without a
 * request, or answered with another value than the cell holds. Sends nothing.
 */
export async function staleCells(model: WorkbookModel, client: FdqClient): Promise<Set<FormulaCell>> {
  await client.ready();
  const dry = new Recalculation(model);
  for (let calls: FdqCall[] = dry.pass(); calls.length > 0; calls = dry.pass()) {
    const cached: FdqCall[] = [];
    const uncached: FdqCall[] = [];
    for (const call of calls) {
      const estimate = await estimateRun(client, [call]);
      (estimate.requestsNeeded === 0 ? cached : uncached).push(call);
    }
    if (uncached.length > 0) dry.refuse(uncached, "not in today's cache");
    if (cached.length > 0) dry.answer(cached, await evaluateAll(client, cached));
  }
  const current = new Set<FormulaCell>();
  for (const result of dry.results()) {
    if (result.kind !== "value" || !result.callsFdq || result.cell.cached === undefined) continue;
    if (classify(reportOf(result.cell.cached), reportOf(result.value)) === undefined) {
      if (!(result.cell.cached instanceof ExcelError) || result.value instanceof ExcelError)
        current.add(result.cell);
    }
  }
  return new Set(model.formulas.filter((cell) => callsFdq(cell) && !current.has(cell)));
}

/** The model the recalculation of `scope` runs on. */
export async function scopedModel(
  model: WorkbookModel,
  scope: Scope,
  client: () => FdqClient,
): Promise<WorkbookModel> {
  if (!isScoped(scope)) return model;
  const sheet = scope.sheet === undefined ? undefined : sheetKey(sheetNamed(model, scope.sheet));
  const onSheet = (cell: FormulaCell): boolean => sheet === undefined || sheetKey(cell.sheet) === sheet;
  if (scope.only === "errors") {
    return withFdqCellsOutside(model, (cell) => onSheet(cell) && cell.cached instanceof ExcelError);
  }
  if (scope.only === "stale") {
    const stale = await staleCells(withFdqCellsOutside(model, onSheet), client());
    return withFdqCellsOutside(model, (cell) => stale.has(cell));
  }
  return withFdqCellsOutside(model, onSheet);
}
