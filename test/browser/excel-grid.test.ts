// The built page against an Office test double as strict as Excel: array lifting, spills and #SPILL!, plain
// versus full recalculation, two workbooks on one storage, workbook reads under Excel on the web's 5 MB cap,
// and freezing a spill. What Excel's platforms do differently (desktop: an empty referenced cell arrives as 0;
// web: as null, office-js#4702; the web's 5 MB cap per sync) is tested in both modes, the rest once.
import type { Page } from "playwright-core";
import { rating } from "../../src/functions/impl";
import {
  EMPTY_CELL_MODES,
  calculatedToday,
  callDouble,
  enterCells,
  openWorkbook,
  settled,
  useBrowserRig,
  waitForConsole,
  type EmptyCellMode,
  type OpenPane,
  eventually,
} from "./harness";

jest.setTimeout(90_000);

const rig = useBrowserRig();

interface CellState {
  formula: string | null;
  value: unknown;
  error: { code: string; message: string } | null;
  spill?: string;
}
const cell = (page: Page, address: string): Promise<CellState | null> => callDouble(page, "cell", address);

async function roic(ticker: string, year: number): Promise<number> {
  const answer = await rig.reference.datapoint({ ticker, dataset: "roic", name: "ROIC", year });
  return answer.value as number;
}

/** Excel.Application.calculate(type) run from the page, as an add-in would. */
function calculate(page: Page, type: "Recalculate" | "Full"): Promise<void> {
  return page.evaluate(
    (t) =>
      (
        window as unknown as {
          Excel: { run(batch: (c: Excel.RequestContext) => Promise<void>): Promise<void> };
        }
      ).Excel.run(async (context) => {
        context.workbook.application.calculate(t as Excel.CalculationType);
        await context.sync();
      }),
    type,
  );
}

/** Fills each of `sheets` with 1,600 rows of ten long notes: about 6 MB a sheet as formulas plus values. */
function seedNotes(page: Page, sheets: string[]): Promise<void> {
  return page.evaluate((names) => {
    const d = (window as unknown as { __officeDouble: { seed(c: Record<string, unknown>): void } })
      .__officeDouble;
    const note = "x".repeat(190);
    for (const sheet of names) {
      const cells: Record<string, unknown> = {};
      for (let row = 1; row <= 1600; row++) {
        for (const column of ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]) {
          cells[`${sheet}!${column}${row}`] = `${note} ${row}`;
        }
      }
      d.seed(cells);
    }
  }, sheets);
}

/** Loads the used range of `sheet` in one batch, as an add-in could: "read", or the error code of the sync. */
function readWholeSheet(page: Page, sheet: string): Promise<string> {
  return page.evaluate(
    (name) =>
      (
        window as unknown as { Excel: { run(b: (c: Excel.RequestContext) => Promise<void>): Promise<void> } }
      ).Excel.run(async (context) => {
        context.workbook.worksheets.getItem(name).getUsedRange().load("formulas,values");
        await context.sync();
      }).then(
        () => "read",
        (err: { code?: string }) => err.code ?? "failed",
      ),
    sheet,
  );
}

/** A connected pane on `mode`, checked to be on it. */
async function openOn(mode: EmptyCellMode): Promise<OpenPane> {
  const pane = await rig.openConnected({ platform: mode });
  expect(await callDouble(pane.page, "platform")).toBe(mode);
  return pane;
}

// How each platform passes an empty referenced cell to a function.
describe.each(EMPTY_CELL_MODES)("Excel (%s) as the test double models it", (mode: EmptyCellMode) => {
  const openConnected = (): Promise<OpenPane> => openOn(mode);

  it("passes an empty referenced cell as this platform does, and the functions read it as omitted", async () => {
    const { context, page } = await openConnected();
    // What a function typed `any` receives for the empty C1, seen through a probe registered as FDQ.PROBE (its
    // last argument, Excel's invocation object, left out).
    await page.evaluate(() =>
      (
        window as unknown as {
          CustomFunctions: { associate(id: string, fn: (...a: unknown[]) => string): void };
        }
      ).CustomFunctions.associate("PROBE", (...args) => JSON.stringify(args.slice(0, -1))),
    );
    await enterCells(page, { "Sheet1!B1": "=FDQ.PROBE(C1)" });
    expect(await cell(page, "Sheet1!B1")).toMatchObject({ value: mode === "desktop" ? "[0]" : "[null]" });
    await enterCells(page, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022,C1)',
      "Sheet1!A2": '=FDQ.RATING("AAPL",C1)',
      "Sheet1!A3": '=FDQ.INFO("ROIC",C1)',
    });
    expect(await cell(page, "Sheet1!A1")).toMatchObject({ value: await roic("AAPL", 2022), error: null });
    expect(await cell(page, "Sheet1!A2")).toMatchObject({
      value: await rating(rig.reference, { ticker: "AAPL" }),
      error: null,
    });
    expect(await cell(page, "Sheet1!A3")).toMatchObject({ error: null });
    await context.close();
  });
});

