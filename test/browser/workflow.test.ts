// The daily refresh workflow in the built pane against the Office double and the sandbox: what changed after a
// refresh, refresh scopes and their price, progress with a Cancel, reversible freeze kept inside the workbook,
// and Share as values. Screenshots of the new views at the task pane's width, light and dark.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { startSandbox } from "../../src/sandbox";
import { parseResolvedPeriods, PERIODS_NAMESPACE } from "../../src/workbook/refresh/resolved-periods";
import { serviceNumber } from "../integration/functions/sandbox-oracle";
import { FROZEN_NAMESPACE, parseFrozen } from "../../src/workbook/freeze/frozen-formulas";
import { CANCELLED_MESSAGE } from "../../src/taskpane/logic/refresh-run";
import { HISTORY_KEY } from "../../src/taskpane/logic/change-history";
import { exposeDoublePackage } from "../support/office-double/double-package";
import { holdAnswers } from "../support/held-answers";
import { readBook } from "../support/xlsx-corpus/test-book";
import { ARTIFACTS, PANE_WIDTH, callDouble, enterCells, settled, todayLabel, useBrowserRig } from "./harness";
import { waitAnswered } from "./pane-steps";

jest.setTimeout(90_000);

const rig = useBrowserRig();
const DOCS_IMAGES = join(__dirname, "../../docs/images");

beforeAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
});

interface DoubleCell {
  formula: string | null;
  value: unknown;
  error: { code: string; message: string } | null;
  spill?: string;
}

/** Resolves once no animation runs (Fluent's dialogs fade in and out): a screenshot shows the settled view. */
const still = (page: Page): Promise<unknown> =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));

/** The Refresh card while a refresh runs, at the pane's width (copied to docs/images with FDQ_UPDATE_DOCS=1). */
async function screenshotProgress(page: Page, theme: "light" | "dark"): Promise<void> {
  const progress = join(ARTIFACTS, `workflow-progress-${theme}.png`);
  await page.locator('[aria-label="Refresh"]').screenshot({ path: progress });
  if (process.env.FDQ_UPDATE_DOCS === "1") {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    copyFileSync(progress, join(DOCS_IMAGES, `workflow-progress-${theme}.png`));
  }
}

const cell = (page: Page, address: string): Promise<DoubleCell | null> => callDouble(page, "cell", address);

const roic = async (ticker: string, year: number): Promise<number> =>
  (await rig.reference.datapoint({ ticker, dataset: "roic", name: "ROIC", year })).value as number;

const ROIC = (ticker: string, year: number): string =>
  `=FDQ.DATAPOINT("${ticker}","metrics/roic","ROIC",${year})`;

async function tab(page: Page, name: "Cell" | "Workbook"): Promise<void> {
  await page.getByRole("tab", { name }).click();
}

/** A workbook saved earlier today whose values differ from the service's now: one restated, one was #N/A, one
 * turns into an error, one unchanged. */
async function savedModel() {
  const [a2021, a2022, m2022] = await Promise.all([
    roic("AAPL", 2021),
    roic("AAPL", 2022),
    roic("MSFT", 2022),
  ]);
  return {
    cells: {
      "Model!B2": { formula: ROIC("AAPL", 2022), value: a2022 * 0.8 },
      "Model!B3": { formula: ROIC("AAPL", 2021), value: "#N/A" },
      "Model!B4": { formula: ROIC("NOSUCH", 2022), value: 0.25 },
      "Model!B5": { formula: ROIC("MSFT", 2022), value: m2022 },
    },
    values: { a2021, a2022, m2022 },
  };
}

