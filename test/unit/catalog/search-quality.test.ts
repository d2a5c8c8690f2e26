// The catalog search measured on the words analysts use (analyst-words.ts): the datapoint each should find is
// among the first 3 datapoints (by name) for at least 95% of them. The pane's Find and fdq retrofit's labels
// both rely on it.
import { CatalogSearchIndex } from "../../../src/catalog/search";
import { DATASETS } from "../../../src/catalog";
import { SYNONYMS } from "../../../src/catalog/synonyms";
import { ANALYST_WORDS } from "./analyst-words";

const index = CatalogSearchIndex.fromCatalog();

const topNames = (query: string, n: number): string[] =>
  [...new Set(index.search(query, {}, 40).hits.map((h) => h.datapoint.name))].slice(0, n);

describe("catalog search on the words analysts use", () => {
  it("measures at least 40 queries, each naming a datapoint of the catalog", () => {
    const names = new Set(DATASETS.flatMap((d) => d.datapoints.map((p) => p.name)));
    expect(ANALYST_WORDS.length).toBeGreaterThanOrEqual(40);
    expect(ANALYST_WORDS.filter(([, name]) => !names.has(name))).toEqual([]);
  });

  it("finds the right datapoint in the top 3 for at least 95% of them", () => {
    const missed = ANALYST_WORDS.filter(([query, name]) => !topNames(query, 3).includes(name));
    expect(missed.length / ANALYST_WORDS.length).toBeLessThanOrEqual(0.05);
  });

  it("finds REVENUE, EQUITY_MARKET_VALUE, EXPENSES_STOCK_COMPENSATION and the PEBV datapoint first", () => {
    expect(topNames("sales", 3)).toContain("REVENUE");
    expect(topNames("net sales", 1)).toEqual(["REVENUE"]);
    expect(topNames("market cap", 1)).toEqual(["EQUITY_MARKET_VALUE"]);
    expect(topNames("stock based compensation", 1)).toEqual(["EXPENSES_STOCK_COMPENSATION"]);
    expect(topNames("price to economic book value", 1)).toEqual([
      "BOOK_VALUE_ECONOMIC_PER_SHARES_OUTSTANDING_SPLIT_ADJUSTED",
    ]);
  });

  it("says which hits the query spells out: a synonym or the name, not a name that only contains the words", () => {
    const sales = index.search("net sales", {}, 5);
    expect(sales.hits[0]?.datapoint.name).toBe("REVENUE");
    expect(sales.spelled[0]).toBe(true);
    const roic = index.search("roic", {}, 10);
    const spelled = roic.hits.filter((_, i) => roic.spelled[i]).map((h) => h.datapoint.name);
    expect([...new Set(spelled)]).toEqual(["ROIC"]);
  });

  it("names only datapoints of the catalog in its synonym list", () => {
    const names = new Set(DATASETS.flatMap((d) => d.datapoints.map((p) => p.name)));
    expect(Object.keys(SYNONYMS).filter((n) => !names.has(n))).toEqual([]);
  });
});
