// The task pane's Values card in the built pane against the Office double and the sandbox: "Numbers carry their
// source" (off by default; turning it on saves it and has Excel calculate the FDQ cells again from today's cache,
// sending nothing) and the card metrics chooser (each metric priced per card per refresh day before it is added,
// reordered, removed), on an Excel that shows data types and on one that lacks the requirement sets (both
// disabled, with the reason). Screenshots at the pane's width; with FDQ_UPDATE_DOCS=1 they are copied to
// docs/images, with the picture of a card for docs/functions.md: a rendering of an FDQ.CARD card's data (the
// sandbox's AAPL, shaped as Excel.EntityCellValue) in Excel's card layout, drawn here, not a screenshot of Excel.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { RATING_FIELDS } from "../../src/catalog/ratings";
import { evaluateCall } from "../../src/functions/impl";
import { VALUE_OPTIONS_KEY } from "../../src/functions/value-options";
import { ARTIFACTS, callDouble, enterCells, todayLabel, useBrowserRig } from "./harness";
import { search, tab } from "./pane-steps";

jest.setTimeout(90_000);

const rig = useBrowserRig();
const DOCS_IMAGES = join(__dirname, "../../docs/images");

/** Saves a screenshot of `target` under test/artifacts (and docs/images with FDQ_UPDATE_DOCS=1). */
async function photograph(target: Locator, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, name);
  await target.screenshot({ path: file });
  if (process.env.FDQ_UPDATE_DOCS === "1") {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    copyFileSync(file, join(DOCS_IMAGES, name));
  }
}

const text = (page: Page, id: string): Promise<string | null> => page.getByTestId(id).textContent();
const stored = async (page: Page): Promise<unknown> =>
  JSON.parse(
    (await callDouble<Record<string, string>>(page, "storageSnapshot"))[VALUE_OPTIONS_KEY] ?? "null",
  );

const HELP =
  "FDQ.DATAPOINT, FDQ.SERIES, FDQ.SECTOR and FDQ.DATASET then return numbers that carry their source (ticker, " +
  "dataset, datapoint, the period asked and the one found, the filing, the refresh day), shown on the value's " +
  "card in Excel. Off by default: other tools that read the workbook's cells expect plain numbers.";

/** Opens "Add a metric", finds `query` in metrics/roic, chooses the first result and `period`. */
async function chooseMetric(page: Page, query: string, period: string): Promise<void> {
  if ((await page.getByTestId("add-metric-open").count()) > 0)
    await page.getByTestId("add-metric-open").click();
  await page.getByTestId("dataset-filter").selectOption("metrics/roic");
  await search(page, query);
  await page.getByTestId("datapoint-result").first().click();
  await page.getByTestId("metric-period").selectOption(period);
}