describe("What changed after a refresh", () => {
  it("counts changes by kind, lists them by size, selects a cell on a click, and keeps the report", async () => {
    const model = await savedModel();
    const { context, page } = await rig.openConnected({ workbook: { cells: model.cells } });
    await callDouble(page, "select", "Model!A1");
    await tab(page, "Workbook");
    await page.getByTestId("refresh-button").click();
    await page.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
    await expect(page.getByTestId("changes-total").textContent()).resolves.toMatch(
      /^3 cells changed \(.+: the whole workbook\), biggest change first:$/,
    );
    await expect(page.getByTestId("changes-count").allTextContents()).resolves.toEqual([
      "1 restated",
      "1 new value",
      "1 now an error",
    ]);
    await expect(page.getByTestId("change-address").allTextContents()).resolves.toEqual([
      "Model!B2",
      "Model!B3",
      "Model!B4",
    ]);
    await expect(page.getByTestId("change-pct").first().textContent()).resolves.toBe("+25%");
    await page.getByTestId("change-item").nth(2).click();
    await page.waitForFunction(
      () =>
        (window as unknown as { __officeDouble: { selection(): string } }).__officeDouble.selection() ===
        "Model!B4",
    );
    const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
    const reports = JSON.parse(stored[HISTORY_KEY] ?? "[]") as {
      total: number;
      day: string;
      changes: unknown[];
    }[];
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ total: 3, day: todayLabel() });
    await page.screenshot({ path: join(ARTIFACTS, "workflow-changes.png"), fullPage: true });

    // A second refresh finds nothing new; the first report stays one choice away.
    await page.getByTestId("refresh-button").click();
    await page.getByTestId("changes-report").waitFor();
    await expect(page.getByTestId("changes-total").textContent()).resolves.toMatch(/^No value changed/);
    await page.getByTestId("changes-report").selectOption("1");
    await expect(page.getByTestId("change-item").count()).resolves.toBe(3);
    await context.close();
  });
});

describe("new period after a refresh", () => {
  it("reports FY0 rolled to the next fiscal year as a new period, from the resolution the workbook kept", async () => {
    let clock = new Date("2025-12-15T12:00:00Z");
    const service = await startSandbox({ now: () => clock, restate: "2026-01-05" });
    try {
      const FY0 = '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","FY0")';
      const fy2023 = ROIC("AAPL", 2023);
      const value = (year: number): Promise<number> =>
        serviceNumber(service, `metrics/roic/AAPL?datapoint=ROIC&year=${year}`);
      const day1 = { 2023: await value(2023), 2024: await value(2024) };
      const first = await rig.openConnected({ service });
      await enterCells(first.page, { "Model!B2": FY0, "Model!B3": fy2023 });
      await tab(first.page, "Workbook");
      await first.page.getByTestId("refresh-button").click();
      await first.page.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
      expect(await cell(first.page, "Model!B2")).toMatchObject({ value: day1[2024] });
      const periodsPart = async (page: Page) =>
        (await callDouble<{ namespaceUri: string; xml: string }[]>(page, "customXmlParts"))
          .filter((p) => p.namespaceUri === PERIODS_NAMESPACE)
          .map((p) => p.xml);
      const kept = await periodsPart(first.page);
      expect(kept.flatMap(parseResolvedPeriods)).toEqual([
        { sheet: "Model", cell: "B2", formula: FY0, periods: "FY2024", day: todayLabel() },
      ]);
      // The workbook as saved, opened after the service published fiscal 2025 and restated the closed years.
      const saved = {
        "Model!B2": { formula: FY0, value: day1[2024] },
        "Model!B3": { formula: fy2023, value: day1[2023] },
      };
      await first.context.close();
      clock = new Date("2026-01-05T12:00:00Z");
      const day2 = { 2023: await value(2023), 2025: await value(2025) };
      const { context, page } = await rig.openConnected({
        service,
        workbook: { cells: saved, customXmlParts: kept },
      });
      await tab(page, "Workbook");
      await page.getByTestId("refresh-button").click();
      await page.getByTestId("changes-counts").waitFor({ timeout: 30_000 });
      await expect(page.getByTestId("changes-count").allTextContents()).resolves.toEqual([
        "1 restated",
        "1 new period",
      ]);
      // Each row names the period its value is for: the new period the FY0 cell rolled to.
      const addresses = await page.getByTestId("change-address").allTextContents();
      const periods = await page.getByTestId("change-period").allTextContents();
      expect(addresses.map((a, i) => [a, periods[i]]).sort()).toEqual([
        ["Model!B2", "FY2025"],
        ["Model!B3", "FY2023"],
      ]);
      const stored = await callDouble<Record<string, string>>(page, "storageSnapshot");
      const [report] = JSON.parse(stored[HISTORY_KEY] ?? "[]") as { changes: Record<string, unknown>[] }[];
      const rel = (o: number, n: number): number => (n - o) / Math.abs(o);
      expect(
        [...(report?.changes ?? [])].sort((a, b) => String(a.cell).localeCompare(String(b.cell))),
      ).toEqual([
        {
          sheet: "Model",
          cell: "B2",
          formula: FY0,
          old: day1[2024],
          new: day2[2025],
          kind: "new period",
          relativeChange: rel(day1[2024], day2[2025]),
          period: "FY2025",
        },
        {
          sheet: "Model",
          cell: "B3",
          formula: fy2023,
          old: day1[2023],
          new: day2[2023],
          kind: "restated",
          relativeChange: rel(day1[2023], day2[2023]),
          period: "FY2023",
        },
      ]);
      // The workbook now keeps the new resolution, for the next refresh.
      expect((await periodsPart(page)).flatMap(parseResolvedPeriods)).toEqual([
        { sheet: "Model", cell: "B2", formula: FY0, periods: "FY2025", day: todayLabel() },
      ]);
      await context.close();
    } finally {
      await service.close();
    }
  });
});

