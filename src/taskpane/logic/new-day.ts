// Excel does not re-run custom functions when a workbook opens (it shows the values saved with the file),
// so a workbook opened on a later refresh day would show an earlier day's data. This decides when a refresh
// is due: the refresh day the workbook was last calculated on is kept in the workbook's own settings, since
// OfficeRuntime.storage is shared by every workbook of the add-in's domain.

export interface NewDayDeps {
  /** The pane's "refresh when the workbook opens on a new refresh day" setting. */
  autoRefresh(): Promise<boolean>;
  /** The refresh day the workbook was last calculated on (document setting), if any. */
  lastCalculatedDay(): Promise<string | undefined>;
  saveCalculatedDay(day: string): Promise<void>;
  /** The refresh day now (YYYY-MM-DD). */
  today(): string;
  /** Whether the workbook has FDQ formulas at all (an empty workbook needs no calculation). */
  hasFdqFormulas(): Promise<boolean>;
  /** The pane's refresh run, which records the calculated day itself; answers whether it finished. */
  refresh(reason: string): Promise<boolean>;
}

export type NewDayOutcome = "current" | "off" | "no-formulas" | "refreshed" | "failed";

/** How often a runtime left open over the refresh boundary checks for the new day. */
export const NEW_DAY_CHECK_MS = 15 * 60_000;

export const newDayReason = (day: string): string => `new refresh day ${day}`;

export async function refreshIfNewDay(deps: NewDayDeps): Promise<NewDayOutcome> {
  const today = deps.today();
  if ((await deps.lastCalculatedDay()) === today) return "current";
  if (!(await deps.autoRefresh())) return "off";
  if (!(await deps.hasFdqFormulas())) {
    await deps.saveCalculatedDay(today);
    return "no-formulas";
  }
  return (await deps.refresh(newDayReason(today))) ? "refreshed" : "failed";
}
