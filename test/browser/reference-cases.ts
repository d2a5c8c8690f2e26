// The task pane's cases whose cells read other cells, run by taskpane.test.ts (Excel on the web) and by
// taskpane-desktop.test.ts (Excel on the desktop). The two platforms differ where a formula reads a cell: an
// empty referenced cell reaches the functions as 0 on the desktop and as null on the web (office-js#4702),
// while the pane plans and explains a call from the workbook's own cells, the same on both; the pane must
// agree with what the functions computed on either. The rest of the pane does not depend on the platform
// (the Office double differs only in that, in the 5 MB cap per sync of the web and in Office.context's
// platform and partitionKey), so it runs once, in taskpane.test.ts.
import { rating } from "../../src/functions/impl";
import { callDouble, enterCells, todayLabel, type BrowserRig, type EmptyCellMode } from "./harness";
import { artifact, openWithCells, tab } from "./pane-steps";

/** Registers the cases (inside the caller's describe) for the pane of `rig` on `platform`. */
export function referenceCases(rig: BrowserRig, platform: EmptyCellMode): void {
  it("plans, explains and prices a call reading an empty cell as the function read it: the argument omitted", async () => {
    const { context, page } = await rig.openConnected({ platform });
    // The platform in effect: Office says which, and an empty cell reaches a function as this platform passes it.
    expect(await page.evaluate(() => Office.context.platform)).toBe(
      platform === "desktop" ? "PC" : "OfficeOnline",
    );
    // The probe shows its arguments but the last, Excel's invocation object.
    await page.evaluate(() =>
      (
        window as unknown as {
          CustomFunctions: { associate(id: string, fn: (...a: unknown[]) => string): void };
        }
      ).CustomFunctions.associate("PROBE", (...args) => JSON.stringify(args.slice(0, -1))),
    );
    await enterCells(page, {
      "Sheet1!A1": "AAPL",
      "Sheet1!B1": 2022,
      "Sheet1!E1": "=FDQ.PROBE(D1)",
      "Sheet1!C1": '=FDQ.DATAPOINT(A1,"roic","ROIC",B1,D1)',
    });
    expect(await callDouble(page, "cell", "Sheet1!E1")).toMatchObject({
      value: platform === "desktop" ? "[0]" : "[null]",
    });
    await enterCells(page, { "Sheet1!E1": "" }); // the probe is not an FDQ function to plan
    // The quarter D1 is empty: the function asked for the fiscal year, and so do Explain and the estimate.
    const fy2022 = await rig.reference.datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2022,
    });
    expect(await callDouble(page, "cell", "Sheet1!C1")).toMatchObject({ value: fy2022.value, error: null });
    await callDouble(page, "select", "Sheet1!C1");
    await tab(page, "Cell");
    await expect(page.getByTestId("explain-period").textContent()).resolves.toBe("FY2022");
    await expect(page.getByTestId("explain-url").textContent()).resolves.toBe(
      `GET ${rig.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2022`,
    );
    await expect(page.getByTestId("explain-price").textContent()).resolves.toBe(
      "1 unit; cached today: 0 units to spend.",
    );
    await tab(page, "Workbook");
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("1 FDQ cell found");
    await expect(page.getByTestId("estimate-cached").textContent()).resolves.toBe(
      "1 of 1 cells already cached",
    );
    await context.close();
  });

  it("explains a cell whose FDQ call reads cell references and is wrapped in IFERROR", async () => {
    const { context, page } = await rig.openConnected({ platform });
    await callDouble(page, "addSheet", "Inputs 2");
    await enterCells(page, {
      "Sheet1!A2": "AAPL",
      "Sheet1!B1": 2022,
      "'Inputs 2'!A1": "roic",
      "Sheet1!B2": "=IFERROR(FDQ.DATAPOINT($A2,'Inputs 2'!A1,\"ROIC\",B$1),0)",
      "Sheet1!C2": '=FDQ.DATAPOINT("AAPL","roic","ROIC","2023","2")/1e6',
    });
    const roic2022 = await rig.reference.datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2022,
    });
    const roic2023q2 = await rig.reference.datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2023,
      quarter: 2,
    });
    // The double evaluates references and wrappers as Excel would.
    expect(await callDouble(page, "cell", "Sheet1!B2")).toMatchObject({ value: roic2022.value, error: null });
    expect(await callDouble(page, "cell", "Sheet1!C2")).toMatchObject({
      value: (roic2023q2.value as number) / 1e6,
      error: null,
    });

    await callDouble(page, "select", "Sheet1!B2");
    await tab(page, "Cell");
    await expect(page.getByTestId("explain-inputs").textContent()).resolves.toBe(
      `ticker = "AAPL" from Sheet1!A2dataset = "roic" from 'Inputs 2'!A1name = "ROIC"year = 2022 from Sheet1!B1`,
    );
    await expect(page.getByTestId("explain-dataset").textContent()).resolves.toBe(
      "metrics/roic (return on invested capital data)",
    );
    await expect(page.getByTestId("explain-period").textContent()).resolves.toBe("FY2022");
    await expect(page.getByTestId("explain-url").textContent()).resolves.toBe(
      `GET ${rig.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2022`,
    );
    await expect(page.getByTestId("explain-source").textContent()).resolves.toContain(
      `From the cache of refresh day ${todayLabel()}`,
    );
    await page.screenshot({ path: artifact("taskpane-explain-references.png"), fullPage: true });

    // Numbers typed as text read as the functions read them.
    await callDouble(page, "select", "Sheet1!C2");
    await page.getByTestId("explain-period").getByText("Q2 FY2023", { exact: true }).waitFor();
    await expect(page.getByTestId("explain-url").textContent()).resolves.toBe(
      `GET ${rig.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2023&quarter=2`,
    );
    await expect(page.getByTestId("explanation").textContent()).resolves.not.toContain(rig.sandbox.demoKey);
    await context.close();
  });

  it("estimates the cost of cells with references and wrappers, and lists the cells it cannot plan", async () => {
    const { context, page } = await openWithCells(rig, {
      "Sheet1!A1": "NFLX",
      "Sheet1!A2": '=FDQ.DATAPOINT(A1,"roic","ROIC",2019)',
      "Sheet1!A3": '=IFERROR(FDQ.DATAPOINT($A$1,"roic","NOPAT",2019),0)',
      "Sheet1!A4": '=FDQ.DATASET(A1:A2,"roic",2019)',
      "Sheet1!A5": '=FDQ.RATING("NFLX")',
    });
    await tab(page, "Workbook");
    await page.getByTestId("estimate-button").click();
    await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("4 FDQ cells found");
    await expect(page.getByTestId("estimate-requests").textContent()).resolves.toBe(
      "0 requests needed (0 units)",
    );
    // The RATING cell was calculated when the workbook opened: its answer is cached too.
    await expect(page.getByTestId("estimate-cached").textContent()).resolves.toBe(
      "3 of 4 cells already cached",
    );
    await expect(page.getByTestId("estimate-unplanned-cell").allTextContents()).resolves.toEqual([
      "Sheet1!A4: The cell shows #VALUE! without a request: ticker must be one cell, not a range of 2 cells " +
        "(2 rows by 1 column): FDQ.DATASET spills a table of its own, so Excel cannot repeat it for each cell.",
    ]);
    await context.close();
  });

  it("lists errors of every function with their reason, references resolved", async () => {
    const { context, page } = await openWithCells(rig, {
      "Sheet1!A1": "#N/A",
      "Sheet1!B1": '=FDQ.RATING("AAPL","costs")',
      "Sheet1!B2": '=FDQ.DATAPOINT(A1,"roic","ROIC",2022)',
      "Sheet1!B3": '=FDQ.INFO("NOSUCHDATAPOINT")',
    });
    await tab(page, "Workbook");
    await page.getByTestId("errors-button").click();
    await expect(page.getByTestId("errors-count").textContent()).resolves.toBe("3 FDQ cells are in error.");
    const costs = await rating(rig.reference, { ticker: "AAPL", field: "costs" }).catch(
      (e: Error) => e.message,
    );
    const info = await rig.reference.datapointInfo("NOSUCHDATAPOINT").catch((e: Error) => e.message);
    await expect(page.getByTestId("error-cell").allTextContents()).resolves.toEqual([
      `Sheet1!B1#N/A${costs}`,
      "Sheet1!B2#N/ACannot be planned: ticker refers to Sheet1!A1, which shows #N/A: Excel passes that error on without running FDQ.DATAPOINT.",
      `Sheet1!B3#N/A${info}`,
    ]);
    expect(await callDouble(page, "cell", "Sheet1!B1")).toMatchObject({
      value: "#N/A",
      error: { message: costs },
    });
    await context.close();
  });
}