describe("refresh scopes", () => {
  it("prices and refreshes only the active sheet, the selection, or the cells in error", async () => {
    const { context, page } = await rig.openConnected();
    await enterCells(page, {
      "Sheet1!A1": ROIC("AAPL", 2022),
      "Model!B2": ROIC("MSFT", 2022),
      "Model!B3": ROIC("NFLX", 2022),
      "Model!B4": ROIC("NOSUCH", 2022),
    });
    const sent: string[] = [];
    page.on(
      "request",
      (r) => r.url().startsWith(rig.sandbox.baseUrl) && sent.push(r.url().slice(rig.sandbox.baseUrl.length)),
    );
    await callDouble(page, "select", "Model!B2");
    await tab(page, "Workbook");

    await page.getByTestId("refresh-scope").selectOption("sheet");
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("3 FDQ cells found");
    // The day's stock coverage list, asked again, and the two covered values: today's list did not list NOSUCH,
    // so its own request is not counted, and the refresh below sends exactly these three.
    await expect(page.getByTestId("estimate-refresh").textContent()).resolves.toBe(
      "A refresh drops today's cache and sends up to 3 requests again: 3 units of the monthly quota.",
    );
    await page.getByTestId("refresh-button").click();
    const summary = page.getByTestId("refresh-summary");
    await summary.waitFor({ timeout: 30_000 });
    await expect(summary.textContent()).resolves.toMatch(
      /^Refreshed 3 FDQ cells of the active sheet \(on request\): 3 requests sent, 0 failed requests, 1 cell in error, in \d+\.\d s\.$/,
    );
    // The list again (it did not list NOSUCH: FDQ does not cover it), and no request of NOSUCH's own.
    expect(sent.sort()).toEqual([
      "/coverage/stock",
      "/metrics/roic/MSFT?datapoint=ROIC&year=2022",
      "/metrics/roic/NFLX?datapoint=ROIC&year=2022",
    ]);
    // No full calculation: Sheet1 was not run again.
    expect(await callDouble<string[]>(page, "calculations")).toEqual([]);

    sent.length = 0;
    await callDouble(page, "select", "Model!B3");
    await page.getByTestId("refresh-scope").selectOption("selection");
    await page.getByTestId("refresh-button").click();
    await page.getByText(/^Refreshed 1 FDQ cell of the selection/).waitFor();
    expect(sent).toEqual(["/metrics/roic/NFLX?datapoint=ROIC&year=2022"]);

    sent.length = 0;
    await page.getByTestId("refresh-scope").selectOption("errors");
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("1 FDQ cell found");
    await page.getByTestId("refresh-button").click();
    await page.getByText(/^Refreshed 1 FDQ cell in error/).waitFor();
    expect(sent).toEqual(["/coverage/stock"]);
    await context.close();
  });

  it("refreshes only the cells from an older refresh day: those today's cache does not answer", async () => {
    const { context, page } = await rig.openConnected({
      workbook: {
        cells: {
          "Model!B2": { formula: ROIC("AAPL", 2021), value: 0.1 },
          "Model!B3": { formula: ROIC("MSFT", 2021), value: 0.2 },
        },
      },
    });
    // Typed today: fetched today, so current.
    await enterCells(page, { "Model!B4": ROIC("NFLX", 2022) });
    const sent: string[] = [];
    page.on(
      "request",
      (r) => r.url().startsWith(rig.sandbox.baseUrl) && sent.push(r.url().slice(rig.sandbox.baseUrl.length)),
    );
    await tab(page, "Workbook");
    await page.getByTestId("refresh-scope").selectOption("stale");
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("2 FDQ cells found");
    await page.getByTestId("refresh-button").click();
    await page.getByText(/^Refreshed 2 FDQ cells from an older refresh day/).waitFor({ timeout: 30_000 });
    expect(sent.sort()).toEqual([
      "/metrics/roic/AAPL?datapoint=ROIC&year=2021",
      "/metrics/roic/MSFT?datapoint=ROIC&year=2021",
    ]);
    expect(await cell(page, "Model!B2")).toMatchObject({ value: await roic("AAPL", 2021) });
    // Every cell is current now: nothing is stale.
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("0 FDQ cells found");
    await context.close();
  });
});

