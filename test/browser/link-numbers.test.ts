// Link numbers in the task pane (headless Chromium, the Office double, the sandbox): a company sheet typed by hand
// ("Ticker: AAPL", fiscal years across, revenue and net income in millions, ROIC as a percent, a wrong number, a
// line that is no FDQ datapoint and a computed cell) is priced with nothing sent, matched through the shared
// client, its proposals accepted or rejected, linked (the FDQ formulas written in place of the constants through
// Office.js) and undone (the constants back with their number formats). A protected sheet is refused. Screenshot
// in test/artifacts (and docs/images with FDQ_UPDATE_DOCS=1).
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { callDouble, openPane, PANE_WIDTH, settled, useBrowserRig } from "./harness";
import { artifact, tab } from "./pane-steps";

jest.setTimeout(120_000);

const rig = useBrowserRig();

interface CellState {
  formula: string | null;
  value: unknown;
}
const cell = (page: Page, address: string): Promise<CellState | null> => callDouble(page, "cell", address);

const YEARS = [2021, 2022, 2023] as const;
const COLUMNS = ["B", "C", "D"] as const;

/** The sandbox's value of a datapoint for AAPL in a fiscal year. */
async function sandboxValue(dataset: string, name: string, year: number): Promise<number> {
  const answer = await rig.reference.datapoint({ ticker: "AAPL", dataset, name, year });
  if (typeof answer.value !== "number") throw new Error(`no number for ${name} ${year}`);
  return answer.value;
}

const oneDecimal = (n: number): number => Math.round(n * 10) / 10;

