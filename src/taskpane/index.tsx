// Entry of the task pane in the shared runtime page (beside the custom functions and commands).
import { createRoot } from "react-dom/client";
import { StrictMode } from "react";
import { App } from "./components/App";
import { sharedApiAccess } from "./api-access";
import { PanePrefs } from "./logic/pane-prefs";
import { officePlatform } from "./office/platform";
import { excelWorkbook } from "./office/workbook";
import { ServicesContext, type PaneServices } from "./services";

async function start(): Promise<void> {
  await Office.onReady();
  const platform = officePlatform();
  const services: PaneServices = {
    platform,
    workbook: excelWorkbook(),
    api: await sharedApiAccess(platform.storage),
    prefs: new PanePrefs(platform.storage),
  };
  const container = document.getElementById("root");
  if (!container) throw new Error("taskpane.html has no #root element");
  createRoot(container).render(
    <StrictMode>
      <ServicesContext.Provider value={services}>
        <App />
      </ServicesContext.Provider>
    </StrictMode>,
  );
}

void start();