describe("progress and Cancel", () => {
  it("counts cells done, pending and failed and the units spent as the answers arrive", async () => {
    // The service's answers wait at a proxy until the test lets them go: the view is read between waves.
    const held = await holdAnswers(rig.sandbox);
    try {
      const pane = await rig.openConnected({ service: held, theme: "dark" });
      const { context, page } = pane;
      // 6 requests at once: the first wave is A1:A6 (A1 not found: a year before AAPL's first filing; the day's
      // coverage list lists AAPL, so no coverage record is asked), the second A7:A8.
      const cells: Record<string, string> = { "Sheet1!A1": ROIC("AAPL", 1990) };
      for (let i = 2; i <= 8; i++) cells[`Sheet1!A${i}`] = ROIC("AAPL", 2011 + i);
      await callDouble(page, "seed", cells);
      await settled(page);
      // The pane's own load of the datapoint descriptions must not count in the refresh.
      await waitAnswered(pane, `${held.baseUrl}/datapoint`);
      await tab(page, "Workbook");
      const before = held.received();
      held.hold();
      await page.getByTestId("refresh-button").click();
      await page.getByTestId("refresh-cells").waitFor();
      // The day's stock coverage list first (the refresh dropped today's cache): the values wait for it.
      await held.waitHeld(1);
      held.releaseHeld();
      await held.waitHeld(6);
      await screenshotProgress(page, "dark");
      held.releaseHeld();
      const text = (id: string): Promise<string | null> => page.getByTestId(id).textContent();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="cells-done"]')?.textContent === "5",
        undefined,
        { timeout: 20_000 },
      );
      await expect(
        Promise.all([text("cells-done"), text("cells-pending"), text("cells-failed"), text("refresh-units")]),
      ).resolves.toEqual(["5", "2", "1", "6 units spent so far"]);
      await held.waitHeld(2);
      expect(held.received() - before).toBe(1 + 8);
      held.open();
      await page.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
      await expect(page.getByTestId("refresh-summary").textContent()).resolves.toMatch(
        /^Refreshed 8 FDQ cells \(on request\): 9 requests sent, 1 failed request, 1 cell in error, in \d+\.\d s\.$/,
      );
      expect(held.received() - before).toBe(1 + 8);
      await context.close();
    } finally {
      await held.close();
    }
  });

  it("shows cells done / pending / failed and units while running; Cancel sends no new request", async () => {
    // The answers are held at a proxy: the view is read and photographed while the first 6 requests are in flight.
    const held = await holdAnswers(rig.sandbox);
    try {
      const pane = await rig.openConnected({ service: held });
      const { context, page } = pane;
      const cells: Record<string, string> = {};
      for (let i = 0; i < 10; i++) cells[`Sheet1!A${i + 1}`] = ROIC("AAPL", 2013 + i);
      await enterCells(page, cells);
      await waitAnswered(pane, `${held.baseUrl}/datapoint`);
      await tab(page, "Workbook");
      const before = held.received();
      held.hold();
      await page.getByTestId("refresh-button").click();
      await page.getByTestId("refresh-cells").waitFor();
      // The day's stock coverage list first (1 unit): the values wait for it.
      await held.waitHeld(1);
      held.releaseHeld();
      await held.waitHeld(6);
      await expect(page.getByTestId("cells-pending").textContent()).resolves.toBe("10");
      await expect(page.getByTestId("refresh-units").textContent()).resolves.toBe("1 unit spent so far");
      await screenshotProgress(page, "light");
      await page.getByTestId("refresh-cancel").click();
      // Cancel stops what is not sent yet; the requests in flight are answered.
      held.open();
      const summary = page.getByTestId("refresh-summary");
      await summary.waitFor({ timeout: 30_000 });
      await settled(page);
      const sent = held.received() - before;
      // The list, then 6 requests at once (the shared client's limit): those were sent, the 4 queued ones
      // never were.
      expect(sent).toBe(1 + 6);
      await expect(summary.textContent()).resolves.toMatch(
        /^Refresh cancelled for 10 FDQ cells \(on request\): 7 requests sent, 0 failed requests, 4 cells in error, in \d+\.\d s\.$/,
      );
      await expect(page.getByTestId("refresh-summary-units").textContent()).resolves.toBe(
        "7 units spent. Cancel stopped 4 requests before they were sent: their cells show #N/A until refreshed again.",
      );
      const after = await Promise.all(Object.keys(cells).map((a) => cell(page, a)));
      const answered = after.filter((c) => typeof c?.value === "number");
      const stopped = after.filter((c) => c?.value === "#N/A");
      expect(answered).toHaveLength(6);
      expect(stopped.map((c) => c?.error?.message)).toEqual(Array(4).fill(CANCELLED_MESSAGE));
      // Refreshing the cells in error fetches exactly the 4 stopped ones.
      await page.getByTestId("refresh-scope").selectOption("errors");
      await page.getByTestId("refresh-button").click();
      await page.getByText(/^Refreshed 4 FDQ cells in error/).waitFor({ timeout: 30_000 });
      expect(held.received() - before).toBe(1 + 10);
      await context.close();
    } finally {
      await held.close();
    }
  });
});

