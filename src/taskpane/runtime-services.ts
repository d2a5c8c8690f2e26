// The pane's services, built once per runtime: the task pane (index.tsx) and the runtime's start-up code and
// ribbon command (src/commands/commands.ts) run in the same page and share them, above all the one
// RefreshService, so a refresh started by either shows in the pane and none runs twice.
import { sharedApiAccess } from "./api-access";
import { ChangeHistory } from "./logic/change-history";
import { PanePrefs } from "./logic/pane-prefs";
import { RefreshService } from "./logic/refresh-service";
import { officeDoctorOffers, officeDocumentSettings } from "./office/document-settings";
import { officePlatform } from "./office/platform";
import { excelWorkbook } from "./office/workbook";
import type { PaneServices } from "./services";
import { packageShareWriter } from "../workbook/share/share-copy-writer";
import { richValueSupport } from "../host/rich-value-support";

let services: Promise<PaneServices> | undefined;

async function build(): Promise<PaneServices> {
  await Office.onReady();
  const platform = officePlatform();
  const workbook = excelWorkbook();
  const api = await sharedApiAccess(platform.storage);
  const prefs = new PanePrefs(platform.storage);
  const history = new ChangeHistory(platform.storage);
  // A saved workbook's URL names its reports; an unsaved one's are kept under "".
  const workbookId = (): string => Office.context.document.url ?? "";
  const refresher = new RefreshService({
    workbook,
    api,
    prefs,
    document: officeDocumentSettings(),
    history,
    workbookId,
  });
  // Share as values: src/workbook's package writer (the xlsx patcher) turns Office's file into the copy.
  return {
    platform,
    workbook,
    api,
    prefs,
    refresher,
    history,
    workbookId,
    doctorOffers: officeDoctorOffers(),
    shareWriter: packageShareWriter,
    richValueSupport,
  };
}

export function runtimeServices(): Promise<PaneServices> {
  return (services ??= build());
}
