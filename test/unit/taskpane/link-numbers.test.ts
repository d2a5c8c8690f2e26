// The task pane's Link numbers (src/taskpane/logic/link-numbers.ts, src/taskpane/office/link-numbers.ts):
// retrofit's matching over the active sheet or the selection, priced before anything is sent and run through a
// real client on a fake service, and the sheet as the pane reads it from Office's blocks.
import { CatalogSearchIndex } from "../../../src/catalog/search";
import {
  differenceText,
  findLinks,
  planLinks,
  priceLine,
  priceLinks,
  type LinkPlan,
} from "../../../src/taskpane/logic/link-numbers";
import { gridCellsOfBlock, type ModelSheetRead } from "../../../src/taskpane/office/link-numbers";
import type { GridCell } from "../../../src/workbook/retrofit/grid";
import { FakeFetch, makeClient, valueText } from "../api/fake-fetch";

const index = CatalogSearchIndex.fromCatalog();

/** The fake service's annual value (period 5 is a fiscal year's). */
const fdq = (name: string, year: number): number => Number(valueText("AAPL", name, year, 5));
/** The value as a model in thousands types it, one decimal shown. */
const inThousands = (v: number): number => Math.round(v / 100) / 10;

/** A company sheet: "Ticker: AAPL", years across, Revenue in thousands with a wrong FY2021, a computed cell. */
function model(overrides: Partial<ModelSheetRead> = {}): ModelSheetRead {
  const cells: GridCell[] = [];
  const put = (row: number, col: number, value: GridCell["value"], formula = false, format?: string) =>
    cells.push({ row, col, value, formula, ...(format ? { format } : {}) });
  put(1, 1, "Ticker: AAPL");
  put(2, 2, "FY2021");
  put(2, 3, "FY2022");
  put(2, 4, "FY2023");
  put(3, 1, "Revenue ($000)");
  put(3, 2, inThousands(fdq("REVENUE", 2021)) + 7, false, "#,##0.0");
  put(3, 3, inThousands(fdq("REVENUE", 2022)), false, "#,##0.0");
  put(3, 4, inThousands(fdq("REVENUE", 2023)), false, "#,##0.0");
  put(4, 1, "Headcount");
  put(4, 3, 154);
  put(4, 4, 161);
  put(5, 1, "Revenue growth");
  put(5, 4, 0.1, true, "0.0%");
  return { sheet: { name: "Model", cells, protected: false }, ...overrides };
}

const ok = (plan: LinkPlan): Extract<LinkPlan, { ok: true }> => {
  if (!plan.ok) throw new Error(plan.problem);
  return plan;
};

async function readyClient() {
  const fake = new FakeFetch();
  const client = makeClient(fake, { billing: "per-datapoint" });
  await client.ready();
  return { fake, client };
}

