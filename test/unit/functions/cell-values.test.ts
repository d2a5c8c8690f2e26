// The data-type values FDQ returns (cards and numbers with their source), their rules, and what reads them back:
// entity arguments, the host's support, the metadata's agreement with them. The `satisfies` lines are checked by
// tsc (npm run typecheck): the values the functions build are Excel.EntityCellValue and Excel.DoubleCellValue as
// @types/office-js declares them.
import { readFdqCall } from "../../../src/functions/formula";
import {
  cellValueProblems,
  double,
  MAX_PROPERTY_NAME,
  MAX_TEXT,
  PropertyList,
  propertyNameProblem,
  text,
  type DoubleValue,
  type EntityValue,
} from "../../../src/functions/cell-values";
import { metricNames, ratingValue } from "../../../src/functions/impl/card";
import { basicArg, tickerArg } from "../../../src/functions/impl/ticker-arg";
import { requestsOf } from "../../../src/functions/requests";
import {
  DECIMAL_FORMAT,
  GENERAL_FORMAT,
  MONEY_FORMAT,
  numberFormatOf,
  PERCENT_FORMAT,
} from "../../../src/catalog";
import { richValueSupport } from "../../../src/host/rich-value-support";
import { cardMetricsOf } from "../../../src/cli/options";
import { metadataProblems, valueProblems } from "../../../scripts/validate-functions";

const metric = (dataset: string, name: string, period: string) => ({ dataset, name, period });

describe("cell values", () => {
  it("are the shapes @types/office-js declares for Excel.EntityCellValue and Excel.DoubleCellValue", () => {
    const number: DoubleValue = { ...double(0.146, "0.00%"), properties: { Ticker: text("AAPL") } };
    const card: EntityValue = {
      type: "Entity",
      text: "Aplo Synthetic Holdings (AAPL)",
      properties: { Name: text("Aplo Synthetic Holdings"), ROIC: number, "ROIC rating": ratingValue(1) },
      layouts: {
        card: { title: { property: "Name" }, sections: [{ layout: "List", properties: ["ROIC"] }] },
      },
      provider: { description: "FDQ" },
    };
    expect(card satisfies Excel.EntityCellValue).toBe(card);
    expect(number satisfies Excel.DoubleCellValue).toBe(number);
    expect(cellValueProblems(card)).toEqual([]);
  });

  it("keep the shape the functions build: a card with metrics and a number with its source (npm run validate)", async () => {
    expect(await valueProblems()).toEqual([]);
  });

  it("show a rating's words through its number format, so it still computes as the number", () => {
    expect(ratingValue(2)).toEqual({ type: "Double", basicValue: 2, numberFormat: '0" - Attractive"' });
    expect(ratingValue(5)).toEqual({
      type: "Double",
      basicValue: 5,
      numberFormat: '0" - Very Unattractive"',
    });
    expect(ratingValue(7)).toEqual({ type: "Double", basicValue: 7 });
  });

  it("cut text at Excel's 32,767 characters", () => {
    expect(text("x".repeat(MAX_TEXT + 5)).basicValue).toHaveLength(MAX_TEXT);
  });
});

