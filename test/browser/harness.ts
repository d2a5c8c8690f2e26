// Browser-test harness: serves the shared-runtime page (built once per run by test/support/browser-page.ts)
// from 127.0.0.1, and opens it in headless Chromium with office.js replaced by the Office test double. A pane's
// context, once its test closed it, is reset to what a new one is and opens the next pane (half the CPU).
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Disposable,
  type Page,
} from "playwright-core";
import { CHROMIUM, requireComponent } from "../support/components";
import { DEFAULTS, FdqClient, RefreshDayClock, sleep } from "../../src/api";
import { startSandbox, type RunningSandbox } from "../../src/sandbox";
import { CALCULATED_DAY_SETTING } from "../../src/taskpane/office/document-settings";
import { PAGE_DIR_VARIABLE, buildPage, pageBuilt } from "../support/browser-page";

const ROOT = resolve(__dirname, "../..");
export const ARTIFACTS = join(ROOT, "test/artifacts");
/** The Office test double: its parts in order, served as one script in place of office.js. */
const OFFICE_DOUBLE = ["a1.js", "formulas.js", "grid.js", "custom-xml.js", "excel-api.js", "office-double.js"]
  .map((part) => readFileSync(join(ROOT, "test/support/office-double", part), "utf8"))
  .join("\n");

/**
 * How Excel passes an empty referenced cell: 0 on the desktop, null on the web (office-js#4702). The web
 * mode also applies Excel on the web's 5 MB cap per sync. FDQ_OFFICE_PLATFORM picks the default mode.
 */
export type EmptyCellMode = "desktop" | "web";
export const EMPTY_CELL_MODES: readonly EmptyCellMode[] = ["desktop", "web"];
const DEFAULT_MODE: EmptyCellMode = process.env.FDQ_OFFICE_PLATFORM === "desktop" ? "desktop" : "web";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The narrow default width of an Excel task pane. */
export const PANE_WIDTH = 320;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".xml": "application/xml",
};

export interface StaticSite {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveFolder(folder: string): Promise<StaticSite> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    try {
      const body = readFileSync(join(folder, path));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Debian's chromium-headless-shell (the old headless mode, what Playwright itself runs headless): the same Blink
 * and V8 as chromium without the full browser's start-up, so a new context and page cost about half.
 * scripts/ensure-chromium.sh installs it; where it is missing, the full browser in its headless mode. Without
 * either on PATH the browser tests fail, naming Chromium and how to install it.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: requireComponent(CHROMIUM), args: CHROMIUM_ARGS });
}

/** The workbook as Excel opens it: formulas with the values saved in the file (not recalculated). */
export interface OpenedWorkbook {
  readonly cells?: Record<string, { formula: string; value: string | number | boolean }>;
  /** Office.context.document.settings saved in the file. */
  readonly documentSettings?: Record<string, unknown>;
  /** Office.context.partitionKey in the web mode (Excel on the web partitions add-in storage). */
  readonly partitionKey?: string;
  /** The custom XML parts saved in the file (the frozen formulas among them). */
  readonly customXmlParts?: readonly string[];
  /** Office.context.document.url. */
  readonly url?: string;
  /** The highest version of each requirement set named, as an older Excel supports (null: none); others all. */
  readonly requirementSets?: Record<string, string | null>;
}

export interface WorkbookOptions {
  readonly theme?: "light" | "dark";
  readonly workbook?: OpenedWorkbook;
  /** Excel on the desktop or on the web (default: FDQ_OFFICE_PLATFORM, else web). */
  readonly platform?: EmptyCellMode;
}

export interface PaneOptions extends WorkbookOptions {
  /** OfficeRuntime.storage entries present before the first page loads (JSON-encoded values as strings). */
  readonly storage?: Record<string, string>;
  /** Runs on the pane's new context before the page loads (e.g. context.route to alter the service's answers). */
  readonly prepare?: (context: BrowserContext) => Promise<unknown>;
}

export interface OpenPane {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The page's console messages so far, from the first script on. */
  readonly console: readonly string[];
  /** The page's console warnings and errors and its uncaught errors so far ("warning: ...", "pageerror: ..."). */
  readonly problems: readonly string[];
  /** URLs of the page's GET requests so far (the sandbox's among them), from the first one on. */
  readonly requests: readonly string[];
  /** URLs of the page's GET requests answered so far. */
  readonly answered: readonly string[];
}

/** Content-Security-Policy violations reported by every pane opened since the last take. */
const cspViolations: string[] = [];

