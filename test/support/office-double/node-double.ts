// The Office test double (the six scripts the browser tests serve in place of office.js) run in Node, so a unit
// test can drive the pane's Excel code (src/taskpane/office) against the same strict double without a browser:
// load()/sync(), the 5 MB cap in "web" mode, formulas evaluated by the functions the test registers (a formula
// whose function is not registered shows #NAME?, as in Excel without the add-in). The page's globals the double
// reads are given here: the functions.json the test passes (none: fetch answers 404), an in-memory localStorage, a
// loaded document.
import { readFileSync } from "node:fs";
import path from "node:path";

const PARTS = ["a1.js", "formulas.js", "grid.js", "custom-xml.js", "excel-api.js", "office-double.js"];
const SOURCE = PARTS.map((part) => readFileSync(path.join(__dirname, part), "utf8")).join("\n");

/** The workbook as Excel opens it (window.__officeDoubleWorkbook): see office-double.js. */
export interface NodeWorkbook {
  readonly platform?: "web" | "desktop";
  readonly cells?: Record<string, { formula: string; value: string | number | boolean }>;
  readonly documentSettings?: Record<string, unknown>;
  /** Requirement sets Office.context.requirements.isSetSupported denies, e.g. "CustomFunctionsRuntime 1.4". */
  readonly unsupportedSets?: readonly string[];
}

/** The tests' handle (window.__officeDouble), as far as these tests use it. */
export interface DoubleHandle {
  seed(cells: Record<string, string | number>): void;
  cell(address: string): {
    formula: string | null;
    value: unknown;
    error?: { code: string; message: string } | null;
    valueAsJson?: unknown;
  } | null;
  settled(): Promise<void>;
  syncs(): { request: number; response: number; failed: string | null }[];
  documentSettings(): Record<string, unknown>;
}

export interface NodeDouble {
  readonly Excel: typeof Excel;
  readonly Office: typeof Office;
  readonly CustomFunctions: { associate(id: string, fn: (...args: unknown[]) => unknown): void };
  readonly double: DoubleHandle;
  /** Makes Excel and Office globals for the code under test; returns the function that removes them. */
  install(): () => void;
}

export function loadNodeDouble(workbook: NodeWorkbook = {}, functionsJson?: unknown): NodeDouble {
  const storage = new Map<string, string>();
  const localStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, String(v)),
    removeItem: (k: string) => void storage.delete(k),
    key: (i: number) => [...storage.keys()][i] ?? null,
    get length() {
      return storage.size;
    },
  };
  const document = {
    readyState: "complete",
    baseURI: "http://127.0.0.1/",
    addEventListener: () => undefined,
  };
  const fetch = (): Promise<{ ok: boolean; json?: () => Promise<unknown> }> =>
    Promise.resolve(
      functionsJson === undefined ? { ok: false } : { ok: true, json: () => Promise.resolve(functionsJson) },
    );
  const window: Record<string, unknown> = { __officeDoubleParts: {}, __officeDoubleWorkbook: workbook };
  // The scripts read these names as the page's globals.
  new Function("window", "document", "localStorage", "fetch", SOURCE)(window, document, localStorage, fetch);
  const globals = globalThis as Record<string, unknown>;
  return {
    Excel: window.Excel as typeof Excel,
    Office: window.Office as typeof Office,
    CustomFunctions: window.CustomFunctions as NodeDouble["CustomFunctions"],
    double: window.__officeDouble as DoubleHandle,
    install() {
      const before = { Excel: globals.Excel, Office: globals.Office, OfficeRuntime: globals.OfficeRuntime };
      globals.Excel = window.Excel;
      globals.Office = window.Office;
      globals.OfficeRuntime = window.OfficeRuntime;
      return () => {
        globals.Excel = before.Excel;
        globals.Office = before.Office;
        globals.OfficeRuntime = before.OfficeRuntime;
      };
    },
  };
}
