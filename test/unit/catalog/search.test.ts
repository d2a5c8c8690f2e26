import { DATASETS } from "../../../src/catalog";
import { CatalogSearchIndex, editDistance } from "../../../src/catalog/search";

const index = CatalogSearchIndex.fromCatalog();
const keys = (query: string, filters = {}, limit = 100): string[] =>
  index.search(query, filters, limit).hits.map((h) => `${h.dataset.path}:${h.datapoint.name}`);

describe("catalog search index", () => {
  it("indexes every datapoint of every dataset once", () => {
    const expected = DATASETS.reduce((n, d) => n + d.datapoints.length, 0);
    expect(index.entries).toHaveLength(expected);
    expect(index.search("").total).toBe(expected);
  });

  it("finds a datapoint by its exact name first, in every dataset that has it", () => {
    expect(keys("ROIC", {}, 2)).toEqual(["metrics/roic:ROIC", "screens/enhanced:ROIC"]);
    expect(keys("accounts payable", {}, 2)).toEqual([
      "fundamentals/adjusted:ACCOUNTS_PAYABLE",
      "fundamentals/reported:ACCOUNTS_PAYABLE",
    ]);
  });

  it("matches word prefixes of the name", () => {
    const hits = keys("core earn");
    expect(hits[0]).toBe("reconciliation/core-earnings-to-net-income:CORE_EARNINGS_AFTER_TAX");
    expect(hits.every((k) => /CORE.*EARN/.test(k.split(":")[1] ?? ""))).toBe(true);
  });

  it("matches words of the description (expanded abbreviations)", () => {
    // "weighted average diluted shares outstanding" is the description of WADSO names.
    const hits = keys("diluted shares");
    expect(hits).toContain("reconciliation/core-earnings-to-net-income:WADSO_SPLIT_ADJUSTED");
    expect(hits.every((k) => k.includes("WADSO"))).toBe(true);
  });

  it("tolerates typos: transposed, missing and wrong letters", () => {
    expect(keys("acounts payble", {}, 2)).toEqual([
      "fundamentals/adjusted:ACCOUNTS_PAYABLE",
      "fundamentals/reported:ACCOUNTS_PAYABLE",
    ]);
    expect(keys("retrun on invested", {}, 1)).toEqual(["metrics/roic:ROIC_CAPITAL_INVESTED"]);
    const typed = keys("deprecation amortisation");
    expect(typed).toEqual(keys("depreciation amortization"));
    expect(typed[0]).toBe("screens/traditional:EXPENSES_DEPRECIATION_AND_AMORTIZATION");
  });

  it("does not treat short words or first-letter changes as typos", () => {
    expect(keys("wacc")).toEqual(["metrics/ebv:WACC"]);
    expect(keys("zzz")).toEqual([]);
  });

  it("requires every word of the query to match", () => {
    expect(keys("ebitda nonexistentword")).toEqual([]);
  });

  it("filters by dataset and by category", () => {
    expect(keys("accounts payable", { dataset: "fundamentals/reported" })).toEqual([
      "fundamentals/reported:ACCOUNTS_PAYABLE",
    ]);
    const cil = index.search("", { category: "CIL" });
    expect(cil.total).toBeGreaterThan(0);
    expect(cil.hits.every((h) => h.datapoint.category === "CIL")).toBe(true);
    expect(keys("payable", { dataset: "fundamentals/adjusted", category: "SIC" })).toEqual([
      "fundamentals/adjusted:ACCOUNTS_PAYABLE_TURNOVER",
    ]);
  });

  it("limits the hits but reports the full count", () => {
    const result = index.search("core", {}, 3);
    expect(result.hits).toHaveLength(3);
    expect(result.total).toBeGreaterThan(3);
  });

  it("uses descriptions given by the service in place of the catalog's", () => {
    const custom = CatalogSearchIndex.fromCatalog(new Map([["WACC", "Hurdle rate for capital <b>x</b>"]]));
    const hit = custom.search("hurdle").hits;
    expect(hit.map((h) => h.datapoint.name)).toEqual(["WACC"]);
    expect(hit[0]?.description).toBe("Hurdle rate for capital <b>x</b>");
  });
});

describe("editDistance", () => {
  it("counts an adjacent transposition as one edit", () => {
    expect(editDistance("retrun", "return", 2)).toBe(1);
  });
  it("measures against the closest prefix in prefix mode", () => {
    expect(editDistance("depre", "depreciation", 1)).toBe(2);
    expect(editDistance("depre", "depreciation", 1, true)).toBe(0);
    expect(editDistance("deprc", "depreciation", 1, true)).toBe(1);
  });
  it("stops at max + 1", () => {
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});
