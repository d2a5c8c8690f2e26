// The task pane in headless Chromium: the built shared-runtime page (task pane + custom functions),
// office.js replaced by the Office test double, the sandbox on 127.0.0.1.
import { copyFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  centralDay,
  DEFAULTS,
  FdqClient,
  type FdqError,
  MemoryStorage,
  quotaResetsOn,
  RefreshDayClock,
  sleep,
} from "../../src/api";
import { findDataset } from "../../src/catalog";
import { EXCEL_HINTS } from "../../src/host/excel-hints";
import { startGateway } from "../../src/gateway";
import { startSandbox } from "../../src/sandbox";
import { CALCULATED_DAY_SETTING } from "../../src/taskpane/office/document-settings";
import {
  ARTIFACTS,
  PANE_WIDTH,
  callDouble,
  enterCells,
  openPane,
  savedSettings,
  settled,
  takeCspViolations,
  todayLabel,
  useBrowserRig,
  waitForConsole,
  type OpenedWorkbook,
} from "./harness";
import { fmt, openWithCells, resultNames, search, tab, waitAnswered } from "./pane-steps";
import { referenceCases } from "./reference-cases";

/** The pane's Status line of a month with `n` units counted of a 10,000-unit plan, not used up. */
const unitsLine = (n: number): string =>
  `${fmt(n)} of 10,000 units used (${((n / 10_000) * 100).toFixed(1)}%), ${fmt(10_000 - n)} left; the quota resets on ${quotaResetsOn(Date.now())}.`;

jest.setTimeout(60_000);

const rig = useBrowserRig();

beforeAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
});

/** A workbook saved on an earlier refresh day: a formula with its stale saved value, that day in its settings. */
const SAVED_EARLIER: OpenedWorkbook = {
  cells: { "Sheet1!A1": { formula: '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)', value: 1.5 } },
  documentSettings: { [CALCULATED_DAY_SETTING]: "2020-01-02" },
};