describe("property names", () => {
  it("must not be empty, longer than 255 characters, or equal to another without regard to case", () => {
    expect(propertyNameProblem(" ", [])).toBe("a property name must not be empty");
    expect(propertyNameProblem("x".repeat(MAX_PROPERTY_NAME + 1), [])).toBe(
      "a property name is at most 255 characters",
    );
    expect(propertyNameProblem("roic", ["ROIC"])).toBe("two properties are named roic (names ignore case)");
    expect(propertyNameProblem("ROIC FY-1", ["ROIC"])).toBeUndefined();
  });

  it("take their alternative when taken, and a card refuses a name that breaks the rules", () => {
    const list = new PropertyList();
    expect(list.add("Name", text("a"))).toBe("Name");
    expect(list.add("NAME", double(1), "NAME FY0")).toBe("NAME FY0");
    expect(() => list.add("name", double(1))).toThrow(
      "FDQ card: two properties are named name (names ignore case).",
    );
  });

  it("are checked in what Excel is given: duplicates, a section naming nothing, a non-finite number", () => {
    const bad = {
      type: "Entity",
      text: "X",
      properties: { A: text("a"), a: double(Number.NaN) },
      layouts: { card: { title: { property: "B" }, sections: [{ layout: "List", properties: ["C"] }] } },
    };
    expect(cellValueProblems(bad)).toEqual([
      "value: two properties are named a (names ignore case)",
      "value.a: a Double's basicValue must be a finite number",
      "value: the card's title names no property (B)",
      "value: a card section names no property (C)",
    ]);
  });

  it("of key metrics: the datapoint's name goes to its latest period, the others carry theirs", () => {
    expect(
      metricNames([
        metric("roic", "ROIC", "FY-1"),
        metric("roic", "roic", "FY0"),
        metric("enhanced", "FREE_CASH_FLOW", "FY0"),
      ]),
    ).toEqual(["ROIC FY-1", "ROIC", "FREE_CASH_FLOW"]);
    expect(metricNames([metric("roic", "ROIC", "FY-2"), metric("roic", "ROIC", "FY-1")])).toEqual([
      "ROIC",
      "ROIC FY-1",
    ]);
  });
});

describe("number formats", () => {
  it("suit the datapoint: percent for ratios, plain for money in ones, decimals per share, general for ratings", () => {
    expect(
      [
        "ROIC",
        "FCF_YIELD",
        "CASH_TAX_RATE",
        "NOPAT_PER_REVENUE",
        "REVENUE_YOY_DELTA_PCT",
        "WACC",
        "ECONOMIC_PROFIT_MARGIN",
      ].map(numberFormatOf),
    ).toEqual(Array(7).fill(PERCENT_FORMAT));
    expect(["NOPAT", "REVENUE", "FREE_CASH_FLOW", "DEBT"].map(numberFormatOf)).toEqual(
      Array(4).fill(MONEY_FORMAT),
    );
    expect(
      ["INCOME_NET_PER_WADSO", "ACCOUNTS_PAYABLE_TURNOVER", "DAYS_IN_ACCOUNTS_PAYABLE"].map(numberFormatOf),
    ).toEqual(Array(3).fill(DECIMAL_FORMAT));
    expect(["RATING_ROIC", "RATING_RANK", "COUNT_COMPANY", "GAP_WAVG"].map(numberFormatOf)).toEqual(
      Array(4).fill(GENERAL_FORMAT),
    );
  });
});

describe("entity arguments", () => {
  const card = {
    type: "Entity",
    text: "Aplo (AAPL)",
    properties: { Ticker: { type: "String", basicValue: "AAPL" } },
    provider: { description: "FDQ, the Financial Data Query Service" },
  };

  it("give an FDQ card's Ticker, a Stocks entity's Ticker symbol or the ticker in its text; text passes on", () => {
    expect(tickerArg(card)).toBe("AAPL");
    expect(
      tickerArg({ type: "LinkedEntity", text: "Apple Inc.", properties: { "Ticker symbol": "MSFT" } }),
    ).toBe("MSFT");
    expect(tickerArg({ type: "LinkedEntity", text: "Berkshire Hathaway Inc. (XNYS:BRK.B)" })).toBe("BRK.B");
    expect(tickerArg("aapl")).toBe("aapl");
    expect(tickerArg(42)).toBe(42);
  });

  it("refuse another entity with a #VALUE! naming the argument", () => {
    expect(() => tickerArg({ type: "Entity", text: "Gumbo Mix" }, "ticker")).toThrow(
      'ticker must be a ticker, an FDQ card (FDQ.CARD) or a Stocks data type (got the Entity value "Gumbo Mix", which has no ticker).',
    );
    // Another provider's entity with a Ticker property is not an FDQ card.
    expect(() => tickerArg({ ...card, provider: { description: "Other" } })).toThrow(/which has no ticker/);
  });

  it("read a number with its source, or any basic data type, as its basicValue", () => {
    expect(basicArg({ type: "Double", basicValue: 2023, properties: {} })).toBe(2023);
    expect(basicArg({ type: "String", basicValue: "FY0" })).toBe("FY0");
    expect(basicArg(card)).toBe(card);
    expect(basicArg(null)).toBeNull();
  });
});

