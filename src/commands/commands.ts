// Ribbon commands and start-up work of the shared runtime (loaded by taskpane.html together with the
// task pane and the custom functions, so all three use the same client, cache and refresh).
// - "Refresh" (REFRESH_COMMAND, which src/manifest/addin.ts names in both manifests): the pane's refresh
//   run (drops the day's cache, full calculation), whose progress and summary the task pane shows.
// - At document open the runtime loads by itself (StartupBehavior.load) and this is the ONE place that
//   triggers the new-day check: once at start-up, then every NEW_DAY_CHECK_MS for a runtime left open over
//   the refresh boundary. The pane does not check by itself; it shows what the check started.
import { REFRESH_COMMAND } from "../manifest/addin";
import { NEW_DAY_CHECK_MS } from "../taskpane/logic/new-day";
import { runtimeServices } from "../taskpane/runtime-services";

async function refresh(event: Office.AddinCommands.Event): Promise<void> {
  try {
    const { refresher } = await runtimeServices();
    // A big workbook takes minutes: the pane shows the progress, the button need not wait. The run ends in
    // the refresh state the pane shows (and the cells' own errors), so it never rejects.
    void refresher.refresh("from the ribbon");
  } catch (err) {
    console.error("FDQ refresh failed", err);
  } finally {
    event.completed();
  }
}

function checkNewDay(): void {
  runtimeServices()
    .then(({ refresher }) => refresher.checkNewDay())
    .then((outcome) => console.info(`FDQ new-day check: ${outcome}`))
    .catch((err: unknown) => console.error("FDQ new-day check failed", err));
}

// Outside Excel (a browser tab: office.js answers host null, or office.js did not load) there is no ribbon and no
// workbook: the page says how to open the add-in (src/taskpane/outside-excel.ts).
if (typeof Office !== "undefined")
  Office.onReady((info) => {
    if (info.host !== Office.HostType.Excel) return;
    Office.actions.associate(REFRESH_COMMAND, refresh);
    // Load with the document from now on, so the new-day check runs without opening the task pane.
    Office.addin.setStartupBehavior(Office.StartupBehavior.load).catch((err: unknown) => {
      console.error("FDQ could not set the start-up behaviour", err);
    });
    checkNewDay();
    setInterval(checkNewDay, NEW_DAY_CHECK_MS);
  });
