// fdq retrofit's label search: a label as analysts write it, cleaned of units and notes, through the catalog
// search to a short list of datapoints (src/workbook/retrofit/labels.ts).
import { CatalogSearchIndex } from "../../../../src/catalog/search";
import { candidatesFor, labelQuery, MAX_CANDIDATES } from "../../../../src/workbook/retrofit/labels";

const index = CatalogSearchIndex.fromCatalog();
const names = (label: string): string[] => candidatesFor(index, label).map((c) => c.name);

describe("label search", () => {
  it("drops units in parentheses, a % sign and trailing notes", () => {
    expect(labelQuery("Revenue ($m)")).toBe("Revenue");
    expect(labelQuery("NOPAT ($ in millions)")).toBe("NOPAT");
    expect(labelQuery("ROIC %")).toBe("ROIC");
    expect(labelQuery("WACC (%)")).toBe("WACC");
    expect(labelQuery("Net income (1)")).toBe("Net income");
    expect(labelQuery("SG&A*")).toBe("SG&A");
    expect(labelQuery("EV / EBITDA (x)")).toBe("EV / EBITDA");
  });

  it("drops a unit after a comma at the end", () => {
    expect(labelQuery("Capex, $m")).toBe("Capex");
    expect(labelQuery("Revenue, USD mn")).toBe("Revenue");
  });

  it("keeps words in parentheses that are not units", () => {
    expect(labelQuery("EPS (diluted)")).toBe("EPS (diluted)");
  });

  it("reads Adj. as the start of adjusted", () => {
    expect(labelQuery("Adj. EBITDA")).toBe("adj EBITDA");
    expect(names("Adj. EBITDA")).toEqual(["EBITDA"]);
  });

  it("takes only the names a label spells out when it spells some", () => {
    expect(names("ROIC %")).toEqual(["ROIC"]);
    expect(names("Net sales ($m)")).toEqual(["REVENUE"]);
    expect(names("Market cap ($bn)")).toEqual(["EQUITY_MARKET_VALUE"]);
    expect(names("Return on invested capital")).toEqual(["ROIC"]);
  });

  it("gives at most 3 datapoints, one dataset each, the metrics and screens first", () => {
    const list = candidatesFor(index, "Revenue");
    expect(list.length).toBeLessThanOrEqual(MAX_CANDIDATES);
    expect(list[0]).toEqual({ name: "REVENUE", dataset: "screens/traditional" });
    expect(candidatesFor(index, "NOPAT")[0]).toEqual({ name: "NOPAT", dataset: "metrics/roic" });
  });

  it("gives no datapoint for a label the catalog does not know", () => {
    expect(names("Revenue growth %")).toEqual([]);
    expect(names("Headcount (000s)")).toEqual([]);
    expect(names("Price target")).toEqual([]);
    expect(names("($ in millions)")).toEqual([]);
  });
});
