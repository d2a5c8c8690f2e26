// Loading the task pane's page: in Excel (the Office test double) its console stays clean, no warning (a CSP
// source the browser rejects, as http://[::1]:* was) and no error; opened outside Excel it shows how to open the
// add-in in Excel instead of a blank page, with Microsoft's real office.js (from @microsoft/office-js, served
// locally in place of appsforoffice.microsoft.com) as it behaves in a browser tab, and without office.js at all.
import { existsSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import type { Page } from "playwright-core";
import { TASKPANE_CSP } from "../../src/manifest/content-security-policy";
import {
  NO_OFFICE_JS_TITLE,
  OUTSIDE_EXCEL_TITLE,
  PAGE_STARTED_ATTRIBUTE,
  type PageHost,
} from "../../src/taskpane/outside-excel";
import { PANE_WIDTH, useBrowserRig } from "./harness";

jest.setTimeout(60_000);

const rig = useBrowserRig();

const OFFICE_JS_DIST = join(__dirname, "../../node_modules/@microsoft/office-js/dist");
const HOSTED = "https://appsforoffice.microsoft.com/lib/1/hosted/";

interface Loaded {
  readonly page: Page;
  readonly problems: string[];
  close(): Promise<void>;
}

/**
 * The page in a plain browser tab: office.js (and the files it loads next to it) from @microsoft/office-js, or
 * (officeJs false) not loadable; every other address off 127.0.0.1 refused.
 */
async function openOutsideExcel(officeJs: boolean): Promise<Loaded> {
  const context = await rig.browser.newContext({ viewport: { width: PANE_WIDTH, height: 700 } });
  await context.route(
    (url) => !url.href.startsWith(rig.site.url),
    (route) => {
      const url = route.request().url();
      const file = url.startsWith(HOSTED)
        ? normalize(url.slice(HOSTED.length)).replace(/^(\.\.[/\\])+/, "")
        : "";
      if (officeJs && file !== "" && existsSync(join(OFFICE_JS_DIST, file))) {
        return route.fulfill({
          status: 200,
          contentType: "text/javascript",
          body: readFileSync(join(OFFICE_JS_DIST, file)),
        });
      }
      return route.abort();
    },
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning" || m.type() === "error") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${rig.site.url}/taskpane.html`);
  return { page, problems, close: () => context.close() };
}

/**
 * Waits until the page's start-up work is done: it marks <html> with where it runs when the pane's start has
 * finished, and the page's scripts (the functions' registration among them) ran before its load event, which
 * page.goto waited for. Outside Excel nothing of the add-in runs after that.
 */
async function started(page: Page, host: PageHost): Promise<void> {
  await page.locator(`html[${PAGE_STARTED_ATTRIBUTE}="${host}"]`).waitFor({ state: "attached" });
}

describe("the task pane's page", () => {
  it("carries the one Content-Security-Policy of content-security-policy.json, with no IPv6 literal", () => {
    const html = readFileSync(join(rig.dist, "taskpane.html"), "utf8");
    const meta = /<meta http-equiv="?Content-Security-Policy"? content="([^"]*)"/.exec(html)?.[1];
    expect(meta).toBe(TASKPANE_CSP);
    expect(TASKPANE_CSP).toContain("connect-src 'self' https: http://localhost:* http://127.0.0.1:*;");
    expect(TASKPANE_CSP).not.toMatch(/\[/);
  });

  it("loads in Excel with a clean console: no CSP warning, no warning, no error", async () => {
    const pane = await rig.openConnected();
    await started(pane.page, "excel");
    await pane.page.getByRole("tab", { name: "Find" }).waitFor();
    expect(pane.console).toContain("FDQ new-day check: current");
    expect(pane.problems).toEqual([]);
    await pane.context.close();
  });

  it("opened outside Excel (office.js answers host null) says how to open it in Excel", async () => {
    const loaded = await openOutsideExcel(true);
    const page = loaded.page;
    await started(page, "not-excel");
    await page.getByRole("heading", { name: OUTSIDE_EXCEL_TITLE }).waitFor();
    expect(await page.title()).toBe(OUTSIDE_EXCEL_TITLE);
    await page.getByText("choose Data > FDQ > Open task pane").waitFor();
    const manifest = page.getByRole("link", { name: `${rig.site.url}/manifest.xml` });
    expect(await manifest.getAttribute("href")).toBe(`${rig.site.url}/manifest.xml`);
    // Nothing of the add-in failed: no ribbon command, no runtime started, no function registered. What office.js
    // itself does in a browser tab remains: it frames its telemetry service, which the pane's frame-src refuses.
    const ours = loaded.problems.filter((p) => !/telemetryservice\.firstpartyapps\.oaspapps\.com/.test(p));
    expect(ours).toEqual([]);
    await loaded.close();
  });

  it("without office.js (it did not load) says so, and how to open the add-in in Excel", async () => {
    const loaded = await openOutsideExcel(false);
    const page = loaded.page;
    await started(page, "no-office-js");
    await page.getByRole("heading", { name: NO_OFFICE_JS_TITLE }).waitFor();
    await page.getByText("appsforoffice.microsoft.com, and it did not load").waitFor();
    await page.getByRole("heading", { name: OUTSIDE_EXCEL_TITLE }).waitFor();
    expect(await page.title()).toBe(NO_OFFICE_JS_TITLE);
    // The failed load of office.js itself (what this case is) and nothing else: no error of the add-in, no
    // warning; the functions, with no Excel to register with, register nowhere.
    expect(loaded.problems).toEqual(["error: Failed to load resource: net::ERR_FAILED"]);
    await loaded.close();
  });
});
