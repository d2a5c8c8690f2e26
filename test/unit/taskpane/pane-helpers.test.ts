import { MemoryStorage } from "../../../src/api";
import {
  BUILDER_WHEN,
  DEFAULT_WHEN,
  builderFormula,
  builderProblem,
  type BuilderChoice,
} from "../../../src/taskpane/logic/formula-builder";
import { PanePrefs } from "../../../src/taskpane/logic/pane-prefs";
import { periodDetail, periodLabel, resolvedText } from "../../../src/taskpane/logic/period";
import { SecurityIndex } from "../../../src/taskpane/logic/ticker-search";
import { cellAddress, parseAddress } from "../../../src/taskpane/office/a1";
import { themeOf } from "../../../src/taskpane/office/platform";
import { isFdqFormula } from "../../../src/taskpane/office/workbook";

const choice: BuilderChoice = {
  ticker: " aapl ",
  dataset: "metrics/roic",
  datapoint: "ROIC",
  year: 2023,
  kind: "annual",
  quarter: 2,
};

describe("formula builder", () => {
  it("writes FDQ.DATAPOINT with the period as quarter or ttm argument", () => {
    expect(builderFormula(choice)).toBe('=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)');
    expect(builderFormula({ ...choice, kind: "quarter" })).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023,2)',
    );
    expect(builderFormula({ ...choice, kind: "ttm" })).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023,,2)',
    );
    expect(builderFormula({ ...choice, ticker: "ENRN:1" })).toBe(
      '=FDQ.DATAPOINT("ENRN:1","metrics/roic","ROIC",2023)',
    );
  });
  it("writes a relative period (FY0, FQ0, LTM) with no quarter or ttm, and offers it first", () => {
    expect(builderFormula({ ...choice, when: "FY0" })).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","FY0")',
    );
    expect(builderFormula({ ...choice, when: "FQ0", kind: "quarter" })).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","FQ0")',
    );
    expect(builderFormula({ ...choice, when: "LTM" })).toBe(
      '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","LTM")',
    );
    expect(builderProblem({ ...choice, when: "FY0", year: Number.NaN })).toBeUndefined();
    expect(BUILDER_WHEN.map((w) => w.label)).toEqual([
      "Latest fiscal year (FY0)",
      "Latest quarter (FQ0)",
      "Last twelve months (LTM)",
      "A fixed fiscal year",
    ]);
    expect(DEFAULT_WHEN).toBe("FY0");
  });
  it("says what is missing before it makes a formula", () => {
    expect(builderProblem({ ...choice, ticker: "" })).toBe("Enter a ticker, e.g. AAPL.");
    expect(builderProblem({ ...choice, year: Number.NaN })).toBe("Enter a fiscal year.");
    expect(builderProblem({ ...choice, kind: "ttm", quarter: 5 })).toBe("Choose a quarter from 1 to 4.");
    expect(builderProblem(choice)).toBeUndefined();
  });
});

describe("periods", () => {
  it("labels annual, quarterly and TTM periods and lists the quarters a TTM covers", () => {
    expect(periodLabel({ year: 2023 })).toBe("FY2023");
    expect(periodLabel({ year: 2023, quarter: 1 })).toBe("Q1 FY2023");
    expect(periodDetail({ year: 2023 })).toBe("Fiscal year 2023 (ANNUAL, period 5).");
    expect(periodDetail({ year: 2023, ttm: 1 })).toBe(
      "Trailing twelve months ending with Q1 of fiscal year 2023: Q1 of 2023 plus Q4, Q3, Q2 of 2022 (TTM, period 1).",
    );
    expect(periodDetail({ year: 2023, ttm: 4 })).toBe(
      "Trailing twelve months ending with Q4 of fiscal year 2023: Q4, Q3, Q2, Q1 of 2023 (TTM, period 4).",
    );
  });
  it("reads a quarter or ttm of 0 as the functions do: an empty cell, so omitted", () => {
    expect(periodLabel({ year: 2023, quarter: 0 })).toBe("FY2023");
    expect(periodLabel({ year: 2023, quarter: 0, ttm: 2 })).toBe("TTM to Q2 FY2023");
    expect(periodLabel({ year: "FY-1", quarter: 2, ttm: 0 })).toBe("Q2 FY-1");
  });
  it("labels relative periods and says what they count from, and what they resolved to", () => {
    expect(periodLabel({ year: "fy0" })).toBe("FY0");
    expect(periodLabel({ year: "FY-1", quarter: 2 })).toBe("Q2 FY-1");
    expect(periodLabel({ year: "ltm" })).toBe("LTM");
    expect(periodDetail({ year: "FQ-2" })).toBe(
      "A relative period: the latest fiscal quarter with a quarterly value, 2 periods back, found from the service's answers each refresh day, so the model rolls forward by itself.",
    );
    expect(
      resolvedText(
        {
          text: "FY0",
          year: 2024,
          period: 5,
          periodtype: "ANNUAL",
          words: "FY0 = fiscal 2024",
          resolvedOn: "2026-11-24",
        },
        "AAPL",
      ),
    ).toBe("FY0 = fiscal 2024 for AAPL, resolved on refresh day 2026-11-24");
  });
});