/** The CSP violations of the panes opened since the last call (the page's securitypolicyviolation events). */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/**
 * A context kept for the next pane once a test closed its own (context.close()), with its first page, whose
 * renderer process and compiled scripts the next pane reuses: a pane opened in it costs half the CPU of one
 * opened in a new context. It is put back as a new context is: see resetContext.
 */
interface PooledContext {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly session: CDPSession;
  /** The web origins its pages went to (whose storage the reset clears). */
  readonly origins: Set<string>;
  /** What the pane's test (and openPane) added to the context and its page: routes, init scripts, bindings. */
  readonly added: Disposable[];
  /** Whether the test changed the context in a way the reset does not undo (then it is closed, not kept). */
  dirty: boolean;
  /** Whether a pane is open in it (a second close() of the same pane does nothing). */
  inUse: boolean;
  readonly closeForGood: () => Promise<void>;
}

/** Per browser, the contexts whose panes were closed, ready for the next openPane. */
const idle = new WeakMap<Browser, PooledContext[]>();

/** Methods whose Disposable the reset disposes. */
const UNDONE = ["addInitScript", "exposeBinding", "exposeFunction", "route"] as const;
/** Methods whose effect the reset does not undo: a context where one was called is closed, not kept. */
const CONTEXT_UNKEPT = [
  "setOffline",
  "setExtraHTTPHeaders",
  "setGeolocation",
  "setHTTPCredentials",
  "routeFromHAR",
  "routeWebSocket",
] as const;
const PAGE_UNKEPT = [
  "emulateMedia",
  "setViewportSize",
  "setExtraHTTPHeaders",
  "routeFromHAR",
  "routeWebSocket",
] as const;

/** Replaces `target[name]` by a function calling the original and then `after` with its result. */
function follow(target: object, name: string, after: (result: unknown) => void): void {
  const original = (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!.bind(target);
  Object.defineProperty(target, name, {
    configurable: true,
    value: async (...args: unknown[]) => {
      const result = await original(...args);
      after(result);
      return result;
    },
  });
}

/**
 * A new context (empty storage, nothing shared with any other) at the task pane's width, with office.js routed
 * to the Office double and CSP violations reported, and a blank page in it. Its close() puts it back in the
 * browser's pool (resetContext) instead of closing it.
 */
async function newPaneContext(browser: Browser): Promise<PooledContext> {
  const context = await browser.newContext({ viewport: { width: PANE_WIDTH, height: 900 } });
  await context.route("**/office.js", (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: OFFICE_DOUBLE }),
  );
  await context.exposeBinding("__reportCspViolation", (_source, violation: string) =>
    cspViolations.push(violation),
  );
  const page = await context.newPage();
  const closeForGood = context.close.bind(context);
  const pooled: PooledContext = {
    context,
    page,
    session: await context.newCDPSession(page),
    origins: new Set(),
    added: [],
    dirty: false,
    inUse: false,
    closeForGood: () => closeForGood(),
  };
  context.on("request", (request) => {
    const { protocol, origin } = new URL(request.url());
    if (request.isNavigationRequest() && protocol.startsWith("http")) pooled.origins.add(origin);
  });
  for (const target of [context, page])
    for (const name of UNDONE) follow(target, name, (added) => pooled.added.push(added as Disposable));
  for (const name of CONTEXT_UNKEPT) follow(context, name, () => (pooled.dirty = true));
  for (const name of PAGE_UNKEPT) follow(page, name, () => (pooled.dirty = true));
  for (const name of ["install", "setFixedTime", "setSystemTime", "pauseAt"])
    follow(context.clock, name, () => (pooled.dirty = true));
  Object.defineProperty(context, "close", { configurable: true, value: () => putBack(browser, pooled) });
  return pooled;
}

/**
 * Makes `pooled` what a new context is, and keeps it for the next pane: its other pages closed, its page on
 * about:blank (the pane's document unloaded as a closing context unloads it), the test's listeners, routes,
 * init scripts and bindings removed, and its cookies, permissions and every visited origin's storage
 * (localStorage, IndexedDB, Cache Storage...) cleared, with the HTTP cache (disabled anyway while office.js is
 * routed). A context the reset cannot restore (a page closed or crashed, a setting it does not undo) is closed
 * for good instead.
 */