describe("reversible freeze", () => {
  it("keeps each frozen formula in the workbook and restores it exactly, here and on another machine", async () => {
    const { context, page } = await rig.openConnected();
    const formulas = {
      "Sheet1!A1": ROIC("AAPL", 2022),
      "Sheet1!B2": '=FDQ.SERIES("AAPL","roic","ROIC",2021,2022)',
    };
    await enterCells(page, formulas);
    await enterCells(page, { "Sheet1!A3": "=A1*2" });
    const [a2021, a2022] = [await roic("AAPL", 2021), await roic("AAPL", 2022)];
    await tab(page, "Cell");
    await page.getByTestId("freeze-scope").selectOption("sheet");
    await page.getByTestId("freeze-button").click();
    await page.getByRole("dialog", { name: "Freeze 2 FDQ formulas?" }).waitFor();
    await page.getByTestId("freeze-confirm").click();
    await expect(page.getByTestId("frozen-count").textContent()).resolves.toBe(
      "2 FDQ formulas kept in this workbook.",
    );
    await settled(page);
    expect(await cell(page, "Sheet1!A1")).toMatchObject({ formula: null, value: a2022 });
    expect(await cell(page, "Sheet1!C2")).toMatchObject({ formula: null, value: a2022 });
    // The dependent keeps its formula and its value.
    expect(await cell(page, "Sheet1!A3")).toMatchObject({ formula: "=A1*2", value: a2022 * 2 });
    const parts = await callDouble<{ namespaceUri: string; xml: string }[]>(page, "customXmlParts");
    expect(parts.map((p) => p.namespaceUri)).toEqual([FROZEN_NAMESPACE]);
    const records = parseFrozen(parts[0]!.xml);
    expect(records.map((r) => [r.cell, r.formula, r.spill, r.refreshDay])).toEqual([
      ["A1", formulas["Sheet1!A1"], undefined, todayLabel()],
      ["B2", formulas["Sheet1!B2"], "B2:C2", todayLabel()],
    ]);
    await page.screenshot({ path: join(ARTIFACTS, "workflow-freeze.png"), fullPage: true });

    // Another machine: a fresh add-in storage, the workbook file as saved (values and the kept part).
    const saved: Record<string, { formula: string; value: string | number | boolean }> = {};
    for (const a of ["Sheet1!A1", "Sheet1!B2", "Sheet1!C2"]) {
      saved[a] = { formula: "", value: (await cell(page, a))!.value as number };
    }
    saved["Sheet1!A3"] = { formula: "=A1*2", value: a2022 * 2 };
    const other = await rig.openConnected({
      workbook: { cells: saved, customXmlParts: parts.map((p) => p.xml) },
    });
    await tab(other.page, "Cell");
    await expect(other.page.getByTestId("frozen-count").textContent()).resolves.toBe(
      "2 FDQ formulas kept in this workbook.",
    );
    await other.page.getByTestId("restore-all-button").click();
    await expect(other.page.getByTestId("freeze-message").textContent()).resolves.toBe(
      "Restored 2 formulas.",
    );
    await settled(other.page);
    expect(await cell(other.page, "Sheet1!A1")).toMatchObject({
      formula: formulas["Sheet1!A1"],
      value: a2022,
    });
    expect(await cell(other.page, "Sheet1!B2")).toMatchObject({
      formula: formulas["Sheet1!B2"],
      value: a2021,
      spill: "Sheet1!B2:C2",
    });
    expect(await callDouble(other.page, "customXmlParts")).toEqual([]);
    await other.context.close();

    // Here: a cell typed over since the freeze is left alone and keeps its record.
    await enterCells(page, { "Sheet1!A1": 42 });
    await page.getByTestId("restore-button").click();
    await expect(page.getByTestId("freeze-message").textContent()).resolves.toBe(
      "Restored 1 formula. 1 cell was left as it is:",
    );
    await expect(page.getByTestId("restore-skipped").textContent()).resolves.toBe(
      "Sheet1!A1: Its value was changed since it was frozen.",
    );
    expect(await cell(page, "Sheet1!A1")).toMatchObject({ formula: null, value: 42 });
    await expect(page.getByTestId("frozen-count").textContent()).resolves.toBe(
      "1 FDQ formula kept in this workbook.",
    );
    await context.close();
  });
});

