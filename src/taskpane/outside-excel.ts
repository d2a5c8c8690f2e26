// Where the page runs: in Excel, or opened some other way (a browser tab on the gateway's URL, a link). Outside
// Excel there is no workbook and no OfficeRuntime, so instead of a blank page (or "Office is not defined") the pane
// shows a short page saying how to open the add-in in Excel. Plain DOM, no React: it must work when nothing else
// of the pane can start.
//
// How office.js behaves outside Office: loaded in a plain browser tab, Office.onReady() resolves at once with
// { host: null, platform: null } ("Warning: Office.js is loaded outside of Office client" in the console); when
// office.js itself could not be loaded (offline, a proxy), `Office` is not defined at all, in Excel too.

/** In Excel; in a browser or another Office host; or without office.js (it did not load). */
export type PageHost = "excel" | "not-excel" | "no-office-js";

/** Where the page runs, once office.js has said so (at once when office.js did not load). */
export async function pageHost(): Promise<PageHost> {
  const office = (globalThis as { Office?: typeof Office }).Office;
  if (office === undefined || typeof office.onReady !== "function") return "no-office-js";
  const info = await office.onReady();
  return info.host === office.HostType.Excel ? "excel" : "not-excel";
}

/**
 * Set on <html>, to where the page runs, once its start-up work is done: outside Excel, the page saying how to open
 * the add-in is shown; in Excel, the pane's services are ready and its first render is scheduled. The browser tests
 * wait for it instead of a guessed delay.
 */
export const PAGE_STARTED_ATTRIBUTE = "data-fdq-started";

export const OUTSIDE_EXCEL_TITLE = "Open FDQ for Excel in Excel";
export const NO_OFFICE_JS_TITLE = "FDQ for Excel could not load office.js";

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text: string,
  style: Partial<CSSStyleDeclaration> = {},
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.textContent = text;
  Object.assign(e.style, style);
  return e;
}

/** Replaces `container`'s content with the page that says how to open the add-in in Excel. */
export function showOutsideExcel(container: HTMLElement, host: Exclude<PageHost, "excel">): void {
  const manifest = new URL("manifest.xml", window.location.href).href;
  const main = document.createElement("main");
  main.dataset["testid"] = "outside-excel";
  Object.assign(main.style, {
    fontFamily: '"Segoe UI", system-ui, sans-serif',
    fontSize: "14px",
    lineHeight: "1.45",
    maxWidth: "36em",
    padding: "16px",
    color: "#242424",
  });
  const parts: HTMLElement[] = [];
  if (host === "no-office-js") {
    parts.push(
      element("h1", NO_OFFICE_JS_TITLE, { fontSize: "20px", fontWeight: "600" }),
      element(
        "p",
        "The add-in needs Microsoft's office.js from appsforoffice.microsoft.com, and it did not load. Check the " +
          "network connection (or the proxy), then reopen the task pane.",
      ),
    );
  }
  parts.push(
    element("h1", OUTSIDE_EXCEL_TITLE, {
      fontSize: host === "no-office-js" ? "16px" : "20px",
      fontWeight: "600",
    }),
    element(
      "p",
      "This page is the task pane of the FDQ add-in: it works inside Excel (desktop or web), beside a workbook. " +
        "In Excel, choose Data > FDQ > Open task pane. If FDQ is not on the Data tab, add the add-in with its manifest:",
    ),
  );
  const link = element("a", manifest);
  link.href = manifest;
  const linkLine = document.createElement("p");
  linkLine.append(link);
  parts.push(
    linkLine,
    element(
      "p",
      "Excel on the web: Home > Add-ins > More Add-ins > Upload My Add-in. Excel on Windows or Mac: ask your " +
        "administrator to deploy that manifest, or add it from a shared folder catalog.",
    ),
  );
  main.append(...parts);
  container.replaceChildren(main);
  document.title = host === "no-office-js" ? NO_OFFICE_JS_TITLE : OUTSIDE_EXCEL_TITLE;
}
