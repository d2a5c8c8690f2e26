// What `fdq refresh` refreshes: every FDQ cell (the default), the FDQ cells of one sheet (--sheet NAME), only
// those showing an error (--only errors), or only those whose value is from an older refresh day (--only
// stale); both may be given (the cells of that sheet that are in error or stale). The FDQ cells outside the
// scope are handed to the recalculation as the constants they hold (their cached values), so no call of theirs
// is made or priced by --budget, their cells are not written (byte for byte as they were), and a dependent of
// a refreshed cell that also reads one of them reads its value as the workbook holds it.
//
// Which cells are stale is the one rule of src/workbook/changes/refresh-scope.ts, the task pane's too: a cell whose
// value is not today's answer to its requests. This file reads what the rule needs from the package and the
// day cache: each request's cached answer and its refresh day, and, where every request has today's answer,
// whether the value the workbook holds is the one those answers give. Finding out sends nothing: the calls the
// cache answers are evaluated from it, the others are not made. With --no-cache (or a cache of another machine)
// nothing is known to be current, so every FDQ cell is stale.
import { DEFAULTS, RefreshDayClock, type FdqClient } from "../api";
import type { FdqCall } from "../functions/formula";
import { reportValue } from "../workbook/changes/changes";
import { engineFormula } from "../workbook/formula-text";
import { sheetKey, type FormulaCell, type Scalar, type Sheet, type WorkbookModel } from "../workbook/model";
import { Recalculation } from "../workbook/refresh/recalculation";
import {
  comparedValue,
  FILTER_PHRASES,
  isStale,
  isTodaysAnswer,
  showsError,
  showsValue,
} from "../workbook/changes/refresh-scope";
import { callRequests } from "./budget";
import { evaluateAll } from "../functions/evaluate";
import { FileProblem } from "../workbook/xlsx/node-files";
import type { RefreshOptions } from "./options";

export type Scope = Pick<RefreshOptions, "sheet" | "only">;

export const isScoped = (scope: Scope): boolean => scope.sheet !== undefined || scope.only !== undefined;

/** The scope in the summary's words: " of sheet Model in error". */
export function scopePhrase(scope: Scope): string {
  const sheet = scope.sheet !== undefined ? ` of sheet ${scope.sheet}` : "";
  const only = scope.only === undefined ? "" : FILTER_PHRASES[scope.only];
  return `${sheet}${only}`;
}

/** A cell's value as the change report and the scopes compare it. */
export const reportOf = (value: Scalar | undefined): ReturnType<typeof reportValue> => comparedValue(value);

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
 * The stale FDQ cells (src/workbook/changes/refresh-scope.ts): a request without today's answer in the day cache,
 * or a value other than today's answers give. Sends nothing.
 */
export async function staleCells(
  model: WorkbookModel,
  client: FdqClient,
  today: string = new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now()),
): Promise<Set<FormulaCell>> {
  await client.ready();
  const dry = new Recalculation(model);
  for (let calls: FdqCall[] = dry.pass(); calls.length > 0; calls = dry.pass()) {
    const answered: FdqCall[] = [];
    const unanswered: FdqCall[] = [];
    for (const call of calls) {
      const answers = (await callRequests(client, call)).flatMap((r) => {
        try {
          return [client.plan(r)];
        } catch {
          return []; // a request the client refuses: the call answers its error without one
        }
      });
      (answers.every((a) => isTodaysAnswer(a, today)) ? answered : unanswered).push(call);
    }
    // A call without today's answer makes its cell stale whatever it holds: it is not evaluated.
    if (unanswered.length > 0) dry.refuse(unanswered, "not answered in today's cache");
    if (answered.length > 0) dry.answer(answered, await evaluateAll(client, answered));
  }
  const current = new Set<FormulaCell>();
  for (const result of dry.results()) {
    if (result.kind !== "value" || !result.callsFdq || result.cell.cached === undefined) continue;
    // Every request of the cell had today's answer (else it was refused and gave no value).
    const showsTodaysValue = showsValue(result.cell.cached, result.value);
    if (!isStale({ answers: [], showsTodaysValue }, today)) current.add(result.cell);
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
    return withFdqCellsOutside(model, (cell) => onSheet(cell) && showsError(cell.cached));
  }
  if (scope.only === "stale") {
    const stale = await staleCells(withFdqCellsOutside(model, onSheet), client());
    return withFdqCellsOutside(model, (cell) => stale.has(cell));
  }
  return withFdqCellsOutside(model, onSheet);
}
