// The one description of the add-in that Excel installs: its identity, names, pages, icons, the FDQ namespace,
// the shared runtime, the ribbon commands and the requirement sets. Both manifests are made from it
// (xml-manifest.ts: the add-in only manifest, manifest.xml; unified-manifest.ts: the unified manifest for
// Microsoft 365, manifest.json), so a change here reaches every client. Paths are relative to the add-in's URL
// (https://localhost:3000/ for the dev server, FDQ_ADDIN_URL for a build, the public URL under `fdq serve`).

/** The dev server's URL: what the committed manifest.xml and manifest.json name. */
export const DEV_ADDIN_URL = "https://localhost:3000/";

/** The ribbon's Refresh command: the function name Office calls (src/commands associates it). */
export const REFRESH_COMMAND = "refreshFdq";

export const ADDIN = {
  /**
   * Two identities, as Microsoft asks of an add-in offered with both manifests: the unified manifest's id is a
   * GUID of its own, and it hides the add-in only manifest's add-in where both are installed
   * (`extensions[0].alternates[0].hide.customOfficeAddin`), so users never see FDQ twice.
   */
  xmlId: "48219e37-7514-4d46-9ad7-9c68c9bfd36e",
  unifiedId: "26842f46-657f-43b4-9463-74e9a8f3bee7",
  /** Semantic version; the add-in only manifest writes it with a fourth part (0.1.0 -> 0.1.0.0). */
  version: "0.1.0",
  provider: "FDQ for Excel",
  locale: "en-US",
  name: "FDQ for Excel",
  /** The unified manifest's name differs, as Microsoft asks, so an administrator can tell the two apart. */
  unifiedName: "FDQ for Excel (Microsoft 365)",
  description:
    "Financial Data Query Service datapoints, datasets, ratings and coverage in worksheet functions (FDQ.DATAPOINT, FDQ.DATASET, ...).",
  /** The unified manifest's short description (80 characters at most). */
  shortDescription: "Financial Data Query Service datapoints and ratings in worksheet functions",
  /** The tile colour of assets/logo.svg, behind the unified manifest's icons. */
  accentColor: "#1F5FAE",
  /** The one page of the shared runtime: task pane, custom functions and ribbon commands. */
  page: "taskpane.html",
  /** Where the support and learn-more links lead, and the unified manifest's privacy and terms links: the
   * project has no privacy or terms page of its own. */
  supportPage: "taskpane.html",
  functions: { namespace: "FDQ", script: "functions.js", metadata: "functions.json" },
  /** Loads with the document (src/commands sets Office.StartupBehavior.load) and outlives the pane. */
  runtime: { id: "FdqRuntime", lifetime: "long" as const },
  /** SharedRuntime 1.1: one runtime for the functions, the pane and the commands. */
  requirementSets: [{ name: "SharedRuntime", minVersion: "1.1" }],
  /** Permission to read and write the workbook (XML ReadWriteDocument, unified Document.ReadWrite.User). */
  permission: { xml: "ReadWriteDocument", unified: "Document.ReadWrite.User" },
  icons: {
    /** The add-in only manifest's IconUrl and HighResolutionIconUrl. */
    icon: { path: "assets/icon-32.png", size: 32 },
    highResolution: { path: "assets/icon-64.png", size: 64 },
    /** The ribbon's three sizes. */
    ribbon: [
      { path: "assets/icon-16.png", size: 16 },
      { path: "assets/icon-32.png", size: 32 },
      { path: "assets/icon-80.png", size: 80 },
    ],
    /** The unified manifest's icons, files of its app package: a full-colour 192 px and a white 32 px outline. */
    color: { path: "assets/color.png", size: 192 },
    outline: { path: "assets/outline.png", size: 32 },
  },
  getStarted: {
    title: "FDQ for Excel is ready",
    description:
      "Type =FDQ. in a cell to see the functions, or open the task pane from the Data tab to set the service URL and API key.",
  },
  ribbon: {
    /** Excel's Data tab. */
    tab: "TabData",
    group: { id: "FdqGroup", label: "FDQ" },
    taskpane: {
      id: "FdqTaskpaneButton",
      /** The pane's id (XML TaskpaneId) and the unified manifest's action that opens it. */
      paneId: "FdqTaskpane",
      label: "Open task pane",
      tooltip: "Open the FDQ task pane: connection settings, cache, and help for the selected cell.",
    },
    refresh: {
      id: "FdqRefreshButton",
      functionName: REFRESH_COMMAND,
      label: "Refresh",
      tooltip: "Fetch today's data again and recalculate every FDQ formula in the open workbooks.",
    },
  },
} as const;

/** `url` with exactly one trailing slash, after checking it is https (http only for localhost). */
export function addinBase(url: string): string {
  const parsed = new URL(url);
  const local = parsed.hostname === "localhost" || parsed.hostname === "127.0.0.1";
  if (parsed.protocol !== "https:" && !(local && parsed.protocol === "http:")) {
    throw new Error(`the add-in's URL must be https (http only for localhost): ${url}`);
  }
  return parsed.href.replace(/\/*$/, "/");
}