describe("task pane in the browser", () => {
  it("saves the key in OfficeRuntime.storage (masked in the form) and uses it for the functions' requests", async () => {
    const { context, page } = await openPane(rig.browser, rig.site);
    const sentKeys: string[] = [];
    page.on("request", (r) => {
      if (r.url().startsWith(rig.sandbox.baseUrl) && r.method() === "GET")
        sentKeys.push(r.headers()["x-api-key"] ?? "");
    });
    // No key yet: the pane opens on Connect.
    await page.getByRole("tab", { name: "Connect", selected: true }).waitFor();
    await page.getByTestId("base-url").fill(rig.sandbox.baseUrl);
    const key = page.getByTestId("api-key");
    await key.fill(rig.sandbox.demoKey);
    expect(await key.getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Show the key" }).click();
    expect(await key.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("save-result").getByText("Saved in this computer's add-in storage").waitFor();

    const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
    expect(JSON.parse(stored["fdq.settings"] ?? "{}")).toEqual({
      baseUrl: rig.sandbox.baseUrl,
      apiKey: rig.sandbox.demoKey,
    });

    await enterCells(page, { "Sheet1!A1": '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)' });
    const expected = await rig.reference.datapoint({
      ticker: "MSFT",
      dataset: "metrics/roic",
      name: "ROIC",
      year: 2022,
    });
    expect(await callDouble(page, "cell", "Sheet1!A1")).toMatchObject({ value: expected.value, error: null });
    expect(sentKeys.length).toBeGreaterThan(0);
    expect(new Set(sentKeys)).toEqual(new Set([rig.sandbox.demoKey]));
    // The key lives in the settings store only: not in any cell of the workbook.
    expect(JSON.stringify(await callDouble(page, "log"))).not.toContain(rig.sandbox.demoKey);

    // Reopened, the pane shows the saved key (masked again).
    await page.reload();
    await tab(page, "Connect");
    await expect(page.getByTestId("api-key").inputValue()).resolves.toBe(rig.sandbox.demoKey);
    expect(await page.getByTestId("api-key").getAttribute("type")).toBe("password");
    await context.close();
  });

  it("tells apart each connection-test outcome: connected, key refused, unreachable, CORS, not https", async () => {
    // Answers every request, but without CORS headers.
    const noCors: Server = createServer((_, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end("{}"),
    );
    await new Promise<void>((done) => noCors.listen(0, "127.0.0.1", done));
    const noCorsUrl = `http://127.0.0.1:${(noCors.address() as AddressInfo).port}/v1`;
    // A port that was free a moment ago: nothing listens there.
    const gone: Server = createServer();
    await new Promise<void>((done) => gone.listen(0, "127.0.0.1", done));
    const goneUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/v1`;
    await new Promise<void>((done) => gone.close(() => done()));

    const { context, page } = await openPane(rig.browser, rig.site);
    const outcome = async (baseUrl: string, key: string): Promise<{ kind: string | null; text: string }> => {
      await page.getByTestId("base-url").fill(baseUrl);
      await page.getByTestId("api-key").fill(key);
      await page.getByTestId("test-connection").click();
      const bar = page.getByTestId("connection-result");
      await bar.waitFor();
      return { kind: await bar.getAttribute("data-kind"), text: (await bar.textContent()) ?? "" };
    };
    const origin = new URL(rig.sandbox.baseUrl).origin;
    const refused = await outcome(rig.sandbox.baseUrl, "not-a-key");
    expect(refused.kind).toBe("key-refused");
    expect(refused.text).toContain(`Key refused: ${origin} answered 403`);
    expect(refused.text).toContain("Check the API key.");

    const connected = await outcome(rig.sandbox.baseUrl, rig.sandbox.demoKey);
    expect(connected).toEqual({ kind: "connected", text: `ConnectedConnected: ${origin} accepted the key.` });

    const unreachable = await outcome(goneUrl, rig.sandbox.demoKey);
    expect(unreachable.kind).toBe("unreachable");
    expect(unreachable.text).toContain(`Service unreachable: no answer from ${new URL(goneUrl).origin}.`);

    const blocked = await outcome(noCorsUrl, rig.sandbox.demoKey);
    expect(blocked.kind).toBe("cors");
    expect(blocked.text).toContain(`Blocked by CORS: ${new URL(noCorsUrl).origin} answers`);

    const insecure = await outcome("http://fdq.example.com/v1", rig.sandbox.demoKey);
    expect(insecure).toEqual({
      kind: "not-https",
      text: "Not httpsNot https: baseUrl must start with https:// (http:// is allowed only for localhost and 127.0.0.1).",
    });
    await context.close();
    await new Promise<void>((done) => noCors.close(() => done()));
  });

  it('served by `fdq serve`, offers "This gateway" first and fills cells from a service without CORS; straight to it, CORS blocks', async () => {
    // Like the real service: no CORS headers, preflights refused.
    const service = await startSandbox({ port: 0, cors: "off" });
    const gateway = await startGateway({
      upstream: service.baseUrl,
      distDir: rig.dist,
      port: 0,
      log: () => undefined,
      onWarning: () => undefined,
    });
    const direct = new FdqClient({ baseUrl: service.baseUrl, apiKey: service.demoKey });
    try {
      const gatewayUrl = `${gateway.url}/v1`;
      const pane = await openPane(rig.browser, { url: gateway.url, close: async () => undefined });
      const { context, page } = pane;
      // A first-time user: the pane opens on Connect, on the gateway's preset and base URL.
      await page.getByRole("tab", { name: "Connect", selected: true }).waitFor();
      const presets = page.getByTestId("preset");
      await presets
        .locator("option", { hasText: `This gateway (${gatewayUrl})` })
        .waitFor({ state: "attached" });
      const labels = await presets.locator("option").allTextContents();
      expect(labels.slice(0, 2)).toEqual(["Custom URL", `This gateway (${gatewayUrl})`]);
      await expect(page.getByTestId("base-url").inputValue()).resolves.toBe(gatewayUrl);
      await expect(presets.inputValue()).resolves.toBe(gatewayUrl);

      // Chosen from the presets after another URL, with the sandbox's key: connected, saved.
      await presets.selectOption({ label: "Production" });
      await presets.selectOption({ label: `This gateway (${gatewayUrl})` });
      await expect(page.getByTestId("base-url").inputValue()).resolves.toBe(gatewayUrl);
      await page.getByTestId("api-key").fill(service.demoKey);
      await page.getByTestId("test-connection").click();
      const result = page.getByTestId("connection-result");
      await result.waitFor();
      expect(await result.getAttribute("data-kind")).toBe("connected");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("save-result").getByText("Saved in this computer's add-in storage").waitFor();
      const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
      expect(JSON.parse(stored["fdq.settings"] ?? "{}")).toEqual({
        baseUrl: gatewayUrl,
        apiKey: service.demoKey,
      });

      // The functions of the page the gateway serves fill the cell with the service's own answer.
      await enterCells(page, { "Sheet1!A1": '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)' });
      const expected = await direct.datapoint({
        ticker: "MSFT",
        dataset: "metrics/roic",
        name: "ROIC",
        year: 2022,
      });
      expect(typeof expected.value).toBe("number");
      expect(await callDouble(page, "cell", "Sheet1!A1")).toMatchObject({
        value: expected.value,
        error: null,
      });
      expect(pane.requests.filter((u) => u.startsWith(`${gatewayUrl}/datapoint`)).length).toBeGreaterThan(0);
      expect(pane.requests.filter((u) => u.startsWith(service.baseUrl))).toEqual([]);

      // The same pane pointed straight at the service: the browser withholds its answers.
      await page.getByTestId("base-url").fill(service.baseUrl);
      await expect(presets.inputValue()).resolves.toBe("");
      await page.getByTestId("test-connection").click();
      await page.getByTestId("connection-result").and(page.locator('[data-kind="cors"]')).waitFor();
      await expect(page.getByTestId("connection-result").textContent()).resolves.toContain(
        `Blocked by CORS: ${new URL(service.baseUrl).origin} answers`,
      );
      await context.close();
    } finally {
      await direct.close();
      await gateway.close();
      await service.close();
    }
  });

  it("finds datapoints by name, description words and with typos, within the filters", async () => {
    const { context, page } = await rig.openConnected();
    await tab(page, "Find");
    await search(page, "accounts payable");
    expect(await resultNames(page, 2)).toEqual(["ACCOUNTS_PAYABLE", "ACCOUNTS_PAYABLE"]);
    await search(page, "acounts payble");
    expect(await resultNames(page, 2)).toEqual(["ACCOUNTS_PAYABLE", "ACCOUNTS_PAYABLE"]);
    await search(page, "retrun on invested");
    expect(await resultNames(page, 1)).toEqual(["ROIC"]);
    await search(page, "diluted shares");
    expect((await resultNames(page, 1))[0]).toMatch(/WADSO/);

    await search(page, "payable");
    await page.getByTestId("dataset-filter").selectOption("fundamentals/adjusted");
    await page.getByTestId("category-filter").selectOption("SIC");
    expect(await resultNames(page, 5)).toEqual(["ACCOUNTS_PAYABLE_TURNOVER"]);
    await expect(page.getByTestId("datapoint-count").textContent()).resolves.toBe("1 datapoint matches.");

    // Each result shows dataset, sign role, (SP) flag, category and description.
    await page.getByTestId("dataset-filter").selectOption("");
    await page.getByTestId("category-filter").selectOption("");
    await search(page, "wacc");
    const row = page.getByTestId("datapoint-result").first();
    await expect(row.textContent()).resolves.toBe(
      "WACCmetrics/ebv/ divided by(SP)WACC (weighted average cost of capital).",
    );
    await context.close();
  });

  it("works from the keyboard: arrow keys between tabs, through results, Enter to choose", async () => {
    const { context, page } = await rig.openConnected();
    await page.getByRole("tab", { name: "Find" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: "Cell", selected: true }).waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: "Find", selected: true }).waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.type("nopat");
    const box = page.getByTestId("datapoint-query");
    await expect(box.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    const second = (await resultNames(page, 2))[1];
    await box.press("ArrowDown");
    const active = await box.getAttribute("aria-activedescendant");
    await expect(page.locator(`[id="${active}"]`).getAttribute("aria-selected")).resolves.toBe("true");
    await box.press("Enter");
    await page
      .getByRole("group", { name: "Formula builder" })
      .getByText(`${second}`, { exact: true })
      .waitFor();
    await context.close();
  });

  it("builds the formula from a datapoint and a ticker found in coverage and inserts it into the selected cell", async () => {
    const { context, page } = await rig.openConnected();
    await callDouble(page, "select", "Sheet1!C3");
    await tab(page, "Find");
    await search(page, "roic");
    await page.getByTestId("datapoint-query").press("Enter");
    await page.getByRole("button", { name: "Find ticker" }).click();
    await page
      .getByTestId("ticker-count")
      .getByText(/of 10590 securities/)
      .waitFor();
    await page.getByTestId("ticker-query").fill("aapl");
    await page.getByTestId("ticker-query").press("Enter");
    await expect(page.getByTestId("builder-ticker").inputValue()).resolves.toBe("AAPL");
    // A new formula asks for the latest fiscal year: the model rolls forward by itself.
    await expect(page.getByTestId("builder-formula").textContent()).resolves.toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","FY0")',
    );
    await page.getByTestId("builder-when").selectOption("fixed");
    await page.getByTestId("builder-year").fill("2023");
    await page.getByRole("radio", { name: "Quarter" }).check();
    await page.getByTestId("builder-quarter").selectOption("2");
    await expect(page.getByTestId("builder-formula").textContent()).resolves.toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023,2)',
    );
    await page.getByRole("button", { name: "Insert into selected cell" }).click();
    await page.getByTestId("builder-message").getByText("Inserted into Sheet1!C3.").waitFor();
    await settled(page);
    const expected = await rig.reference.datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2023,
      quarter: 2,
    });
    expect(await callDouble(page, "cell", "Sheet1!C3")).toEqual({
      formula: '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023,2)',
      value: expected.value,
      error: null,
    });
    await context.close();
  });

  it("explains the selected cell: dataset, datapoint, period, cache day and the request without the key", async () => {
    const { context, page } = await openWithCells(rig, {
      "Sheet1!B2": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023,,3)',
    });
    await settled(page);
    await callDouble(page, "select", "Sheet1!B2");
    await tab(page, "Cell");
    const facts = page.getByTestId("explanation");
    await facts.waitFor();
    await expect(page.getByTestId("explain-dataset").textContent()).resolves.toBe(
      "metrics/roic (return on invested capital data)",
    );
    await expect(page.getByTestId("explain-datapoint").textContent()).resolves.toBe("ROIC");
    await expect(page.getByTestId("explain-description").textContent()).resolves.toBe(
      "ROIC (return on invested capital).",
    );
    await expect(page.getByTestId("explain-period").textContent()).resolves.toBe("TTM to Q3 FY2023");
    await expect(facts.textContent()).resolves.toContain(
      "Trailing twelve months ending with Q3 of fiscal year 2023: Q3, Q2, Q1 of 2023 plus Q4 of 2022 (TTM, period 3).",
    );
    await expect(page.getByTestId("explain-source").textContent()).resolves.toContain(
      `From the cache of refresh day ${todayLabel()}`,
    );
    const url = await page.getByTestId("explain-url").textContent();
    expect(url).toBe(`GET ${rig.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2023&ttm=3`);
    // Its price: one datapoint x security x period; answered by today's cache, so nothing to spend.
    await expect(page.getByTestId("explain-price").textContent()).resolves.toBe(
      "1 unit; cached today: 0 units to spend.",
    );
    expect(await facts.textContent()).not.toContain(rig.sandbox.demoKey);
    await page.screenshot({ path: join(ARTIFACTS, "taskpane-explain.png"), fullPage: true });
    const expected = await rig.reference.datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2023,
      ttm: 3,
    });
    await expect(page.getByTestId("explain-value").textContent()).resolves.toBe(String(expected.value));
    await context.close();
  });

  it("refreshes all FDQ cells with progress and a summary; a second estimate the same day finds all cached", async () => {
    const atOpen = rig.sandbox.stats().requests;
    const { context, page } = await rig.openConnected();
    await callDouble(page, "addSheet", "Model 2");
    await callDouble(page, "seed", {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("MSFT","fundamentals/adjusted","ACCOUNTS_PAYABLE",2022)',
      "'Model 2'!B5": '=FDQ.DATAPOINT("NFLX","metrics/roic","ROIC",2021,4)',
      "'Model 2'!B6": "plain text",
    });
    await tab(page, "Workbook");
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("4 FDQ cells found");
    // Already calculated once: everything is in today's cache.
    await expect(page.getByTestId("estimate-requests").textContent()).resolves.toBe(
      "0 requests needed (0 units)",
    );
    await expect(page.getByTestId("estimate-cached").textContent()).resolves.toBe(
      "4 of 4 cells already cached",
    );
    // The four values and the day's stock coverage list, which the refresh asks again.
    await expect(page.getByTestId("estimate-refresh").textContent()).resolves.toBe(
      "A refresh drops today's cache and sends up to 5 requests again: 5 units of the monthly quota.",
    );
    await expect(page.getByTestId("estimate-projection").textContent()).resolves.toMatch(
      /^At one refresh per trading day \(assumed 21 a month\), this workbook uses about 105 units a month \(5 x 21\): within the [\d,]+ units left of the 10,000-unit plan\.$/,
    );

    const before = rig.sandbox.stats().requests;
    const sent: string[] = [];
    page.on(
      "request",
      (r) => r.url().startsWith(rig.sandbox.baseUrl) && r.method() === "GET" && sent.push(r.url()),
    );
    await page.getByTestId("refresh-button").click();
    await page.getByTestId("refresh-progress").waitFor();
    const summary = page.getByTestId("refresh-summary");
    await summary.waitFor({ timeout: 30_000 });
    // Billed per datapoint: ROIC and NOPAT of AAPL 2022 are one request each (not every name of roic), after the
    // day's stock coverage list; the refresh did not ask first (5 units, far inside the default plan).
    expect(sent.map((u) => u.slice(rig.sandbox.baseUrl.length)).sort()).toEqual([
      "/coverage/stock",
      "/fundamentals/adjusted/MSFT?datapoint=ACCOUNTS_PAYABLE&year=2022",
      "/metrics/roic/AAPL?datapoint=NOPAT&year=2022",
      "/metrics/roic/AAPL?datapoint=ROIC&year=2022",
      "/metrics/roic/NFLX?datapoint=ROIC&year=2021&quarter=4",
    ]);
    expect(rig.sandbox.stats().requests - before).toBe(5);
    expect(await page.getByTestId("refresh-confirm").count()).toBe(0);
    await expect(summary.textContent()).resolves.toMatch(
      /^Refreshed 4 FDQ cells \(on request\): 5 requests sent, 0 failed requests, 0 cells in error, in \d+\.\d s\.$/,
    );
    expect(await callDouble<string[]>(page, "calculations")).toEqual(["Full"]);
    // The refresh records its day in the workbook's own settings, and never the key.
    const documentSettings = await callDouble<Record<string, unknown>>(page, "documentSettings");
    expect(documentSettings).toEqual({ [CALCULATED_DAY_SETTING]: todayLabel() });
    expect(JSON.stringify(documentSettings)).not.toContain(rig.sandbox.demoKey);

    await page.screenshot({ path: join(ARTIFACTS, "taskpane-refresh-summary.png"), fullPage: true });
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-requests").textContent()).resolves.toBe(
      "0 requests needed (0 units)",
    );
    await expect(page.getByTestId("estimate-cached").textContent()).resolves.toBe(
      "4 of 4 cells already cached",
    );
    await page.screenshot({ path: join(ARTIFACTS, "taskpane-workbook.png"), fullPage: true });
    await expect(page.getByTestId("status-last-refresh").textContent()).resolves.toContain(
      `refresh day ${todayLabel()}`,
    );
    await expect(page.getByTestId("status-day").textContent()).resolves.toBe(todayLabel());
    // Status counts every request of the shared client today: the functions' and the pane's alike.
    const requestsToday = String(rig.sandbox.stats().requests - atOpen);
    await page.getByTestId("status-requests").getByText(requestsToday, { exact: true }).waitFor();
    await context.close();
  });

  it("refreshes by itself when the workbook opens on a new refresh day, though another workbook refreshed today", async () => {
    // OfficeRuntime.storage is shared by every workbook of the domain: its record of today's refresh
    // (another workbook's) must not stop this workbook, whose own settings say it was calculated on an earlier day.
    const otherWorkbookAt = Date.now() - 60_000;
    const pane = await openPane(rig.browser, rig.site, {
      storage: {
        ...savedSettings(rig.sandbox),
        "fdq.pane.lastRefresh": JSON.stringify({ day: todayLabel(), at: otherWorkbookAt }),
      },
      workbook: SAVED_EARLIER,
    });
    const { context, page } = pane;
    await waitForConsole(pane, "FDQ new-day check: refreshed");
    await tab(page, "Workbook");
    // The summary counts every request of the shared client during the run: the pane's own load of the
    // datapoint descriptions (/datapoint) may fall inside it.
    await expect(page.getByTestId("refresh-summary").textContent()).resolves.toMatch(
      new RegExp(
        `^Refreshed 1 FDQ cell \\(new refresh day ${todayLabel()}\\): (2 requests|3 requests) sent, 0 failed requests, 0 cells in error, in \\d+\\.\\d s\\.$`,
      ),
    );
    const sandboxPaths = pane.requests
      .filter((u) => u.startsWith(rig.sandbox.baseUrl))
      .map((u) => u.slice(rig.sandbox.baseUrl.length));
    // The day's stock coverage list before the cell's value.
    expect(sandboxPaths.sort()).toEqual([
      "/coverage/stock",
      "/datapoint",
      "/metrics/roic/AAPL?datapoint=ROIC&year=2022",
    ]);
    // One check at open, one full calculation: the pane does not start a second one.
    expect(await callDouble<string[]>(page, "calculations")).toEqual(["Full"]);
    const expected = await rig.reference.datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2022,
    });
    expect(await callDouble(page, "cell", "Sheet1!A1")).toMatchObject({ value: expected.value, error: null });
    expect(await callDouble(page, "documentSettings")).toEqual({ [CALCULATED_DAY_SETTING]: todayLabel() });
    const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
    const lastRefresh = JSON.parse(stored["fdq.pane.lastRefresh"] ?? "{}") as { day: string; at: number };
    expect(lastRefresh.day).toBe(todayLabel());
    expect(lastRefresh.at).toBeGreaterThan(otherWorkbookAt);
    await context.close();
  });

  it("does not calculate at open on a new refresh day when the pane's setting is off", async () => {
    const pane = await openPane(rig.browser, rig.site, {
      storage: { ...savedSettings(rig.sandbox), "fdq.pane.autoRefresh": "false" },
      workbook: SAVED_EARLIER,
    });
    const { context, page } = pane;
    await waitForConsole(pane, "FDQ new-day check: off");
    await tab(page, "Workbook");
    await expect(
      page.getByRole("switch", { name: "Refresh when the workbook opens on a new refresh day" }).isChecked(),
    ).resolves.toBe(false);
    expect(await callDouble<string[]>(page, "calculations")).toEqual([]);
    expect(await callDouble(page, "cell", "Sheet1!A1")).toMatchObject({ value: 1.5, error: null });
    // Only the pane's load of the datapoint descriptions, no data request.
    const sandboxPaths = pane.requests.filter((u) => u.startsWith(rig.sandbox.baseUrl));
    expect(sandboxPaths.filter((u) => !u.endsWith("/datapoint"))).toEqual([]);
    expect(await callDouble(page, "documentSettings")).toEqual({ [CALCULATED_DAY_SETTING]: "2020-01-02" });
    expect(await page.getByTestId("refresh-summary").count()).toBe(0);
    await context.close();
  });

  it("lists the FDQ cells in error with their reason and selects a cell when it is chosen", async () => {
    const { context, page } = await openWithCells(rig, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!D4": '=FDQ.DATAPOINT("NOSUCHTICKER","metrics/roic","ROIC",2022)',
      "Sheet1!D5": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022,7)',
    });
    await tab(page, "Workbook");
    await page.getByTestId("errors-button").click();
    await expect(page.getByTestId("errors-count").textContent()).resolves.toBe("2 FDQ cells are in error.");
    const items = page.getByTestId("error-cell");
    const d4 = await rig.reference
      .datapoint({ ticker: "NOSUCHTICKER", dataset: "roic", name: "ROIC", year: 2022 })
      .catch((e: Error) => e);
    const d5 = await rig.reference
      .datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022, quarter: 7 })
      .catch((e: Error) => e);
    const cellD4 = await callDouble<{ value: string }>(page, "cell", "Sheet1!D4");
    const cellD5 = await callDouble<{ value: string }>(page, "cell", "Sheet1!D5");
    expect(await items.allTextContents()).toEqual([
      // The pane words the reason for Excel (its hints), the reference client for no surface.
      `Sheet1!D4${cellD4.value}${(d4 as FdqError).withHints(EXCEL_HINTS).message}`,
      `Sheet1!D5${cellD5.value}${(d5 as Error).message}`,
    ]);
    await items.nth(1).click();
    await page.waitForFunction(
      () =>
        (window as unknown as { __officeDouble: { selection(): string } }).__officeDouble.selection() ===
        "Sheet1!D5",
    );
    await context.close();
  });

  it("freezes the FDQ formulas of the selection to their values after a confirmation", async () => {
    const { context, page } = await openWithCells(rig, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": "note",
      "Sheet1!A3": '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)',
    });
    const a1 = await callDouble<{ value: number }>(page, "cell", "Sheet1!A1");
    await callDouble(page, "select", "Sheet1!A1:A3");
    await tab(page, "Cell");
    await page.getByTestId("freeze-button").click();
    await page.getByRole("dialog", { name: "Freeze 2 FDQ formulas?" }).waitFor();
    await page.getByTestId("freeze-confirm").click();
    await expect(page.getByTestId("freeze-message").textContent()).resolves.toBe(
      "Replaced 2 FDQ formulas with their values. The workbook keeps the formulas: Restore formulas brings them back.",
    );
    expect(await callDouble(page, "cell", "Sheet1!A1")).toEqual({
      formula: null,
      value: a1.value,
      error: null,
    });
    expect(await callDouble(page, "cell", "Sheet1!A2")).toEqual({
      formula: null,
      value: "note",
      error: null,
    });
    await context.close();
  });

  it("shows a datapoint description that contains HTML as text", async () => {
    const injected = '<img src=x onerror="window.__pwned=1"><b>bold</b> Return on capital';
    const { context, page } = await openPane(rig.browser, rig.site, {
      storage: savedSettings(rig.sandbox),
      prepare: (ctx) =>
        ctx.route(`${rig.sandbox.baseUrl}/datapoint`, async (route) => {
          const response = await route.fetch();
          const envelope = (await response.json()) as { body: string };
          const body = JSON.parse(envelope.body) as { results: { name: string; description: string }[] };
          for (const r of body.results) if (r.name === "ROIC") r.description = injected;
          await route.fulfill({ response, json: { ...envelope, body: JSON.stringify(body) } });
        }),
    });
    await tab(page, "Find");
    await search(page, "roic");
    const row = page.getByTestId("datapoint-result").first();
    await row.getByText(injected).waitFor();
    expect(await row.locator("img, b").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await context.close();
  });

  it("follows the Office light and dark themes at the task pane's width (screenshots)", async () => {
    for (const theme of ["light", "dark"] as const) {
      const { context, page } = await rig.openConnected({ theme });
      await tab(page, "Find");
      await search(page, "return on invested");
      await page.getByTestId("datapoint-query").press("Enter");
      await page.getByTestId("builder-ticker").fill("AAPL");
      const background = await page.locator("main").evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background).toBe(theme === "dark" ? "rgb(31, 31, 31)" : "rgb(250, 250, 250)");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBe(PANE_WIDTH);
      const file = join(ARTIFACTS, `taskpane-${theme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      // Tests write only under test/artifacts; `npm run docs:screenshot` updates the README's picture.
      if (theme === "light" && process.env.FDQ_UPDATE_DOCS === "1") {
        copyFileSync(file, join(__dirname, "../../docs/taskpane.png"));
      }
      await context.close();
    }
  });
  it("reports a Content-Security-Policy violation (the check after each test can fail)", async () => {
    const { context, page } = await rig.openConnected();
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__inline = 1";
      document.body.append(script);
    });
    await expect(
      page.evaluate(() => (window as unknown as { __inline?: number }).__inline),
    ).resolves.toBeUndefined();
    for (const started = Date.now(); Date.now() - started < 5_000;) {
      const violations = takeCspViolations();
      if (violations.length > 0) {
        expect(violations).toEqual([`script-src-elem blocked inline in ${rig.site.url}/taskpane.html`]);
        return context.close();
      }
      await sleep(20);
    }
    throw new Error("no securitypolicyviolation event was reported");
  });

  it("copies the built formula to the clipboard", async () => {
    const { context, page } = await rig.openConnected();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: rig.site.url });
    await tab(page, "Find");
    await search(page, "roic");
    await page.getByTestId("datapoint-query").press("Enter");
    await page.getByTestId("builder-ticker").fill("MSFT");
    await page.getByTestId("builder-when").selectOption("fixed");
    await page.getByTestId("builder-year").fill("2022");
    await page.getByRole("radio", { name: "TTM" }).check();
    await page.getByTestId("builder-quarter").selectOption("3");
    const formula = '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022,,3)';
    await expect(page.getByTestId("builder-formula").textContent()).resolves.toBe(formula);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByTestId("builder-message").getByText("Copied.", { exact: true }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(formula);
    // Copying leaves the workbook alone.
    expect(await callDouble(page, "log")).toEqual([]);
    await context.close();
  });

  it("explains SERIES per year, DATASET with its rows, RATING with what it asks, and a call it cannot plan", async () => {
    const { context, page } = await openWithCells(rig, {
      "Sheet1!A1": '=FDQ.SERIES("MSFT","roic","ROIC",2021,2022)',
      "Sheet1!A3": '=FDQ.DATASET("MSFT","roic",2022)',
      "Sheet1!A4": '=FDQ.RATING("msft")',
      "Sheet1!A5": '=FDQ.SERIES("MSFT","roic","ROIC",1,2000000)',
    });
    await callDouble(page, "select", "Sheet1!A1");
    await tab(page, "Cell");
    await expect(page.getByTestId("explain-series-summary").textContent()).resolves.toBe(
      "2 requests, one per fiscal year; 2 cached today",
    );
    await page.screenshot({ path: join(ARTIFACTS, "taskpane-explain-series.png"), fullPage: true });
    await expect(page.getByTestId("explain-series-years").locator("li").allTextContents()).resolves.toEqual([
      `FY2021: cachedGET ${rig.sandbox.baseUrl}/metrics/roic/MSFT?datapoint=ROIC&year=2021`,
      `FY2022: cachedGET ${rig.sandbox.baseUrl}/metrics/roic/MSFT?datapoint=ROIC&year=2022`,
    ]);
    await expect(page.getByTestId("explain-price").textContent()).resolves.toBe(
      "2 units for 2 requests; cached today: 0 units to spend.",
    );

    await callDouble(page, "select", "Sheet1!A3");
    const rows = (await rig.reference.dataset({ ticker: "MSFT", dataset: "roic", year: 2022 })).records
      .length;
    await page
      .getByTestId("explain-source")
      .getByText(`The dataset has ${rows} rows.`, { exact: false })
      .waitFor();
    await expect(page.getByTestId("explain-url").textContent()).resolves.toBe(
      `GET ${rig.sandbox.baseUrl}/metrics/roic/MSFT?year=2022`,
    );
    // A whole dataset costs one unit per datapoint: its catalog size before the answer.
    await expect(page.getByTestId("explain-price").textContent()).resolves.toBe(
      `${findDataset("metrics/roic")!.datapoints.length} units; cached today: 0 units to spend.`,
    );

    await callDouble(page, "select", "Sheet1!A4");
    await page
      .getByTestId("explain-asks")
      .getByText("The component ratings of MSFT.", { exact: true })
      .waitFor();
    await expect(page.getByTestId("explain-price").textContent()).resolves.toBe(
      "1 unit; cached today: 0 units to spend.",
    );

    await callDouble(page, "select", "Sheet1!A5");
    await expect(page.getByTestId("explain-problem").textContent()).resolves.toBe(
      "Cannot be planned: from_year..to_year spans 2000000 years; at most 50 are allowed.",
    );
    await context.close();
  });

  it("shows this month's quota units after a refresh, equal to the sandbox's own count, and the estimate's price", async () => {
    // A sandbox of its own: its meter counts this pane's requests only (the shared one counts every test's).
    const own = await startSandbox();
    try {
      const pane = await rig.openConnected({ service: own });
      const { context, page } = pane;
      // The descriptions' load (/v1/datapoint) costs a unit too: let it land before counting.
      await waitAnswered(pane, `${own.baseUrl}/datapoint`);
      await enterCells(page, {
        "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
        "Sheet1!A2": '=FDQ.DATASET("MSFT","screens/traditional",2022)',
        "Sheet1!A3": '=FDQ.RATING("AAPL")',
      });
      await tab(page, "Workbook");
      const units = page.getByTestId("status-units");
      const shows = async (n: number): Promise<void> =>
        units.getByText(unitsLine(n), { exact: true }).waitFor();
      await shows(own.usage());

      await page.getByTestId("estimate-button").click();
      // 1 for the day's stock coverage list, 1 for the datapoint, one per datapoint of the whole dataset (24), 1
      // for the rating.
      const price = 1 + 1 + findDataset("screens/traditional")!.datapoints.length + 1;
      await expect(page.getByTestId("estimate-refresh").textContent()).resolves.toBe(
        `A refresh drops today's cache and sends up to 4 requests again: up to ${price} units of the monthly quota.`,
      );
      await expect(page.getByTestId("estimate-projection").textContent()).resolves.toBe(
        `At one refresh per trading day (assumed 21 a month), this workbook uses about ${price * 21} units ` +
          `a month (${price} x 21): within the ${fmt(10_000 - own.usage())} units left of the 10,000-unit plan.`,
      );
      const before = own.usage();
      await page.getByTestId("refresh-button").click();
      await page.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
      // The sandbox charged what the estimate said, and the pane counted what the sandbox charged.
      expect(own.usage() - before).toBe(price);
      await shows(own.usage());
      await expect(page.getByTestId("status-units").textContent()).resolves.toBe(unitsLine(own.usage()));
      await page.screenshot({ path: join(ARTIFACTS, "taskpane-usage.png"), fullPage: true });
      await context.close();
    } finally {
      await own.close();
    }
  });

  it("asks before a refresh that may spend more units than are left of the plan; Cancel sends nothing", async () => {
    const pane = await openWithCells(rig, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("MSFT","metrics/roic","NOPAT",2022)',
    });
    const { context, page } = pane;
    await tab(page, "Workbook");
    // A plan of 3 units, below this month's use plus the refresh's 3 units (the coverage list and two values).
    await page.getByTestId("plan-units").fill("3");
    await page
      .getByTestId("status-units")
      .getByText(/ of 3 units used \(.*\), 0 left; the quota resets on /)
      .waitFor();
    const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
    expect(stored["fdq.pane.planUnits"]).toBe("3");
    const used = Number((await page.getByTestId("status-units").textContent())?.split(" ")[0]);

    const requests = pane.requests.length;
    const served = rig.sandbox.stats().requests;
    await page.getByTestId("refresh-button").click();
    const dialog = page.getByTestId("refresh-confirm");
    await dialog.waitFor();
    // The dialog's opening animation ends before the screenshot.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
    await expect(page.getByTestId("refresh-confirm-text").textContent()).resolves.toBe(
      `This refresh drops today's cache and sends every request again: 3 units, more than the 0 units left of ` +
        `your 3-unit monthly plan (${used} used this month). Once the quota is spent the service answers ` +
        `"Limit Exceeded" and cells fail until it resets on ${quotaResetsOn(Date.now())} (US Central).`,
    );
    await page.screenshot({ path: join(ARTIFACTS, "taskpane-refresh-confirm.png"), fullPage: true });
    await page.getByTestId("refresh-confirm-cancel").click();
    await dialog.waitFor({ state: "detached" });
    await sleep(1_000);
    expect(pane.requests.length).toBe(requests);
    expect(rig.sandbox.stats().requests).toBe(served);
    expect(await callDouble<string[]>(page, "calculations")).toEqual([]);
    expect(await page.getByTestId("refresh-summary").count()).toBe(0);

    // Confirmed, it refreshes: the day's coverage list and the two values.
    await page.getByTestId("refresh-button").click();
    await page.getByTestId("refresh-confirm-yes").click();
    await expect(page.getByTestId("refresh-summary").textContent({ timeout: 30_000 })).resolves.toMatch(
      /^Refreshed 2 FDQ cells \(on request\): 3 requests sent, /,
    );
    expect(await callDouble<string[]>(page, "calculations")).toEqual(["Full"]);
    await context.close();
  });

  it("says when the monthly quota is used up, until when, and sends again once the plan was raised", async () => {
    // --quota 0: the sandbox answers every request 429 {"message":"Limit Exceeded"}.
    const spent = await startSandbox({ quota: 0 });
    try {
      const { context, page } = await openWithCells(
        rig,
        { "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)' },
        { service: spent },
      );
      await tab(page, "Workbook");
      const bar = page.getByTestId("quota-exhausted");
      await bar.waitFor();
      const resetsOn = quotaResetsOn(Date.now());
      await expect(bar.textContent()).resolves.toBe(
        `Monthly quota used upThe service answered "Limit Exceeded": no request is sent until the quota resets ` +
          `on ${resetsOn} (US Central). Cells keep their last values until they are recalculated.My plan was raised`,
      );
      // One truth once the service refused: no "left" beside "used up" (the same words as fdq usage).
      await expect(page.getByTestId("status-units").textContent()).resolves.toBe(
        `Used up: the service refused on ${centralDay(Date.now())} (429 Limit Exceeded); the ledger counted 0 units this month; the quota resets on ${resetsOn}.`,
      );
      await page.screenshot({ path: join(ARTIFACTS, "taskpane-quota-exhausted.png"), fullPage: true });
      await page.getByRole("button", { name: "My plan was raised" }).click();
      await bar.waitFor({ state: "detached" });
      await page.getByTestId("status-units").getByText(unitsLine(0), { exact: true }).waitFor();
      await context.close();
    } finally {
      await spent.close();
    }
  });

  it("shows the progress text during a refresh: n of m requests and the errors so far", async () => {
    const slow = await startSandbox({ latencyMs: 400 });
    try {
      const pane = await rig.openConnected({ service: slow });
      const { context, page } = pane;
      await enterCells(page, {
        "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)',
        "Sheet1!A2": '=FDQ.DATAPOINT("MSFT","adjusted","ACCOUNTS_PAYABLE",2022)',
        "Sheet1!A3": '=FDQ.DATAPOINT("NOSUCH","roic","ROIC",2022)',
      });
      // The pane's own load of the datapoint descriptions must not count in the refresh.
      for (const started = Date.now(); !pane.answered.includes(`${slow.baseUrl}/datapoint`);) {
        if (Date.now() - started > 10_000) throw new Error("the descriptions did not load");
        await sleep(20);
      }
      await tab(page, "Workbook");
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { __progress: string[] }).__progress = seen;
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="refresh-progress"]')?.textContent ?? "";
          if (text && seen[seen.length - 1] !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByTestId("refresh-button").click();
      await page.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
      const seen = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
      const counted = seen.filter((text) => text !== "Counting the requests…");
      // The day's stock coverage list, counted among the requests, does not list NOSUCH: its cell fails with no
      // request of its own. The count, made before the list is known, holds NOSUCH's request until the list is
      // answered, then drops it: the counter ends at what was sent.
      expect(counted[0]).toBe("0 of 4 requests, 0 errors so far");
      expect(counted[counted.length - 1]).toBe("3 of 3 requests, 0 errors so far");
      const figures = counted.map((text) => {
        const m = /^([0-3]) of ([34]) requests, 0 errors so far$/.exec(text);
        expect(m).not.toBeNull();
        return { done: Number(m![1]), total: Number(m![2]) };
      });
      // Never more done than expected, and once the list has spared NOSUCH's request the total stays 3.
      for (const f of figures) expect(f.done).toBeLessThanOrEqual(f.total);
      const spared = figures.findIndex((f) => f.total === 3);
      expect(figures.slice(spared).every((f) => f.total === 3)).toBe(true);
      expect(figures[spared]!.done).toBeLessThan(3);
      await expect(page.getByTestId("refresh-summary").textContent()).resolves.toMatch(
        /^Refreshed 3 FDQ cells \(on request\): 3 requests sent, 0 failed requests, 1 cell in error, in \d+\.\d s\.$/,
      );
      await context.close();
    } finally {
      await slow.close();
    }
  });

  it("proposes the quota saver when the projected month exceeds the plan; turned on, it is saved and Explain names it", async () => {
    const open = Number(todayLabel().slice(0, 4)) - 1;
    const pane = await openWithCells(rig, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)',
      "Sheet1!A4": `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${open})`,
    });
    const { context, page } = pane;
    await tab(page, "Workbook");
    await page.getByTestId("plan-units").fill("50");
    await page
      .getByTestId("status-units")
      .getByText(/ of 50 units used \(/)
      .waitFor();
    await expect(page.getByRole("switch", { name: "Quota saver" }).isChecked()).resolves.toBe(false);
    await expect(page.getByTestId("saver-rule").textContent()).resolves.toBe(
      "The quota saver keeps the values of closed periods (fiscal year Y is closed from 1 January of Y+2) of " +
        "datapoints not flagged (SP) for up to 7 days; (SP) datapoints, open periods and the other functions " +
        "are fetched every refresh day.",
    );
    await page.getByTestId("estimate-button").click();
    // 5 units a refresh (the day's coverage list and 4 values), 105 a month; the saver keeps the three 2022
    // values: 3 x 5 + 2 x 21 = 57.
    await expect(page.getByTestId("saver-proposal-text").textContent()).resolves.toBe(
      "At one refresh per trading day this workbook needs about 105 units a month, more than your 50-unit " +
        "plan. The quota saver keeps closed periods' values for up to 7 days and would bring it to about 57.",
    );
    await page.screenshot({ path: join(ARTIFACTS, "taskpane-saver-proposal.png"), fullPage: true });
    await page.getByRole("button", { name: "Turn on the quota saver" }).click();
    await page.getByTestId("saver-proposal").waitFor({ state: "detached" });
    await expect(page.getByTestId("estimate-saver").textContent()).resolves.toBe(
      "With the quota saver on (closed periods kept up to 7 days), about 57 units a month.",
    );
    await expect(page.getByRole("switch", { name: "Quota saver" }).isChecked()).resolves.toBe(true);
    const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
    expect(JSON.parse(stored["fdq.settings"] ?? "{}")).toEqual({
      baseUrl: rig.sandbox.baseUrl,
      apiKey: rig.sandbox.demoKey,
      refreshPolicy: { kind: "saver", keepDays: 7 },
    });

    // The shared client runs under the saver at once: Explain says so, from the cache (no request).
    const requests = pane.requests.length;
    await callDouble(page, "select", "Sheet1!A1");
    await tab(page, "Cell");
    await page
      .getByTestId("explain-policy")
      .getByText(
        `Fetched today (${todayLabel()}); the quota saver keeps this closed period's value up to 7 days.`,
        { exact: true },
      )
      .waitFor();
    await expect(page.getByTestId("explain-source").textContent()).resolves.toContain(
      `From the cache of refresh day ${todayLabel()}`,
    );
    await callDouble(page, "select", "Sheet1!A4");
    await page
      .getByTestId("explain-policy")
      .getByText(
        `Fetched today (${todayLabel()}); the quota saver fetches it again every refresh day (an open period).`,
        { exact: true },
      )
      .waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "taskpane-saver-explain.png"), fullPage: true });
    expect(pane.requests.slice(requests).filter((u) => u.startsWith(rig.sandbox.baseUrl))).toEqual([]);
    await context.close();
  });

  it("on a new refresh day under the quota saver, keeps a closed period fetched 3 days ago and says so in Explain", async () => {
    const clock = new RefreshDayClock(DEFAULTS.refreshDay);
    const earlier = Date.now() - 3 * 86_400_000;
    const earlierDay = clock.label(earlier);
    const open = Number(todayLabel().slice(0, 4)) - 1;
    const closedCell = '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)';
    const openCell = `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${open})`;
    // Three days ago this computer fetched both values (the cache saved in OfficeRuntime.storage).
    const stored = new MemoryStorage();
    const before = new FdqClient({
      baseUrl: rig.sandbox.baseUrl,
      apiKey: rig.sandbox.demoKey,
      storage: stored,
      now: () => earlier,
    });
    const closedValue = await before.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 });
    await before.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: open });
    await before.close();
    const settings = {
      baseUrl: rig.sandbox.baseUrl,
      apiKey: rig.sandbox.demoKey,
      refreshPolicy: { kind: "saver" },
    };
    const pane = await openPane(rig.browser, rig.site, {
      storage: { ...Object.fromEntries(stored.items), "fdq.settings": JSON.stringify(settings) },
      workbook: {
        cells: {
          "Sheet1!A1": { formula: closedCell, value: 1.5 },
          "Sheet1!A2": { formula: openCell, value: 2.5 },
        },
        documentSettings: { [CALCULATED_DAY_SETTING]: earlierDay },
      },
    });
    const { context, page } = pane;
    await waitForConsole(pane, "FDQ new-day check: refreshed");
    // The open year is fetched again; the closed one is served from the answer of 3 days ago.
    const data = pane.requests
      .filter((u) => u.startsWith(rig.sandbox.baseUrl) && !u.endsWith("/datapoint"))
      .map((u) => u.slice(rig.sandbox.baseUrl.length));
    expect(data).toEqual([`/metrics/roic/AAPL?datapoint=ROIC&year=${open}`]);
    expect(await callDouble(page, "cell", "Sheet1!A1")).toMatchObject({
      value: closedValue.value,
      error: null,
    });

    await callDouble(page, "select", "Sheet1!A1");
    await tab(page, "Cell");
    await page
      .getByTestId("explain-policy")
      .getByText(`Served by the quota saver from the answer fetched on ${earlierDay} (kept up to 7 days).`, {
        exact: true,
      })
      .waitFor();
    await expect(page.getByTestId("explain-source").textContent()).resolves.toBe(
      `From the cache of refresh day ${todayLabel()}: fetched from the service on ${earlierDay} and kept by ` +
        "the quota saver; recalculating today reuses it without a request.",
    );
    await context.close();
  });

  it("saves the billing choice with the connection settings, applies it at once and keeps it", async () => {
    const { context, page } = await openPane(rig.browser, rig.site);
    await page.getByTestId("base-url").fill(rig.sandbox.baseUrl);
    await page.getByTestId("api-key").fill(rig.sandbox.demoKey);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("save-result").getByText("Saved in this computer's add-in storage").waitFor();
    await enterCells(page, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
    });
    await tab(page, "Workbook");
    const perRequest = page.getByRole("radio", { name: "Per request (accounts billed per HTTP call)" });
    await expect(
      page.getByRole("radio", { name: "Per datapoint (the vendor's unit)" }).isChecked(),
    ).resolves.toBe(true);
    await page.getByTestId("estimate-button").click();
    // The two values and the day's coverage list.
    await expect(page.getByTestId("estimate-refresh").textContent()).resolves.toBe(
      "A refresh drops today's cache and sends up to 3 requests again: 3 units of the monthly quota.",
    );
    await perRequest.check();
    // Billed per request, both cells share the whole roic dataset's request: 1 unit, and 1 for the list.
    await page
      .getByTestId("estimate-refresh")
      .getByText(
        "A refresh drops today's cache and sends up to 2 requests again: 2 units of the monthly quota.",
        {
          exact: true,
        },
      )
      .waitFor();
    await page.getByText("One unit is one request to the service, whatever it returns.").waitFor();
    const settingsOf = async (): Promise<unknown> =>
      JSON.parse((await callDouble<Record<string, string>>(page, "storageSnapshot"))["fdq.settings"] ?? "{}");
    expect(await settingsOf()).toEqual({
      baseUrl: rig.sandbox.baseUrl,
      apiKey: rig.sandbox.demoKey,
      billing: "per-request",
    });

    // Reopened, the pane shows it; a connection save keeps it.
    await page.reload();
    await tab(page, "Workbook");
    await expect(
      page.getByRole("radio", { name: "Per request (accounts billed per HTTP call)" }).isChecked(),
    ).resolves.toBe(true);
    await tab(page, "Connect");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("save-result").waitFor();
    expect(await settingsOf()).toEqual({
      baseUrl: rig.sandbox.baseUrl,
      apiKey: rig.sandbox.demoKey,
      billing: "per-request",
    });
    await context.close();
  });

  it("shows HTML in an error reason and in an explanation as text", async () => {
    const injected = '<img src=x onerror="window.__pwned=1"><b>bold</b> no such ticker';
    const { context, page } = await rig.openConnected({
      prepare: async (ctx) => {
        // A covered ticker (in the day's coverage list), so that its cell shows the data answer's own message.
        await ctx.route(
          `${rig.sandbox.baseUrl}/metrics/roic/MSFT?datapoint=ROIC&year=2022`,
          async (route) => {
            const response = await route.fetch();
            await route.fulfill({ response, status: 404, json: { message: injected } });
          },
        );
        await ctx.route(`${rig.sandbox.baseUrl}/datapoint`, async (route) => {
          const response = await route.fetch();
          const envelope = (await response.json()) as { body: string };
          const body = JSON.parse(envelope.body) as { results: { name: string; description: string }[] };
          for (const r of body.results) if (r.name === "NOPAT") r.description = injected;
          await route.fulfill({ response, json: { ...envelope, body: JSON.stringify(body) } });
        });
      },
    });
    await enterCells(page, {
      "Sheet1!A1": '=FDQ.DATAPOINT("MSFT","roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","roic","NOPAT",2022)',
    });
    const cell = await callDouble<{ value: string; error: { message: string } }>(page, "cell", "Sheet1!A1");
    expect(cell.error.message).toContain(injected);
    await tab(page, "Workbook");
    await page.getByTestId("errors-button").click();
    const item = page.getByTestId("error-cell");
    await item.getByText(injected, { exact: false }).waitFor();
    await expect(item.textContent()).resolves.toBe(`Sheet1!A1${cell.value}${cell.error.message}`);
    expect(await item.locator("img, b").count()).toBe(0);

    await callDouble(page, "select", "Sheet1!A2");
    await tab(page, "Cell");
    await page.getByTestId("explain-description").getByText(injected, { exact: true }).waitFor();
    expect(await page.getByTestId("explanation").locator("img, b").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await context.close();
  });

  // The cases whose cells read other cells, which taskpane-desktop.test.ts runs as Excel on the desktop.
  referenceCases(rig, "web");
});