// The rest is the same on both platforms in the double (no empty cell reaches a function) but for the 5 MB cap
// per sync, which only the web enforces: once, on the web, where the cap holds the pane to the stricter rule.
describe("Excel (web) as the test double models it, the same on the desktop but for the web's cap", () => {
  const mode: EmptyCellMode = "web";
  const openConnected = (): Promise<OpenPane> => openOn(mode);

  it("estimates, finds errors in and refreshes a workbook bigger than 5 MB in reads each under Excel on the web's cap", async () => {
    const { context, page } = await openConnected();
    // Two sheets of long notes (about 6 MB each as formulas plus values) with FDQ formulas among them.
    await seedNotes(page, ["Notes", "'More notes'"]);
    await enterCells(page, {
      "Notes!K1": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)',
      "Notes!K1600": '=FDQ.DATAPOINT("MSFT","roic","ROIC",2022)',
      "'More notes'!A1601": '=FDQ.RATING("AAPL")',
      "'More notes'!B1601": '=FDQ.DATAPOINT("NOSUCHTICKER","roic","ROIC",2022)',
    });

    // The double is as strict as Excel on the web: one batch loading a whole sheet fails there.
    const oneBatch = await readWholeSheet(page, "Notes");
    expect(oneBatch).toBe("ResponsePayloadSizeLimitExceeded");
    const before = (await callDouble<unknown[]>(page, "syncs")).length;

    await page.getByRole("tab", { name: "Workbook" }).click();
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("4 FDQ cells found");
    await page.getByTestId("errors-button").click();
    await expect(page.getByTestId("errors-count").textContent()).resolves.toBe("1 FDQ cell is in error.");
    await page.getByTestId("refresh-button").click();
    await expect(page.getByTestId("refresh-summary").textContent({ timeout: 30_000 })).resolves.toMatch(
      /^Refreshed 4 FDQ cells/,
    );
    const syncs = (
      await callDouble<{ request: number; response: number; failed: string | null }[]>(page, "syncs")
    ).slice(before);
    expect(syncs.filter((s) => s.failed)).toEqual([]);
    expect(Math.max(...syncs.map((s) => s.response))).toBeLessThan(5_000_000);
    // More than 5 MB went through in all: the reads were split, not small.
    expect(syncs.reduce((n, s) => n + s.response, 0)).toBeGreaterThan(10_000_000);
    await context.close();
  });

  it("lifts a range given to DATAPOINT: one value per cell, spilled, read by a dependent formula", async () => {
    const { context, page } = await openConnected();
    await enterCells(page, {
      "Sheet1!A1": "AAPL",
      "Sheet1!A2": "MSFT",
      "Sheet1!B1": '=FDQ.DATAPOINT(A1:A2,"roic","ROIC",2022)',
      "Sheet1!C2": "=B2*100",
    });
    const [aapl, msft] = [await roic("AAPL", 2022), await roic("MSFT", 2022)];
    expect(await cell(page, "Sheet1!B1")).toMatchObject({ value: aapl, spill: "Sheet1!B1:B2" });
    expect(await cell(page, "Sheet1!B2")).toMatchObject({ formula: null, value: msft });
    expect(await cell(page, "Sheet1!C2")).toMatchObject({ value: msft * 100, error: null });

    // A changed input recalculates the lifted formula and its dependent (automatic calculation).
    await enterCells(page, { "Sheet1!A2": "AAPL" });
    expect(await cell(page, "Sheet1!C2")).toMatchObject({ value: aapl * 100 });
    await context.close();
  });

  it("answers #VALUE! naming the argument when DATASET, SERIES or COVERAGE get a range", async () => {
    const { context, page } = await openConnected();
    await enterCells(page, {
      "Sheet1!A1": "AAPL",
      "Sheet1!A2": "MSFT",
      "Sheet1!B1": '=FDQ.DATASET(A1:A2,"roic",2022)',
      "Sheet1!B4": '=FDQ.SERIES("AAPL","roic","ROIC",2020,A1:A2)',
      "Sheet1!B6": "=FDQ.COVERAGE(A1:A2)",
    });
    const refused = (argument: string, fn: string) => ({
      value: "#VALUE!",
      error: {
        code: "invalidValue",
        message: `${argument} must be one cell, not a range of 2 cells (2 rows by 1 column): FDQ.${fn} spills a table of its own, so Excel cannot repeat it for each cell.`,
      },
    });
    expect(await cell(page, "Sheet1!B1")).toMatchObject(refused("ticker", "DATASET"));
    expect(await cell(page, "Sheet1!B4")).toMatchObject(refused("to_year", "SERIES"));
    expect(await cell(page, "Sheet1!B6")).toMatchObject(refused("type", "COVERAGE"));
    await context.close();
  });

  it("spills a matrix, shows #SPILL! while a cell of its range is occupied, and spills again once it is cleared", async () => {
    const { context, page } = await openConnected();
    await enterCells(page, { "Sheet1!A1": '=FDQ.SERIES("AAPL","roic","ROIC",2020,2022)' });
    const values = [await roic("AAPL", 2020), await roic("AAPL", 2021), await roic("AAPL", 2022)];
    expect(await cell(page, "Sheet1!A1")).toMatchObject({ value: values[0], spill: "Sheet1!A1:C1" });
    expect(await cell(page, "Sheet1!C1")).toMatchObject({ formula: null, value: values[2] });

    await enterCells(page, { "Sheet1!B1": "in the way" });
    expect(await cell(page, "Sheet1!A1")).toMatchObject({ value: "#SPILL!", error: { code: "#SPILL!" } });
    expect(await cell(page, "Sheet1!C1")).toBeNull();

    await enterCells(page, { "Sheet1!B1": "" });
    expect(await cell(page, "Sheet1!A1")).toMatchObject({ value: values[0], spill: "Sheet1!A1:C1" });
    expect(await cell(page, "Sheet1!B1")).toMatchObject({ value: values[1] });
    await context.close();
  });

  it("previews a formula being edited for nothing: #N/A with its price until entered, then the entered value; no cell changes", async () => {
    const { context, page } = await openConnected();
    await settled(page);
    const formula = '=FDQ.DATAPOINT("NFLX","roic","NOPAT",2019)*2';
    const nopat = await rig.reference.datapoint({
      ticker: "NFLX",
      dataset: "roic",
      name: "NOPAT",
      year: 2019,
    });
    const counts = () => ({ requests: rig.sandbox.stats().requests, units: rig.sandbox.usage() });
    const before = counts();
    expect(await callDouble(page, "preview", formula)).toEqual({
      value: "#N/A",
      error: {
        code: "notAvailable",
        // The value and the day's stock coverage list it is checked against first, which decides the value's
        // request: at most.
        message:
          "Not fetched for the preview: FDQ fetches this value when the formula is entered, which costs at most 2 units (less if the day's ticker coverage list, asked first, does not list the ticker).",
      },
    });
    expect(await cell(page, "Sheet1!A1")).toBeNull();
    expect(counts()).toEqual(before);

    await enterCells(page, { "Sheet1!A1": formula });
    const entered = await cell(page, "Sheet1!A1");
    expect(entered).toMatchObject({ value: (nopat.value as number) * 2, error: null });
    const after = counts();
    expect(after).toEqual({ requests: before.requests + 2, units: before.units + 2 });
    expect(await callDouble(page, "preview", formula)).toEqual({ value: entered!.value, error: null });
    expect(counts()).toEqual(after);
    expect(await callDouble(page, "runs", "Sheet1!A1")).toBe(1);
    await context.close();
  });

  it("re-runs no custom function on a plain recalculation and every one on a full calculation", async () => {
    const { context, page } = await openConnected();
    await enterCells(page, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.SERIES("MSFT","roic","ROIC",2021,2022)',
    });
    const runs = async () => [
      await callDouble(page, "runs", "Sheet1!A1"),
      await callDouble(page, "runs", "Sheet1!A2"),
    ];
    expect(await runs()).toEqual([1, 1]);
    await calculate(page, "Recalculate");
    await settled(page);
    expect(await runs()).toEqual([1, 1]);
    await calculate(page, "Full");
    await settled(page);
    expect(await runs()).toEqual([2, 2]);
    expect(await callDouble(page, "calculations")).toEqual(["Recalculate", "Full"]);
    await context.close();
  });

  it("opens a second workbook, its own runtime and grid, on the same storage: what one stores the other reads", async () => {
    const first = await openConnected();
    await first.page.evaluate(() =>
      (
        window as unknown as { OfficeRuntime: { storage: { setItem(k: string, v: string): Promise<void> } } }
      ).OfficeRuntime.storage.setItem("shared.probe", "from the first workbook"),
    );
    const second = await openWorkbook(first, rig.site, {
      platform: mode,
      workbook: { documentSettings: calculatedToday() },
    });
    await waitForConsole(second, "FDQ new-day check: current");
    const storageOf = (pane: OpenPane) =>
      pane.page.evaluate(() =>
        (
          window as unknown as { OfficeRuntime: { storage: { getItem(k: string): Promise<string | null> } } }
        ).OfficeRuntime.storage.getItem("shared.probe"),
      );
    // Chromium hands a localStorage write to the other pages of the origin asynchronously (another renderer
    // may read the old value for a moment), as Excel's webviews do: poll until it arrives.
    expect(await eventually(() => storageOf(second), "from the first workbook")).toBe(
      "from the first workbook",
    );
    await second.page.evaluate(() =>
      (
        window as unknown as { OfficeRuntime: { storage: { setItem(k: string, v: string): Promise<void> } } }
      ).OfficeRuntime.storage.setItem("shared.probe", "from the second workbook"),
    );
    expect(await eventually(() => storageOf(first), "from the second workbook")).toBe(
      "from the second workbook",
    );
    // Two workbooks, two grids: the second has its own cells and computes them with the shared settings.
    await enterCells(second.page, { "Sheet1!A1": '=FDQ.DATAPOINT("NFLX","roic","ROIC",2021)' });
    expect(await cell(second.page, "Sheet1!A1")).toMatchObject({
      value: await roic("NFLX", 2021),
      error: null,
    });
    expect(await cell(first.page, "Sheet1!A1")).toBeNull();
    await first.context.close();
  });

  it("freezes a spilled result selected by its whole column: the spill range keeps its values as constants", async () => {
    const { context, page } = await openConnected();
    await enterCells(page, { "Sheet1!B2": '=FDQ.SERIES("AAPL","roic","ROIC",2021,2022)' });
    const values = [await roic("AAPL", 2021), await roic("AAPL", 2022)];
    // The whole column B: a million rows that the pane clips to the used range before reading.
    await callDouble(page, "select", "Sheet1!B1:B1048576");
    await page.getByRole("tab", { name: "Cell" }).click();
    await page.getByTestId("freeze-button").click();
    await page.getByTestId("freeze-confirm").click();
    await page.getByTestId("freeze-message").waitFor();
    await settled(page);
    expect(await cell(page, "Sheet1!B2")).toEqual({ formula: null, value: values[0], error: null });
    expect(await cell(page, "Sheet1!C2")).toEqual({ formula: null, value: values[1], error: null });
    expect((await callDouble<{ failed: string | null }[]>(page, "syncs")).filter((s) => s.failed)).toEqual(
      [],
    );
    await context.close();
  });
});

describe("Excel (desktop) as the test double models it", () => {
  it("reads a whole sheet of more than 5 MB in one batch: the cap per sync is Excel on the web's only", async () => {
    const { context, page } = await openOn("desktop");
    await seedNotes(page, ["Notes"]);
    expect(await readWholeSheet(page, "Notes")).toBe("read");
    const last = (await callDouble<{ response: number; failed: string | null }[]>(page, "syncs")).at(-1);
    expect(last).toMatchObject({ failed: null });
    expect(last!.response).toBeGreaterThan(5_000_000);
    await context.close();
  });
});