describe("Share as values", () => {
  it("hands over a copy to download: FDQ cells as the values shown, dependents' formulas, the FDQ sources sheet, no key", async () => {
    const { context, page } = await rig.openConnected({
      workbook: { url: "https://contoso.sharepoint.com/sites/fin/Shared%20Documents/Forecast%202026.xlsx" },
    });
    // The document's file: the grid as a real .xlsx package (test/support/office-double/double-package.ts).
    await exposeDoublePackage(page);
    const quarter = '=FDQ.DATAPOINT("MSFT","roic","ROIC",2022,2)';
    await enterCells(page, { "Model!B2": ROIC("AAPL", 2022), "Model!B3": quarter });
    await enterCells(page, { "Model!C2": "=B2*2", "Model!A1": "Forecast" });
    const shown = {
      B2: (await cell(page, "Model!B2"))!.value as number,
      B3: (await cell(page, "Model!B3"))!.value as number,
    };
    expect(shown.B2).toBe(await roic("AAPL", 2022));
    await tab(page, "Workbook");
    await page.getByTestId("share-button").click();
    await page.getByRole("dialog", { name: "Share 2 FDQ cells as values?" }).waitFor();
    await expect(page.getByTestId("share-preview-row").allTextContents()).resolves.toEqual([
      `ModelB2FY2022${todayLabel()}`,
      `ModelB3Q2 FY2022${todayLabel()}`,
    ]);
    await page.screenshot({ path: join(ARTIFACTS, "workflow-share.png"), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("share-confirm").click(),
    ]);
    expect(download.suggestedFilename()).toBe("Forecast 2026 (values).xlsx");
    await expect(page.getByTestId("share-message").textContent()).resolves.toBe(
      'Downloaded "Forecast 2026 (values).xlsx": 2 FDQ cells as values and the sheet "FDQ sources". ' +
        "This workbook is unchanged.",
    );
    const file = await download.path();
    const book = readBook(file);
    const model = book.getWorksheet("Model")!;
    // FDQ cells: values equal to what the grid showed, no formula left.
    expect(model.getCell("B2")).toEqual({ value: shown.B2, formula: undefined, result: undefined });
    expect(model.getCell("B3")).toEqual({ value: shown.B3, formula: undefined, result: undefined });
    // The dependent keeps its formula and value; other cells are as they were.
    expect(model.getCell("C2")).toMatchObject({ formula: "B2*2", result: shown.B2 * 2 });
    expect(model.getCell("A1").value).toBe("Forecast");
    const sources = book.getWorksheet("FDQ sources")!;
    const row = (r: number): unknown[] => [..."ABCDEFG"].map((c) => sources.getCell(`${c}${r}`).value);
    expect([row(1), row(2), row(3), row(4)]).toEqual([
      ["Sheet", "Cell", "Formula", "Value", "Period", "Refresh day", "Source"],
      [
        "Model",
        "B2",
        ROIC("AAPL", 2022),
        shown.B2,
        "FY2022",
        todayLabel(),
        "GET /metrics/roic/AAPL?datapoint=ROIC&year=2022",
      ],
      [
        "Model",
        "B3",
        quarter,
        shown.B3,
        "Q2 FY2022",
        todayLabel(),
        "GET /metrics/roic/MSFT?datapoint=ROIC&year=2022&quarter=2",
      ],
      [null, null, null, null, null, null, null],
    ]);
    // The API key is nowhere in the copy: not in a part, not in the zip's bytes.
    const bytes = new Uint8Array(readFileSync(file));
    const key = rig.sandbox.demoKey;
    expect(Buffer.from(bytes).includes(key)).toBe(false);
    for (const [name, content] of Object.entries(unzipSync(bytes)))
      expect({ name, hasKey: Buffer.from(content).includes(key) }).toEqual({ name, hasKey: false });
    // Office's file was closed, and this workbook still has its formulas.
    expect(await callDouble(page, "openFiles")).toBe(0);
    expect(await cell(page, "Model!B2")).toMatchObject({ formula: ROIC("AAPL", 2022), value: shown.B2 });
    await context.close();
  });
});

