// The datapoint search of the task pane and `fdq search`: MiniSearch underneath, ranked so that the
// datapoint whose name the query's words spell out comes first. Positions are asserted exactly.
import { DATASETS } from "../../../src/catalog";
import { CatalogSearchIndex, type SearchFilters } from "../../../src/catalog/search";

const index = CatalogSearchIndex.fromCatalog();
const keys = (query: string, filters: SearchFilters = {}, limit = 100): string[] =>
  index.search(query, filters, limit).hits.map((h) => `${h.dataset.path}:${h.datapoint.name}`);
const top3 = (query: string): string[] => keys(query, {}, 3);

describe("words that spell out a name find that datapoint first", () => {
  it("'return on invested capital' is ROIC, before ROIC_CAPITAL_INVESTED whose name holds more words", () => {
    expect(top3("return on invested capital")).toEqual([
      "metrics/roic:ROIC",
      "screens/enhanced:ROIC",
      "metrics/roic:ROIC_CAPITAL_INVESTED",
    ]);
  });

  it("'economic book value' is BOOK_VALUE_ECONOMIC, whatever the order of the words", () => {
    expect(top3("economic book value")).toEqual([
      "metrics/ebv:BOOK_VALUE_ECONOMIC",
      "screens/enhanced:BOOK_VALUE_ECONOMIC",
      "fundamentals/adjusted:BOOK_VALUE_ECONOMIC",
    ]);
  });

  it("'free cash flow' is FREE_CASH_FLOW, the one datapoint holding all three words", () => {
    expect(top3("free cash flow")).toEqual(["screens/enhanced:FREE_CASH_FLOW"]);
  });

  it("a misspelled 'retrun on invsted captal' still finds ROIC first", () => {
    expect(top3("retrun on invsted captal")).toEqual([
      "metrics/roic:ROIC",
      "screens/enhanced:ROIC",
      "metrics/roic:ROIC_CAPITAL_INVESTED",
    ]);
  });
});

describe("a name typed as it is written", () => {
  it("puts the exact name first, in every dataset that lists it", () => {
    expect(keys("ROIC", {}, 3)).toEqual([
      "metrics/roic:ROIC",
      "screens/enhanced:ROIC",
      "metrics/roic:ROIC_GAAP",
    ]);
  });

  it("reads underscores as spaces, so a pasted name finds itself before longer names", () => {
    expect(keys("BOOK_VALUE_ECONOMIC", {}, 4)).toEqual([
      "metrics/ebv:BOOK_VALUE_ECONOMIC",
      "screens/enhanced:BOOK_VALUE_ECONOMIC",
      "fundamentals/adjusted:BOOK_VALUE_ECONOMIC",
      "fundamentals/adjusted:BOOK_VALUE_ECONOMIC_PER_SHARES_OUTSTANDING_SPLIT_ADJUSTED",
    ]);
  });
});

describe("while typing", () => {
  it("matches the beginning of the name's last word", () => {
    expect(keys("capital_invested_q")).toEqual([
      "metrics/roic:CAPITAL_INVESTED_Q_AVG",
      "metrics/roic:ROIC_CAPITAL_INVESTED_Q_AVG",
    ]);
    expect(keys("free ca")).toEqual(["screens/enhanced:FREE_CASH_FLOW"]);
  });

  it("ignores a last word that may be the start of a stop word ('o' of 'of')", () => {
    expect(keys("weighted average cost o")).toEqual(["metrics/ebv:WACC"]);
  });

  it("keeps the results of the words before a misspelled word still being typed", () => {
    expect(keys("retrun on invs", {}, 1)).toEqual(["metrics/roic:ROIC"]);
  });

  it("finds nothing for one misspelled word that is not yet complete", () => {
    expect(keys("retr")).toEqual([]);
  });
});

describe("abbreviations", () => {
  it("finds a name by the abbreviation of its words: fcf, ebv, npv", () => {
    expect(keys("fcf")).toEqual(["screens/enhanced:FREE_CASH_FLOW"]);
    expect(keys("ebv", {}, 3)).toEqual([
      "metrics/ebv:BOOK_VALUE_ECONOMIC",
      "screens/enhanced:BOOK_VALUE_ECONOMIC",
      "fundamentals/adjusted:BOOK_VALUE_ECONOMIC",
    ]);
    expect(keys("npv")).toEqual([
      "reconciliation/book-value-to-invested-capital:LEASES_OPERATING_OBLIGATION_NET_PRESENT_VALUE",
      "reconciliation/total-assets-to-invested-capital:LEASES_OPERATING_OBLIGATION_NET_PRESENT_VALUE",
    ]);
  });

  it("finds an abbreviated name by the words it stands for: SGA, WADSO", () => {
    expect(keys("selling general")).toEqual([
      "screens/traditional:EXPENSES_SGA",
      "fundamentals/reported:EXPENSES_SGA",
    ]);
    expect(keys("diluted shares", {}, 1)).toEqual([
      "reconciliation/core-earnings-to-net-income:WADSO_SPLIT_ADJUSTED",
    ]);
  });
});