describe("richValueSupport", () => {
  const host = (...sets: string[]) => ({
    isSetSupported: (name: string, v?: string) => sets.includes(`${name} ${v}`),
  });

  it("is supported with CustomFunctionsRuntime 1.4 and ExcelApi 1.16", () => {
    expect(richValueSupport(host("CustomFunctionsRuntime 1.4", "ExcelApi 1.16"))).toEqual({
      supported: true,
    });
  });

  it("says which requirement set is missing and what to do", () => {
    expect(richValueSupport(host("CustomFunctionsRuntime 1.4"))).toEqual({
      supported: false,
      reason:
        "This version of Excel lacks ExcelApi 1.16 (cards and formatted numbers), so FDQ returns plain values and FDQ.CARD cannot show a card. Use Excel for Microsoft 365 (Windows version 2208 or later, Mac 16.64 or later) or Excel on the web.",
    });
    expect(richValueSupport(host()).reason).toMatch(
      /^This version of Excel lacks CustomFunctionsRuntime 1.4 \(custom functions that return data types\) and ExcelApi 1.16/,
    );
  });

  it("is not supported outside Office, saying so", () => {
    expect(richValueSupport(undefined)).toEqual({
      supported: false,
      reason:
        "Cards and numbers with their source need Excel: Office is not available here. Use Excel for Microsoft 365 (Windows version 2208 or later, Mac 16.64 or later) or Excel on the web.",
    });
  });
});

describe("FDQ.CARD's requests (Estimate and --budget)", () => {
  it("are its coverage look-ups, its ratings and each chosen metric", async () => {
    const call = readFdqCall('=FDQ.CARD("AAPL")');
    expect((await requestsOf(call)).map((r) => r.kind)).toEqual([
      "security",
      "ratings",
      "security",
      "security",
    ]);
    const options = { withSource: false, cardMetrics: [metric("roic", "ROIC", "FY0")] };
    expect((await requestsOf(call, options)).map((r) => r.kind)).toEqual([
      "security",
      "ratings",
      "datapoint",
      "security",
      "security",
    ]);
  });
});

describe("--card-metric", () => {
  it("reads DATASET:NAME:PERIOD and refuses other forms", () => {
    expect(cardMetricsOf(["roic:ROIC:FY0", " enhanced : FREE_CASH_FLOW : fy-1 "])).toEqual([
      metric("roic", "ROIC", "FY0"),
      metric("enhanced", "FREE_CASH_FLOW", "fy-1"),
    ]);
    expect(() => cardMetricsOf(["roic:ROIC"])).toThrow("--card-metric roic:ROIC: give DATASET:NAME:PERIOD");
    expect(() => cardMetricsOf(Array(13).fill("roic:ROIC:FY0"))).toThrow(
      "--card-metric: at most 12 metrics (got 13).",
    );
  });
});

describe("npm run validate's metadata check", () => {
  const good = {
    allowCustomDataForDataTypeAny: true,
    functions: ["DATAPOINT", "DATASET", "SERIES", "SECTOR", "CARD"].map((id) => ({
      id,
      parameters: [{ name: "ticker", type: "any" }],
      result: {},
    })),
  };

  it("passes metadata that allows custom data, types tickers any and declares rich results any", () => {
    expect(metadataProblems(good)).toEqual([]);
  });

  it("names each disagreement", () => {
    const bad = {
      functions: [
        { id: "DATAPOINT", parameters: [{ name: "ticker", type: "string" }], result: { type: "number" } },
        ...good.functions.slice(1),
      ],
    };
    expect(metadataProblems(bad)).toEqual([
      "functions.json: allowCustomDataForDataTypeAny is not true, so Excel passes no entity to a function",
      "functions.json: DATAPOINT's ticker is string, not any: it cannot take a card",
      "functions.json: DATAPOINT returns data-type values but declares its result number",
    ]);
  });
});
