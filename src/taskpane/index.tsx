// Entry of the task pane in the shared runtime page (beside the custom functions and commands).
import { createRoot } from "react-dom/client";
import { StrictMode } from "react";
import { App } from "./components/App";
import { PAGE_STARTED_ATTRIBUTE, pageHost, showOutsideExcel } from "./outside-excel";
import { runtimeServices } from "./runtime-services";
import { ServicesContext } from "./services";

async function start(): Promise<void> {
  const container = document.getElementById("root");
  if (!container) throw new Error("taskpane.html has no #root element");
  // Opened outside Excel (a browser tab), or without office.js: a page saying how to open it, not a blank one.
  const host = await pageHost();
  if (host !== "excel") {
    showOutsideExcel(container, host);
  } else {
    const services = await runtimeServices();
    createRoot(container).render(
      <StrictMode>
        <ServicesContext.Provider value={services}>
          <App />
        </ServicesContext.Provider>
      </StrictMode>,
    );
  }
  document.documentElement.setAttribute(PAGE_STARTED_ATTRIBUTE, host);
}

void start();