describe("typos", () => {
  it("forgives missing and wrong letters in whole words", () => {
    expect(keys("acounts payble", {}, 2)).toEqual([
      "fundamentals/adjusted:ACCOUNTS_PAYABLE",
      "fundamentals/reported:ACCOUNTS_PAYABLE",
    ]);
  });

  it("ranks a misspelled query as the correctly spelled one", () => {
    const misspelled = keys("deprecation amortisation");
    expect(misspelled).toEqual(keys("depreciation amortization"));
    expect(misspelled[0]).toBe("screens/traditional:EXPENSES_DEPRECIATION_AND_AMORTIZATION");
  });
});

describe("one name in several datasets", () => {
  it("keeps an entry per dataset, side by side, the dataset the words name first", () => {
    expect(keys("enhanced roic", {}, 1)).toEqual(["screens/enhanced:ROIC"]);
    const incomeNet = DATASETS.filter((d) => d.datapoints.some((p) => p.name === "INCOME_NET")).length;
    const hits = keys("net income", {}, incomeNet + 1);
    expect(hits.slice(0, incomeNet).every((k) => k.endsWith(":INCOME_NET"))).toBe(true);
    expect(hits[0]).toBe("reconciliation/core-earnings-to-net-income:INCOME_NET");
    expect(hits[incomeNet]).toBe("fundamentals/reported:INCOME_NET_PER_WABSO");
  });
});

describe("filters", () => {
  it("keeps only the chosen dataset's entries", () => {
    expect(keys("roic", { dataset: "screens/enhanced" })).toEqual([
      "screens/enhanced:ROIC",
      "screens/enhanced:CAPITAL_INVESTED_ADJUSTED",
    ]);
  });

  it("keeps only the chosen category, also with a dataset", () => {
    expect(keys("payable", { dataset: "fundamentals/adjusted", category: "SIC" })).toEqual([
      "fundamentals/adjusted:ACCOUNTS_PAYABLE_TURNOVER",
    ]);
    const cil = index.search("", { category: "CIL" });
    expect(cil.hits.map((h) => h.datapoint.name)).toEqual([
      "ACCOUNTS_PAYABLE",
      "DEBT_FINANCIAL",
      "DEBT_SHORT_TERM",
      "ACCOUNTS_PAYABLE",
      "DEBT_FINANCIAL",
      "DEBT_SHORT_TERM",
    ]);
  });
});

describe("an empty query", () => {
  it("lists every datapoint of every dataset once, in catalog order", () => {
    const expected = DATASETS.flatMap((d) => d.datapoints.map((p) => `${d.path}:${p.name}`));
    expect(index.entries).toHaveLength(expected.length);
    const all = index.search("   ", {}, expected.length);
    expect(all.total).toBe(expected.length);
    expect(all.hits.map((h) => `${h.dataset.path}:${h.datapoint.name}`)).toEqual(expected);
  });
});

describe("a query with no match", () => {
  it("finds nothing when any word matches nothing", () => {
    expect(index.search("zzz")).toEqual({ hits: [], total: 0, spelled: [] });
    expect(index.search("ebitda nonexistentword")).toEqual({ hits: [], total: 0, spelled: [] });
  });
});

describe("limit", () => {
  it("limits the hits but counts every match", () => {
    const all = index.search("core", {}, 1000);
    const result = index.search("core", {}, 3);
    expect(result.hits).toEqual(all.hits.slice(0, 3));
    expect(result.total).toBe(all.hits.length);
    expect(all.total).toBe(all.hits.length);
    expect(all.total).toBeGreaterThan(3);
  });
});

describe("descriptions given by the service", () => {
  it("are searched and shown in place of the catalog's", () => {
    const custom = CatalogSearchIndex.fromCatalog(new Map([["WACC", "Hurdle rate for capital <b>x</b>"]]));
    const hits = custom.search("hurdle").hits;
    expect(hits.map((h) => h.datapoint.name)).toEqual(["WACC"]);
    expect(hits[0]?.description).toBe("Hurdle rate for capital <b>x</b>");
  });
});
