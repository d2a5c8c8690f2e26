// Excel does not re-run custom functions when a workbook opens (it shows the values saved with the file),
// so a workbook opened on a later refresh day would show yesterday's data. The runtime loads at document
// open (Office.StartupBehavior.load); this decides when a full calculation is due: the refresh day the
// workbook was last calculated on is kept in the document's settings.

export interface NewDayDeps {
  /** The refresh day the workbook was last calculated on (document setting), if any. */
  lastCalculatedDay(): Promise<string | undefined>;
  saveCalculatedDay(day: string): Promise<void>;
  /** The refresh day now (YYYY-MM-DD). */
  today(): string;
  /** Full calculation: the only kind that re-runs FDQ functions. */
  calculateFull(): Promise<void>;
  /** Whether the workbook has FDQ formulas at all (an empty workbook needs no calculation). */
  hasFdqFormulas(): Promise<boolean>;
}

export type NewDayOutcome = "recalculated" | "current" | "no-formulas";

export const DOCUMENT_SETTING = "fdq.calculatedRefreshDay";

/** How often a runtime left open over the refresh boundary checks for the new day. */
export const NEW_DAY_CHECK_MS = 15 * 60_000;

export async function refreshIfNewDay(deps: NewDayDeps): Promise<NewDayOutcome> {
  const today = deps.today();
  const last = await deps.lastCalculatedDay();
  if (last === today) return "current";
  if (!(await deps.hasFdqFormulas())) {
    await deps.saveCalculatedDay(today);
    return "no-formulas";
  }
  await deps.calculateFull();
  await deps.saveCalculatedDay(today);
  return "recalculated";
}