describe("Link numbers in the pane", () => {
  it("prices the matching before anything is sent: a unit per candidate at each label's latest number first", async () => {
    const { fake, client } = await readyClient();
    const plan = ok(planLinks(model(), "sheet", index));
    const price = await priceLinks(plan.plan, client);
    expect(fake.count).toBe(0);
    const candidates = plan.plan.lines.reduce((n, p) => n + p.candidates.length, 0);
    expect(price.first).toBe(candidates);
    expect(price.most).toBeGreaterThanOrEqual(price.first);
    expect(priceLine(plan, price)).toBe(
      `5 numbers under 2 labels; 1 label may name FDQ datapoints. Finding matches costs at most ${price.most} quota units ` +
        `(${price.first} ${price.first === 1 ? "unit" : "units"} for a first look at each label's candidates).`,
    );
  });

  it("proposes the formula for each matching number with both numbers and the difference; a wrong number is left alone", async () => {
    const { client } = await readyClient();
    const plan = ok(planLinks(model(), "sheet", index));
    const found = await findLinks(plan.plan, client);
    expect(found.proposals.map((p) => [p.cell, p.label, p.scale, p.confidence])).toEqual([
      ["C3", "Revenue ($000)", "thousands", "high"],
      ["D3", "Revenue ($000)", "thousands", "high"],
    ]);
    const d3 = found.proposals[1]!;
    expect(d3.flipped).toBe(false);
    expect(d3.formula).toBe('=FDQ.DATAPOINT("AAPL","screens/traditional","REVENUE",2023)/1000');
    expect(d3.modelValue).toBe(inThousands(fdq("REVENUE", 2023)));
    expect(Math.abs(d3.fdqValue - d3.modelValue)).toBeLessThanOrEqual(0.05);
    expect(d3.difference).toBeCloseTo((d3.modelValue - d3.fdqValue) / Math.abs(d3.fdqValue), 12);
    expect(found.disagree.map((d) => [d.cell, d.modelValue])).toEqual([
      ["B3", inThousands(fdq("REVENUE", 2021)) + 7],
    ]);
    // Headcount's two numbers: no FDQ datapoint; the computed growth cell is never a candidate.
    expect(found.unmatched).toBe(2);
    expect(found.proposals.some((p) => p.cell === "D5")).toBe(false);
  });

  it("fetches only the candidates, and a second look is answered by today's cache", async () => {
    const { fake, client } = await readyClient();
    const plan = ok(planLinks(model(), "sheet", index));
    await findLinks(plan.plan, client);
    const sent = fake.seen.filter((r) => r.url.searchParams.get("datapoint") !== null);
    // REVENUE at FY2023 (the probe), then at FY2022 and FY2021: three datapoint requests, nothing for Headcount.
    expect(
      sent.map((r) => `${r.url.searchParams.get("datapoint")}:${r.url.searchParams.get("year")}`).sort(),
    ).toEqual(["REVENUE:2021", "REVENUE:2022", "REVENUE:2023"]);
    const before = fake.count;
    await findLinks(plan.plan, client);
    expect(fake.count).toBe(before);
  });

  it("over the selection, proposes only the selected numbers, reading periods and ticker from the whole sheet", async () => {
    const { client } = await readyClient();
    const read = model({ selection: { top: 3, left: 4, bottom: 3, right: 4 } });
    const plan = ok(planLinks(read, "selection", index));
    expect(plan.numbers).toBe(1);
    const found = await findLinks(plan.plan, client);
    expect(found.proposals.map((p) => p.cell)).toEqual(["D3"]);
  });

  it("says so when the selection holds none of the table's numbers", () => {
    const plan = planLinks(
      model({ selection: { top: 1, left: 1, bottom: 2, right: 1 } }),
      "selection",
      index,
    );
    expect(plan).toEqual({
      ok: false,
      problem:
        "The selection holds none of the table's numbers: select the numbers to link (their labels and headers need not be selected), or choose the whole sheet.",
    });
  });

  it("refuses a protected sheet", () => {
    const read = model();
    const plan = planLinks({ sheet: { ...read.sheet, protected: true } }, "sheet", index);
    expect(plan).toEqual({
      ok: false,
      problem:
        'Sheet "Model" is protected: its numbers cannot be replaced. Unprotect it (Review > Unprotect Sheet) to link them.',
    });
  });

  it("names the layouts it reads when the sheet has none", () => {
    const plan = planLinks(
      {
        sheet: {
          name: "Notes",
          protected: false,
          cells: [{ row: 1, col: 1, value: "hello", formula: false }],
        },
      },
      "sheet",
      index,
    );
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.problem).toBe(
      'Found no numbers to link on "Notes". Link numbers reads two layouts: a company per sheet, with line items ' +
        "down a column of labels and fiscal years or quarters across a header row (FY2023, 2023, 2023A, Q3 2024, " +
        "LTM), the ticker in a cell such as 'Ticker: AAPL' or in the sheet's name; and a comps table, with tickers " +
        "down a column headed Ticker or Symbol and metrics across its header row, the period in each metric's " +
        "header (ROIC FY2023) or in a cell such as 'Fiscal year: 2023'.",
    );
  });

  it("says where the ticker goes when a company sheet names none", () => {
    const cells = model().sheet.cells.filter((c) => c.value !== "Ticker: AAPL");
    const plan = planLinks({ sheet: { name: "Model", protected: false, cells } }, "sheet", index);
    expect(!plan.ok && plan.problem).toMatch(
      /^Found no numbers to link on "Model" \(no ticker: write it in a cell such as 'Ticker: AAPL' or name the sheet after it\)\. Link numbers reads two layouts/,
    );
  });

  it("shows the difference as a signed percent", () => {
    expect(differenceText(0)).toBe("0.00%");
    expect(differenceText(0.0125)).toBe("+1.25%");
    expect(differenceText(-0.00001)).toBe("-0.0010%");
  });

  it("reads Office's blocks as 1-based grid cells: formulas flagged, formats kept, empty constants left out", () => {
    const cells = gridCellsOfBlock(1, 2, [["=C2*2", "", 5]], [[10, "", 5]], [["0.0%", "General", "#,##0.0"]]);
    expect(cells).toEqual([
      { row: 2, col: 3, value: 10, formula: true, format: "0.0%" },
      { row: 2, col: 5, value: 5, formula: false, format: "#,##0.0" },
    ]);
  });
});
