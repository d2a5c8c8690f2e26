// Ribbon commands and start-up work of the shared runtime (loaded by taskpane.html together with the
// task pane and the custom functions, so all three use the same client and cache).
// - "Refresh" (manifest FunctionName refreshFdq): drops the day's cache and runs a full calculation.
// - At document open the runtime loads by itself (StartupBehavior.load) and recalculates the FDQ
//   formulas once per refresh day; a runtime left open over the boundary checks again periodically.
import { DEFAULTS } from "../api/defaults";
import { RefreshDayClock } from "../api/refresh-day";
import { getSharedClient } from "../api/runtime";
import { excelWorkbook } from "../taskpane/office/workbook";
import { DOCUMENT_SETTING, NEW_DAY_CHECK_MS, refreshIfNewDay, type NewDayDeps } from "./new-day";

/** The ribbon's function name in manifest.xml (<FunctionName>refreshFdq</FunctionName>). */
export const REFRESH_COMMAND = "refreshFdq";

const clock = new RefreshDayClock(DEFAULTS.refreshDay);

function documentSettings(): Pick<NewDayDeps, "lastCalculatedDay" | "saveCalculatedDay"> {
  const settings = Office.context.document.settings;
  return {
    lastCalculatedDay: async () => {
      const value: unknown = settings.get(DOCUMENT_SETTING);
      return typeof value === "string" ? value : undefined;
    },
    saveCalculatedDay: (day) =>
      new Promise((resolve) => {
        settings.set(DOCUMENT_SETTING, day);
        // A failed save only means the next open recalculates once more: nothing to report.
        settings.saveAsync(() => resolve());
      }),
  };
}

function newDayDeps(): NewDayDeps {
  const workbook = excelWorkbook();
  return {
    ...documentSettings(),
    today: () => clock.label(Date.now()),
    calculateFull: () => workbook.calculateFull(),
    hasFdqFormulas: async () => (await workbook.fdqCells()).length > 0,
  };
}

async function refresh(event: Office.AddinCommands.Event): Promise<void> {
  try {
    (await getSharedClient()).invalidate();
    const deps = newDayDeps();
    await deps.calculateFull();
    await deps.saveCalculatedDay(deps.today());
  } catch (err) {
    // The cells show their own errors; a ribbon command has nowhere else to report.
    console.error("FDQ refresh failed", err);
  } finally {
    event.completed();
  }
}

function checkNewDay(): void {
  refreshIfNewDay(newDayDeps()).catch((err: unknown) => console.error("FDQ new-day check failed", err));
}

Office.onReady(() => {
  Office.actions.associate(REFRESH_COMMAND, refresh);
  // Load with the document from now on, so the new-day check runs without opening the task pane.
  Office.addin.setStartupBehavior(Office.StartupBehavior.load).catch((err: unknown) => {
    console.error("FDQ could not set the start-up behaviour", err);
  });
  checkNewDay();
  setInterval(checkNewDay, NEW_DAY_CHECK_MS);
});