describe("the workflow's views", () => {
  it("fit the task pane's width in the light and dark themes (screenshots)", async () => {
    const model = await savedModel();
    // One pane, switched between Office's themes as Excel switches it when the user changes the theme: each
    // view is checked and photographed in both.
    const { context, page } = await rig.openConnected({ workbook: { cells: model.cells } });
    const photos: string[] = [];
    // The width is checked with no dialog open (an open dialog locks the page's scrolling).
    const inBothThemes = async (
      photograph: (file: string) => Promise<unknown>,
      name: string,
      checkWidth = true,
    ) => {
      for (const theme of ["light", "dark"] as const) {
        await callDouble(page, "setTheme", theme);
        await page.waitForFunction(
          (background) => getComputedStyle(document.querySelector("main")!).backgroundColor === background,
          theme === "dark" ? "rgb(31, 31, 31)" : "rgb(250, 250, 250)",
        );
        await still(page);
        if (checkWidth)
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PANE_WIDTH);
        const file = join(ARTIFACTS, `workflow-${name}-${theme}.png`);
        await photograph(file);
        photos.push(file);
      }
    };
    await tab(page, "Workbook");
    await page.getByTestId("refresh-button").click();
    await page.getByTestId("changes-counts").waitFor({ timeout: 30_000 });
    await inBothThemes((path) => page.locator('[aria-label="What changed"]').screenshot({ path }), "changes");
    await page.getByTestId("share-button").click();
    await page.getByTestId("share-dialog").waitFor();
    await inBothThemes((path) => page.screenshot({ path }), "share", false);
    await page.keyboard.press("Escape");
    await callDouble(page, "select", "Model!A1");
    await tab(page, "Cell");
    await page.getByTestId("freeze-scope").selectOption("sheet");
    await page.getByTestId("freeze-button").click();
    await page.getByTestId("freeze-confirm").click();
    await page.getByTestId("freeze-message").waitFor();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await inBothThemes((path) => page.locator('[aria-label="Freeze values"]').screenshot({ path }), "freeze");
    if (process.env.FDQ_UPDATE_DOCS === "1") {
      mkdirSync(DOCS_IMAGES, { recursive: true });
      for (const file of photos) copyFileSync(file, join(DOCS_IMAGES, file.slice(ARTIFACTS.length + 1)));
    }
    await context.close();
  });
});