async function putBack(browser: Browser, pooled: PooledContext): Promise<void> {
  const { context, page, session } = pooled;
  if (!pooled.inUse) return;
  pooled.inUse = false;
  try {
    for (const other of context.pages()) if (other !== page) await other.close();
    if (pooled.dirty || page.isClosed() || !browser.isConnected()) return await pooled.closeForGood();
    await page.removeAllListeners();
    await page.goto("about:blank");
    for (const added of pooled.added.splice(0)) await added.dispose();
    await context.clearCookies();
    await context.clearPermissions();
    for (const origin of pooled.origins)
      await session.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
    pooled.origins.clear();
    await session.send("Network.clearBrowserCache");
    await page.mouse.move(0, 0);
  } catch {
    // A page that crashed, a browser gone: the context is closed for good (never reused half reset).
    await pooled.closeForGood().catch(() => undefined);
    return;
  }
  const kept = idle.get(browser) ?? [];
  kept.push(pooled);
  idle.set(browser, kept);
}

/** A context for a new pane: one a test put back (reset), else a new one. */
async function takePaneContext(browser: Browser): Promise<PooledContext> {
  const pooled = idle.get(browser)?.pop() ?? (await newPaneContext(browser));
  pooled.inUse = true;
  return pooled;
}

/**
 * A fresh browser context (empty storage) with the pane loaded at the task pane's width: a new one, or one a
 * test closed, reset to what a new one is (see putBack). Closing it is the test's.
 */
export async function openPane(
  browser: Browser,
  site: StaticSite,
  options: PaneOptions = {},
): Promise<OpenPane> {
  const { context, page } = await takePaneContext(browser);
  await context.addInitScript(
    ({ storage }) => {
      const w = window as unknown as { __reportCspViolation(violation: string): void };
      document.addEventListener("securitypolicyviolation", (e) =>
        w.__reportCspViolation(
          `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} in ${e.documentURI}`,
        ),
      );
      try {
        // Once per context: a second workbook (or a reload) finds the storage as the first one left it.
        if (localStorage.getItem("__officeDoubleSeeded") === null) {
          localStorage.setItem("__officeDoubleSeeded", "1");
          for (const [k, v] of Object.entries(storage)) localStorage.setItem(`office-double:${k}`, v);
        }
      } catch {
        // about:blank has no storage; the page itself is on the served origin.
      }
    },
    { storage: options.storage ?? {} },
  );
  await options.prepare?.(context);
  return openPage(context, site, options, page);
}

/**
 * Another workbook open beside the pane's: a new page (its own workbook and runtime) in the same browser
 * context, so both runtimes share the origin's storage as two workbooks of one add-in do.
 */
export function openWorkbook(
  pane: OpenPane,
  site: StaticSite,
  options: WorkbookOptions = {},
): Promise<OpenPane> {
  return openPage(pane.context, site, options);
}

async function openPage(
  context: BrowserContext,
  site: StaticSite,
  options: WorkbookOptions,
  blank?: Page,
): Promise<OpenPane> {
  const page = blank ?? (await context.newPage());
  await page.addInitScript(
    ({ theme, workbook, platform }) => {
      const w = window as unknown as {
        __officeDoubleTheme?: string;
        __officeDoubleWorkbook?: OpenedWorkbook & { platform: string };
      };
      w.__officeDoubleTheme = theme;
      w.__officeDoubleWorkbook = { ...workbook, platform };
    },
    {
      theme: options.theme ?? "light",
      workbook: options.workbook ?? {},
      platform: options.platform ?? DEFAULT_MODE,
    },
  );
  const messages: string[] = [];
  const problems: string[] = [];
  page.on("console", (message) => {
    messages.push(message.text());
    if (message.type() === "warning" || message.type() === "error")
      problems.push(`${message.type()}: ${message.text()}`);
  });
  const requests: string[] = [];
  page.on("request", (request) => request.method() === "GET" && requests.push(request.url()));
  const answered: string[] = [];
  page.on("requestfinished", (request) => request.method() === "GET" && answered.push(request.url()));
  page.on("pageerror", (err) => {
    problems.push(`pageerror: ${err.message}`);
    console.error(`page error: ${err.message}`);
  });
  await page.goto(`${site.url}/taskpane.html`);
  await page.getByRole("tab", { name: "Find" }).waitFor();
  return { context, page, console: messages, problems, requests, answered };
}

/** Waits until the page has logged `text` (e.g. the outcome of the runtime's new-day check). */
export async function waitForConsole(pane: OpenPane, text: string, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !pane.console.includes(text);) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`no console message "${text}" in ${timeoutMs} ms; got ${JSON.stringify(pane.console)}`);
    }
    await sleep(20);
  }
}

/** The value of `read()` once it equals `expected`, polled for up to `timeoutMs` (the last value otherwise). */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