describe("the Values card", () => {
  it("on an Excel that shows data types: numbers carry their source off by default; turned on, it is saved and Excel calculates the FDQ cells again from today's cache, with no request (screenshot)", async () => {
    const { context, page, answered } = await rig.openConnected();
    await enterCells(page, { "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)' });
    await tab(page, "Connect");
    const toggle = page.getByTestId("with-source");
    expect(await toggle.isChecked()).toBe(false);
    expect(await toggle.isDisabled()).toBe(false);
    expect(await text(page, "with-source-help")).toBe(HELP);
    await expect(page.getByTestId("values-unavailable").count()).resolves.toBe(0);

    const requests = answered.length;
    const before = (await callDouble<string[]>(page, "calculations")).length;
    await toggle.click();
    const said =
      "Saved. Excel calculated 1 FDQ cell again to return numbers with their source, from today's cache (no request).";
    await page.getByTestId("values-message").getByText(said).waitFor();
    expect(await toggle.isChecked()).toBe(true);
    expect(await stored(page)).toEqual({ withSource: true, cardMetrics: [] });
    expect((await callDouble<string[]>(page, "calculations")).slice(before)).toEqual(["Full"]);
    expect(answered.length).toBe(requests);
    await photograph(page.getByLabel("Values"), "values-options.png");
    await context.close();
  });

  it("prices each card metric per card per refresh day before it is added, and keeps the analyst's order", async () => {
    const { context, page } = await rig.openConnected();
    await tab(page, "Connect");
    expect(await text(page, "card-metrics-total")).toBe("No metrics: cards fetch coverage and ratings only.");

    await chooseMetric(page, "ROIC", "FY0");
    expect(await text(page, "add-metric")).toBe("Add ROIC FY0");
    const roic =
      "ROIC FY0 (metrics/roic) adds 1 unit per card per refresh day; the card's metrics then cost 1 unit per card per refresh day.";
    await page.getByTestId("metric-price").getByText(roic).waitFor();
    await photograph(page.getByLabel("Values"), "values-metric-price.png");
    await page.getByTestId("add-metric").click();
    await page.getByTestId("card-metric").first().waitFor();
    expect(await text(page, "card-metrics-total")).toBe("1 metric: 1 unit per card per refresh day.");

    // An earlier period beside one at the latest: the latest period is searched anyway, its own datapoint only.
    await chooseMetric(page, "NOPAT", "FY-1");
    await page
      .getByTestId("metric-price")
      .getByText(
        "NOPAT FY-1 (metrics/roic) adds 1 unit per card per refresh day; the card's metrics then cost 2 units per card per refresh day.",
      )
      .waitFor();
    await page.getByTestId("add-metric").click();
    await page
      .getByTestId("card-metrics-total")
      .getByText("2 metrics: 2 units per card per refresh day.")
      .waitFor();

    // The same metric again is refused with the reason.
    await chooseMetric(page, "ROIC", "FY0");
    await page.getByTestId("metric-price").getByText("ROIC FY0 is on the card already.").waitFor();
    expect(await page.getByTestId("add-metric").isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Move NOPAT FY-1 up" }).click();
    await page.getByTestId("values-message").getByText("Moved NOPAT FY-1 up.", { exact: false }).waitFor();
    expect(await page.getByTestId("card-metric").allTextContents()).toEqual([
      "NOPAT FY-1UpDownRemove",
      "ROIC FY0UpDownRemove",
    ]);
    expect(await stored(page)).toEqual({
      withSource: false,
      cardMetrics: [
        { dataset: "metrics/roic", name: "NOPAT", period: "FY-1" },
        { dataset: "metrics/roic", name: "ROIC", period: "FY0" },
      ],
    });
    await photograph(page.getByLabel("Values"), "values-card-metrics.png");

    await page.getByRole("button", { name: "Remove ROIC FY0" }).click();
    await page
      .getByTestId("card-metrics-total")
      .getByText("1 metric: 2 units per card per refresh day.")
      .waitFor();
    expect(await text(page, "values-message")).toBe(
      "Removed ROIC FY0. Cards show the change when they are next calculated (a refresh, or the card entered again).",
    );
    expect(await stored(page)).toEqual({
      withSource: false,
      cardMetrics: [{ dataset: "metrics/roic", name: "NOPAT", period: "FY-1" }],
    });
    await context.close();
  });

  it("on an Excel without CustomFunctionsRuntime 1.4: the switch and the chooser are disabled and the pane says why (screenshot)", async () => {
    const { context, page } = await rig.openConnected({
      workbook: { requirementSets: { CustomFunctionsRuntime: "1.3" } },
    });
    await tab(page, "Connect");
    expect(await text(page, "values-unavailable")).toBe(
      "Not available in this Excel" +
        "This version of Excel lacks CustomFunctionsRuntime 1.4 (custom functions that return data types), so FDQ " +
        "returns plain values and FDQ.CARD cannot show a card. Use Excel for Microsoft 365 (Windows version 2208 or " +
        "later, Mac 16.64 or later) or Excel on the web.",
    );
    expect(await page.getByTestId("with-source").isDisabled()).toBe(true);
    expect(await page.getByTestId("with-source").isChecked()).toBe(false);
    expect(await page.getByTestId("add-metric-open").isDisabled()).toBe(true);
    await photograph(page.getByLabel("Values"), "values-unavailable.png");
    await context.close();
  });
});

describe("the picture of a card (docs/functions.md)", () => {
  it("renders an FDQ.CARD card's data, the sandbox's AAPL shaped as Excel.EntityCellValue, in Excel's card layout (screenshot)", async () => {
    const ref = rig.reference;
    const security = (await ref.security("stock", "AAPL")).data;
    const ratings = (await ref.ratings("AAPL")).data.ratings;
    const words = ["Very Attractive", "Attractive", "Neutral", "Unattractive", "Very Unattractive"];
    // The key metrics as FDQ.DATAPOINT answers them at FY0, by the functions' own code.
    const metric = async (dataset: string, name: string): Promise<number> => {
      const value = await evaluateCall(
        ref,
        { name: "DATAPOINT", args: ["AAPL", dataset, name, "FY0"] },
        (e) => {
          throw e;
        },
      );
      if (typeof value !== "number") throw new Error(`${name} FY0 is not a number: ${String(value)}`);
      return value;
    };
    const roic = await metric("metrics/roic", "ROIC");
    const nopat = await metric("metrics/roic", "NOPAT");
    const rated = RATING_FIELDS.filter((f) => ratings[f.field] !== undefined);
    const card = {
      type: "Entity",
      text: `${security.name} (AAPL)`,
      properties: {
        Ticker: { type: "String", basicValue: "AAPL" },
        Name: { type: "String", basicValue: security.name },
        Sector: { type: "String", basicValue: security.sector_name },
        Industry: { type: "String", basicValue: security.industry_name },
        ...Object.fromEntries(
          rated.map((f) => [
            `Rating: ${f.label}`,
            {
              type: "String",
              basicValue: `${ratings[f.field]} (${words[(ratings[f.field] as number) - 1]})`,
            },
          ]),
        ),
        "ROIC FY0": { type: "Double", basicValue: roic, numberFormat: "0.0%" },
        "NOPAT FY0": { type: "Double", basicValue: nopat, numberFormat: "#,##0" },
        Source: {
          type: "String",
          basicValue: `FDQ, refresh day of ${todayLabel()}`,
        },
      },
      layouts: {
        card: {
          title: { property: "Name" },
          sections: [
            { layout: "List", properties: ["Ticker", "Sector", "Industry"] },
            { layout: "List", title: "Ratings", properties: rated.map((f) => `Rating: ${f.label}`) },
            { layout: "List", title: "Key metrics", properties: ["ROIC FY0", "NOPAT FY0"] },
            { layout: "List", title: "Provenance", properties: ["Source"] },
          ],
        },
      },
    };
    expect(rated.length).toBeGreaterThan(0);

    const page = await rig.browser.newPage({ viewport: { width: 360, height: 800 } });
    try {
      await page.setContent(cardHtml(card));
      expect(await page.locator("h1").textContent()).toBe(security.name);
      expect(await page.locator("dd").allTextContents()).toContain((roic * 100).toFixed(1) + "%");
      await photograph(page.locator(".card"), "card.png");
    } finally {
      await page.close();
    }
  });
});

interface CardValue {
  type: string;
  basicValue: string | number;
  numberFormat?: string;
}
interface Card {
  text: string;
  properties: Record<string, CardValue>;
  layouts: { card: { title: { property: string }; sections: { title?: string; properties: string[] }[] } };
}

const escapeHtml = (t: string): string =>
  t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A value as the card shows it: a percentage or grouped number by its format, text as it is. */
function shown(v: CardValue): string {
  if (typeof v.basicValue !== "number") return v.basicValue;
  if (v.numberFormat === "0.0%") return `${(v.basicValue * 100).toFixed(1)}%`;
  return Math.round(v.basicValue).toLocaleString("en-US");
}

/** The card as HTML in the layout Excel gives an entity's card: a title, then each section's fields. */
function cardHtml(card: Card): string {
  const sections = card.layouts.card.sections
    .map(
      (s) =>
        `<section>${s.title ? `<h2>${escapeHtml(s.title)}</h2>` : ""}<dl>` +
        s.properties
          .map(
            (p) =>
              `<dt>${escapeHtml(p.replace(/^Rating: /, ""))}</dt><dd>${escapeHtml(shown(card.properties[p] as CardValue))}</dd>`,
          )
          .join("") +
        "</dl></section>",
    )
    .join("");
  const title = card.properties[card.layouts.card.title.property]?.basicValue ?? card.text;
  return (
    "<!doctype html><html><head><style>" +
    "body{margin:0;padding:12px;background:#f3f3f3;font:13px 'Segoe UI',system-ui,sans-serif;color:#242424}" +
    ".card{width:320px;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.18);padding:14px 16px}" +
    ".kind{font-size:11px;color:#616161;text-transform:uppercase;letter-spacing:.04em}" +
    "h1{font-size:18px;font-weight:600;margin:2px 0 8px}" +
    "h2{font-size:12px;font-weight:600;color:#616161;margin:12px 0 4px;border-top:1px solid #e0e0e0;padding-top:8px}" +
    "dl{display:grid;grid-template-columns:1fr auto;gap:3px 12px;margin:0}dt{color:#424242}dd{margin:0;text-align:right;font-weight:600}" +
    ".note{margin-top:10px;font-size:11px;color:#707070}" +
    "</style></head><body><div class='card'>" +
    `<div class="kind">FDQ.CARD</div><h1>${escapeHtml(String(title))}</h1>${sections}` +
    "<div class='note'>A rendering of the card's data (synthetic sandbox values), not a screenshot of Excel.</div>" +
    "</div></body></html>"
  );
}
