// Entry of the task pane in the shared runtime page (beside the custom functions and commands).
import { createRoot } from "react-dom/client";
import { StrictMode } from "react";
import { App } from "./components/App";
import { runtimeServices } from "./runtime-services";
import { ServicesContext } from "./services";

async function start(): Promise<void> {
  const services = await runtimeServices();
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