describe("ticker search", () => {
  const index = new SecurityIndex([
    { ticker: "AAPL", name: "Apple Inc.", type: "stock", lastTradeDate: "2024-01-02" },
    { ticker: "AAP", name: "Advance Auto Parts", type: "stock", lastTradeDate: "2024-01-02" },
    { ticker: "QQQ", name: "Invesco QQQ Trust", type: "etf", lastTradeDate: "2024-01-02" },
    { ticker: "PAPL", name: "Pineapple Holdings", type: "inactive", lastTradeDate: "2019-05-01" },
  ]);
  const tickers = (q: string, type?: string): string[] => index.search(q, type).map((s) => s.ticker);
  it("ranks exact ticker, ticker prefix, name start, name word, then name substring", () => {
    expect(tickers("aap")).toEqual(["AAP", "AAPL"]);
    expect(tickers("apple")).toEqual(["AAPL", "PAPL"]);
    expect(tickers("trust")).toEqual(["QQQ"]);
  });
  it("filters by security type", () => {
    expect(tickers("", "inactive")).toEqual(["PAPL"]);
    expect(index.size).toBe(4);
  });
});

describe("A1 addresses", () => {
  it("reads and writes sheet-qualified addresses, quoting sheet names with spaces", () => {
    expect(parseAddress("'Model 2'!$B$5:C9")).toEqual({ sheet: "Model 2", row: 4, column: 1, cell: "B5" });
    expect(cellAddress({ sheet: "Model 2", row: 4, column: 27 })).toBe("'Model 2'!AB5");
    expect(cellAddress({ sheet: "Sheet1", row: 0, column: 0 })).toBe("Sheet1!A1");
  });
});

describe("Office theme and FDQ formulas", () => {
  it("takes a dark body background for the dark theme", () => {
    expect(themeOf({ bodyBackgroundColor: "#262626" })).toBe("dark");
    expect(themeOf({ bodyBackgroundColor: "#FFFFFF" })).toBe("light");
    expect(themeOf(undefined)).toBe("light");
  });
  it("recognises formulas that call an FDQ function", () => {
    expect(isFdqFormula('=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)')).toBe(true);
    expect(isFdqFormula('=ROUND(fdq.rating("AAPL"),0)')).toBe(true);
    expect(isFdqFormula("=SUM(A1:A3)")).toBe(false);
    expect(isFdqFormula("FDQ.DATAPOINT is text")).toBe(false);
  });
});

describe("pane preferences", () => {
  it("refreshes on a new day unless turned off, and keeps the last refresh", async () => {
    const prefs = new PanePrefs(new MemoryStorage());
    expect(await prefs.autoRefresh()).toBe(true);
    await prefs.setAutoRefresh(false);
    expect(await prefs.autoRefresh()).toBe(false);
    expect(await prefs.lastRefresh()).toBeUndefined();
    await prefs.setLastRefresh({ day: "2024-03-01", at: 5 });
    expect(await prefs.lastRefresh()).toEqual({ day: "2024-03-01", at: 5 });
  });
  it("counts usage per refresh day and starts again on a new day", async () => {
    const prefs = new PanePrefs(new MemoryStorage());
    await prefs.addUsage("2024-03-01", 3, 1);
    expect(await prefs.addUsage("2024-03-01", 2, 4)).toEqual({
      day: "2024-03-01",
      requests: 5,
      cacheHits: 5,
    });
    expect(await prefs.usage("2024-03-02")).toEqual({ day: "2024-03-02", requests: 0, cacheHits: 0 });
  });
});
