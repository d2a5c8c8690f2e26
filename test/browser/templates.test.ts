// The template gallery in the task pane (headless Chromium, the Office double, the sandbox): the analyst picks a
// template and types tickers, the gallery previews the sheet and prices filling it by the client's estimate,
// refuses bad tickers with the template's message, and "Insert as new sheet" writes the sheet through Office.js,
// whose FDQ cells then calculate against the sandbox. Screenshots land in test/artifacts and docs/images.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { callDouble, eventually, PANE_WIDTH, settled, useBrowserRig } from "./harness";
import { artifact } from "./pane-steps";

jest.setTimeout(60_000);

const rig = useBrowserRig();

describe("the template gallery", () => {
  it("previews a template for the typed tickers, prices it, and inserts it as a new sheet that calculates (screenshot)", async () => {
    const { context, page } = await rig.openConnected();
    await page.getByRole("tab", { name: "Workbook" }).click();
    const gallery = page.getByLabel("Templates");
    await gallery.getByRole("combobox").selectOption("nopat-reconciliation");
    await gallery.getByText("The reconciliation walk from net income to NOPAT").waitFor();

    await gallery.getByRole("textbox").fill("AAPL, MSFT");
    await gallery.getByText("template nopat-reconciliation takes one ticker, not 2").waitFor();
    expect(await gallery.getByRole("button", { name: "Insert as new sheet" }).isDisabled()).toBe(true);

    await gallery.getByRole("textbox").fill("AAPL");
    const cost = gallery.getByLabel("Template cost");
    await cost.waitFor();
    // 11 walk lines x 3 fiscal years ask the whole dataset per year (33 units), the company's name 1; the search
    // for AAPL's latest fiscal year adds what the estimate says ("at most" while the day's coverage list, asked
    // first, is not in today's cache).
    expect(await cost.textContent()).toMatch(
      /^Filling it costs (at most )?(\d+) quota units \((\d+) requests not in today's cache(; less if the day's ticker coverage list, asked first, does not list some tickers)?\)\.$/,
    );
    const units = Number(/costs (?:at most )?(\d+)/.exec((await cost.textContent()) ?? "")?.[1]);
    expect(units).toBeGreaterThanOrEqual(34);
    const preview = gallery.getByLabel("Template preview");
    expect(await preview.getByText("Net income to NOPAT: AAPL").count()).toBe(1);

    // The preview fits the pane's width: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PANE_WIDTH);
    const file = artifact("taskpane-templates-light.png");
    await gallery.screenshot({ path: file });
    if (process.env.FDQ_UPDATE_DOCS === "1") {
      const images = join(__dirname, "../../docs/images");
      mkdirSync(images, { recursive: true });
      copyFileSync(file, join(images, "templates.png"));
    }

    await gallery.getByRole("button", { name: "Insert as new sheet" }).click();
    await gallery.getByText('Inserted the sheet "NOPAT walk AAPL".', { exact: false }).waitFor();
    expect(await callDouble<string[]>(page, "sheets")).toEqual(["Sheet1", "NOPAT walk AAPL"]);
    await settled(page);
    const cell = (address: string) =>
      callDouble<{ formula: string | null; value: unknown; error: unknown } | null>(page, "cell", address);
    expect(await cell("NOPAT walk AAPL!A4")).toMatchObject({ formula: null, value: "Sign" });
    expect(await cell("NOPAT walk AAPL!A6")).toMatchObject({ formula: null, value: "plus" });
    expect((await cell("NOPAT walk AAPL!E5"))?.formula).toBe(
      '=FDQ.DATAPOINT("AAPL","reconciliation/net-income-to-nopat","INCOME_NET","FY0")',
    );
    await eventually(async () => typeof (await cell("NOPAT walk AAPL!E5"))?.value, "number", 20_000);
    expect(await callDouble<string>(page, "numberFormat", "NOPAT walk AAPL!E5")).toBe("#,##0.00");

    // Inserted again: the name is taken, so the new sheet gets a number.
    await gallery.getByRole("button", { name: "Insert as new sheet" }).click();
    await gallery.getByText('Inserted the sheet "NOPAT walk AAPL (2)".', { exact: false }).waitFor();

    // The peer comparison takes the analyst's datapoints, each checked against the catalog.
    await gallery.getByRole("combobox").selectOption("peer-comparison");
    await gallery.getByLabel("Tickers (2 to 25, separated by commas)").fill("AAPL, MSFT");
    const datapoints = gallery.getByLabel("Datapoints (DATASET:NAME, separated by commas)");
    await datapoints.fill("roic:ROCI");
    await gallery.getByText('datapoint "ROCI" is not in dataset metrics/roic').waitFor();
    await datapoints.fill("roic:ROIC, adjusted:ECONOMIC_PROFIT");
    await preview.getByText("ROIC FY0").first().waitFor();
    // Two tickers: two names (one coverage request each) and two datapoints each at FY0.
    await eventually(
      async () => /^Filling it costs (?:at most )?\d+ quota units/.test((await cost.textContent()) ?? ""),
      true,
    );

    // The dark theme (screenshot).
    await callDouble(page, "setTheme", "dark");
    await page.locator('[data-theme="dark"]').waitFor();
    await gallery.screenshot({ path: artifact("taskpane-templates-dark.png") });
    await context.close();
  });
});