describe("Link numbers in the pane", () => {
  it("prices a typed model with nothing sent, proposes its links, links the accepted ones and undoes them (screenshot)", async () => {
    const revenue = await Promise.all(YEARS.map((y) => sandboxValue("screens/traditional", "REVENUE", y)));
    const income = await Promise.all(YEARS.map((y) => sandboxValue("screens/traditional", "INCOME_NET", y)));
    const roic = await Promise.all(YEARS.map((y) => sandboxValue("metrics/roic", "ROIC", y)));
    const typed: Record<string, string | number> = {
      "Model!A1": "Ticker: AAPL",
      "Model!A3": "Revenue ($m)",
      "Model!A4": "Net income ($m)",
      "Model!A5": "ROIC %",
      "Model!A6": "Headcount",
      "Model!A7": "Revenue growth",
      "Model!D7": "=D3/C3-1",
    };
    const formats: Record<string, string> = { "Model!D7": "0.0%" };
    COLUMNS.forEach((col, i) => {
      typed[`Model!${col}2`] = `FY${YEARS[i]}`;
      typed[`Model!${col}3`] = oneDecimal(revenue[i]! / 1e6);
      // FY2021's net income is mistyped: FDQ's value is shown beside it and it is left alone.
      typed[`Model!${col}4`] = oneDecimal(income[i]! / 1e6) + (i === 0 ? 12.3 : 0);
      typed[`Model!${col}5`] = oneDecimal(roic[i]! * 100);
      typed[`Model!${col}6`] = 150 + 10 * i;
      formats[`Model!${col}3`] = "#,##0.0";
      formats[`Model!${col}4`] = "#,##0.0";
    });

    const { context, page } = await rig.openConnected();
    await callDouble(page, "seed", typed);
    await callDouble(page, "formatCells", formats);
    await callDouble(page, "select", "Model!A1");
    await settled(page);
    const atStart = rig.sandbox.stats().requests;
    const unitsAtStart = rig.sandbox.usage();

    await tab(page, "Workbook");
    const card = page.getByLabel("Link numbers", { exact: true });
    await card.getByRole("button", { name: "Price it" }).click();
    const price = card.getByLabel("Link numbers price");
    await price.waitFor();
    // The first look: the day's stock coverage list and the three labels' datapoints at FY2023 (1 unit each).
    const priceText = (await price.textContent()) ?? "";
    const pricePattern =
      /^12 numbers under 4 labels; 3 labels may name FDQ datapoints\. Finding matches costs at most (\d+) quota units \(4 units for a first look at each label's candidates\)\.$/;
    expect(priceText).toMatch(pricePattern);
    const priced = pricePattern.exec(priceText);
    const most = Number(priced?.[1]);
    // The price is the client's estimate: nothing was sent.
    expect(rig.sandbox.stats().requests).toBe(atStart);

    await card.getByRole("button", { name: "Find matches" }).click();
    const proposals = card.getByLabel("Proposals");
    await proposals.waitFor();
    const rows = proposals.getByRole("listitem");
    expect(await rows.count()).toBe(8);
    expect(rig.sandbox.stats().requests).toBeGreaterThan(atStart);
    // What it spent is within the price shown: the coverage list, and 3 labels x 3 years.
    expect(rig.sandbox.usage() - unitsAtStart).toBe(1 + 9);
    expect(rig.sandbox.usage() - unitsAtStart).toBeLessThanOrEqual(most);
    const d3 = proposals.getByLabel("D3 Revenue ($m)");
    expect(await d3.textContent()).toContain(
      '=FDQ.DATAPOINT("AAPL","screens/traditional","REVENUE",2023)/1000000',
    );
    expect(await d3.textContent()).toContain(
      `Model ${oneDecimal(revenue[2]! / 1e6).toLocaleString("en-US")}`,
    );
    expect(await card.getByLabel("Numbers FDQ disagrees with").textContent()).toContain(
      "B4 Net income ($m): the model has",
    );
    await card.getByText("3 numbers under labels that name no FDQ datapoint left alone.").waitFor();

    // Accept all, then reject FY2022's ROIC.
    await card.getByRole("button", { name: "Accept all" }).click();
    await proposals.getByLabel("C5 ROIC %").getByRole("button", { name: "Reject" }).click();
    await card.getByRole("button", { name: "Link accepted (7)" }).waitFor();
    expect(await proposals.getByLabel("C5 ROIC %").textContent()).toContain("C5 ROIC % · rejected");
    expect(await proposals.getByLabel("D5 ROIC %").textContent()).toContain("D5 ROIC % · accepted");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PANE_WIDTH);
    const file = artifact("link-numbers.png");
    await card.screenshot({ path: file });
    if (process.env.FDQ_UPDATE_DOCS === "1") {
      const images = join(__dirname, "../../docs/images");
      mkdirSync(images, { recursive: true });
      copyFileSync(file, join(images, "link-numbers.png"));
    }

    await card.getByRole("button", { name: "Link accepted (7)" }).click();
    await card
      .getByText(
        "Linked 7 numbers: their cells hold the FDQ formula now. Undo is available until you close the pane.",
      )
      .waitFor();
    expect((await cell(page, "Model!D3"))?.formula).toBe(
      '=FDQ.DATAPOINT("AAPL","screens/traditional","REVENUE",2023)/1000000',
    );
    expect((await cell(page, "Model!C4"))?.formula).toBe(
      '=FDQ.DATAPOINT("AAPL","screens/traditional","INCOME_NET",2022)/1000000',
    );
    expect((await cell(page, "Model!B5"))?.formula).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2021)*100',
    );
    // Rejected, mistyped, no datapoint, computed: as they were.
    expect(await cell(page, "Model!C5")).toMatchObject({ formula: null, value: oneDecimal(roic[1]! * 100) });
    expect(await cell(page, "Model!B4")).toMatchObject({ formula: null, value: typed["Model!B4"] });
    expect(await cell(page, "Model!D6")).toMatchObject({ formula: null, value: 170 });
    expect((await cell(page, "Model!D7"))?.formula).toBe("=D3/C3-1");
    // The linked cells calculate against the sandbox to what the model showed.
    await settled(page);
    const d3Value = (await cell(page, "Model!D3"))?.value;
    expect(typeof d3Value).toBe("number");
    expect(Math.abs((d3Value as number) - (typed["Model!D3"] as number))).toBeLessThanOrEqual(0.05);

    await card.getByRole("button", { name: "Undo" }).click();
    await card.getByText("Put back 7 typed numbers with their number format.").waitFor();
    for (const address of [
      "Model!B3",
      "Model!C3",
      "Model!D3",
      "Model!C4",
      "Model!D4",
      "Model!B5",
      "Model!D5",
    ])
      expect(await cell(page, address)).toMatchObject({ formula: null, value: typed[address] });
    expect(await callDouble<string>(page, "numberFormat", "Model!D3")).toBe("#,##0.0");
    expect(await callDouble<string>(page, "numberFormat", "Model!B5")).toBe("General");

    // A protected sheet is refused before anything is read for matching.
    await callDouble(page, "seed", { "Locked!A1": "Ticker: AAPL" });
    await callDouble(page, "protect", "Locked");
    await callDouble(page, "select", "Locked!A1");
    await card.getByRole("button", { name: "Price it" }).click();
    await card
      .getByText(
        'Sheet "Locked" is protected: its numbers cannot be replaced. Unprotect it (Review > Unprotect Sheet) to link them.',
      )
      .waitFor();
    await context.close();
  });

  it("without a connection, reads the sheet but asks to connect first: the price is unknown and nothing is sent", async () => {
    const before = rig.sandbox.stats().requests;
    const { context, page } = await openPane(rig.browser, rig.site);
    await callDouble(page, "seed", {
      "AAPL!B1": "FY2022",
      "AAPL!C1": "FY2023",
      "AAPL!A2": "Revenue ($m)",
      "AAPL!B2": 1_000.5,
      "AAPL!C2": 1_100.5,
    });
    await callDouble(page, "select", "AAPL!A1");
    await tab(page, "Workbook");
    const card = page.getByLabel("Link numbers", { exact: true });
    await card.getByRole("button", { name: "Price it" }).click();
    await card
      .getByText(
        "Connect first (Connect tab): without a connection the price of finding matches is unknown, and nothing can be fetched.",
      )
      .waitFor();
    expect(await card.getByRole("button", { name: "Find matches" }).isDisabled()).toBe(true);
    expect(rig.sandbox.stats().requests).toBe(before);
    await context.close();
  });
});