export function removeFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/** What a browser suite shares: the built page served from 127.0.0.1, the sandbox, Chromium, and a reference client. */
export interface BrowserRig {
  /** The folder of the built page. */
  readonly dist: string;
  readonly site: StaticSite;
  readonly sandbox: RunningSandbox;
  readonly browser: Browser;
  /** The same sandbox seen from Node, to know what the pane should show. */
  readonly reference: FdqClient;
  /** Connected to the sandbox (or `service`), in a workbook already calculated today: the runtime's new-day check at open does nothing. */
  openConnected(options?: ConnectedOptions): Promise<OpenPane>;
}

/** A service the pane can be connected to: its base URL and key (a sandbox, or a proxy in front of one). */
export type ServiceAddress = Pick<RunningSandbox, "baseUrl" | "demoKey">;

export interface ConnectedOptions extends Pick<PaneOptions, "theme" | "platform" | "prepare"> {
  /** The service whose URL and key are saved (default: the rig's sandbox). */
  readonly service?: ServiceAddress;
  /** The workbook as opened (its settings say it was calculated today). */
  readonly workbook?: Omit<OpenedWorkbook, "documentSettings">;
}

/**
 * Registers the suite's hooks: builds, serves and launches everything before all tests, checks after each
 * test that the page's Content-Security-Policy (taskpane.html) held for everything the pane did, and closes
 * everything after all. The rig's parts are readable once the tests run.
 */
export function useBrowserRig(): BrowserRig {
  let dist: string | undefined;
  let site: StaticSite | undefined;
  let sandbox: RunningSandbox | undefined;
  let browser: Browser | undefined;
  let reference: FdqClient | undefined;

  // The run's page (the browser project's globalSetup); a file run some other way builds its own.
  const shared = process.env[PAGE_DIR_VARIABLE];
  beforeAll(async () => {
    [dist, sandbox, browser] = await Promise.all([
      shared ? pageBuilt(shared) : buildPage(),
      startSandbox(),
      launchBrowser(),
    ]);
    site = await serveFolder(dist);
    reference = new FdqClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey });
  }, 420_000); // a build on a busy machine can take minutes

  afterEach(() => {
    expect(takeCspViolations()).toEqual([]);
  });

  afterAll(async () => {
    await reference?.close();
    await browser?.close();
    await site?.close();
    await sandbox?.close();
    if (dist && dist !== shared) removeFolder(dist);
  });

  const ready = <T>(part: T | undefined, name: string): T => {
    if (part === undefined)
      throw new Error(`the browser rig's ${name} is not started (read it inside a test)`);
    return part;
  };
  const rig: BrowserRig = {
    get dist() {
      return ready(dist, "page");
    },
    get site() {
      return ready(site, "site");
    },
    get sandbox() {
      return ready(sandbox, "sandbox");
    },
    get browser() {
      return ready(browser, "browser");
    },
    get reference() {
      return ready(reference, "reference client");
    },
    async openConnected({ service, workbook, ...options }: ConnectedOptions = {}) {
      const pane = await openPane(rig.browser, rig.site, {
        ...options,
        storage: savedSettings(service ?? rig.sandbox),
        workbook: { ...workbook, documentSettings: calculatedToday() },
      });
      await waitForConsole(pane, "FDQ new-day check: current");
      return pane;
    },
  };
  return rig;
}

/** The refresh day the pane is on: the request module's default boundary, as configureSharedClient uses. */
export function todayLabel(): string {
  return new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
}

/** A workbook's document settings once it was calculated today. */
export function calculatedToday(): Record<string, unknown> {
  return { [CALCULATED_DAY_SETTING]: todayLabel() };
}

/** The settings entry the pane stores after "Save" (its OfficeRuntime.storage value) for `service`. */
export function connectionSettings(service: ServiceAddress): string {
  return JSON.stringify({ baseUrl: service.baseUrl, apiKey: service.demoKey });
}

/** What the pane stores after "Save": OfficeRuntime.storage's settings entry. */
export function savedSettings(service: ServiceAddress): Record<string, string> {
  return { "fdq.settings": connectionSettings(service) };
}

/** Calls `fn` of the Office test double (window.__officeDouble) in the page with `args`. */
export function callDouble<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([name, params]) => {
      const d = (window as unknown as { __officeDouble: Record<string, (...a: unknown[]) => unknown> })
        .__officeDouble;
      return d[name as string]!(...(params as unknown[]));
    },
    [fn, args] as const,
  ) as Promise<T>;
}

/** Resolves when every custom function call started so far in the page has settled. */
export const settled = (page: Page): Promise<void> => callDouble(page, "settled");

/**
 * Enters `cells` into the page's workbook (inputs before the formulas that read them) and waits until every
 * custom function call the entry started has settled.
 */
export async function enterCells(page: Page, cells: Record<string, string | number>): Promise<void> {
  await callDouble(page, "seed", cells);
  await settled(page);
}
