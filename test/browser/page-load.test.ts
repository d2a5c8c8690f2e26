// Loading the task pane's page: in Excel (the Office test double) its console stays clean, no warning (a CSP
// source the browser rejects, as http://[::1]:* was) and no error; opened outside Excel it shows how to open the
// add-in in Excel instead of a blank page, with Microsoft's real office.js (from @microsoft/office-js, served
// locally in place of appsforoffice.microsoft.com) as it behaves in a browser tab, and without office.js at all.
import { existsSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import type { Page } from "playwright-core";
import { TASKPANE_CSP } from "../../src/taskpane/content-security-policy";
import { NO_OFFICE_JS_TITLE, OUTSIDE_EXCEL_TITLE } from "../../src/taskpane/outside-excel";
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
    await pane.page.getByRole("tab", { name: "Find" }).waitFor();
    expect(pane.console).toContain("FDQ new-day check: current");
    expect(pane.problems).toEqual([]);
    await pane.context.close();
  });

  it("opened outside Excel (office.js answers host null) says how to open it in Excel", async () => {
    const loaded = await openOutsideExcel(true);
    const page = loaded.page;
    await page.getByRole("heading", { name: OUTSIDE_EXCEL_TITLE }).waitFor();
    expect(await page.title()).toBe(OUTSIDE_EXCEL_TITLE);
    await page.getByText("choose Data > FDQ > Open task pane").waitFor();
    const manifest = page.getByRole("link", { name: `${rig.site.url}/manifest.xml` });
    expect(await manifest.getAttribute("href")).toBe(`${rig.site.url}/manifest.xml`);
    // Nothing of the add-in failed: no ribbon command, no runtime started. What office.js itself does in a
    // browser tab remains: it frames its telemetry service, which the pane's frame-src refuses.
    await new Promise((r) => setTimeout(r, 500));
    const ours = loaded.problems.filter((p) => !/telemetryservice\.firstpartyapps\.oaspapps\.com/.test(p));
    expect(ours).toEqual([]);
    await loaded.close();
  });

  it("without office.js (it did not load) says so, and how to open the add-in in Excel", async () => {
    const loaded = await openOutsideExcel(false);
    const page = loaded.page;
    await page.getByRole("heading", { name: NO_OFFICE_JS_TITLE }).waitFor();
    await page.getByText("appsforoffice.microsoft.com, and it did not load").waitFor();
    await page.getByRole("heading", { name: OUTSIDE_EXCEL_TITLE }).waitFor();
    expect(await page.title()).toBe(NO_OFFICE_JS_TITLE);
    await new Promise((r) => setTimeout(r, 500));
    // The failed load itself, and the custom functions' registration (CustomFunctions.associate, which
    // custom-functions-metadata-plugin appends to functions.js) that has no office.js to register with.
    expect(loaded.problems).toEqual([
      "error: Failed to load resource: net::ERR_FAILED",
      "pageerror: CustomFunctions is not defined",
    ]);
    await loaded.close();
  });
});
