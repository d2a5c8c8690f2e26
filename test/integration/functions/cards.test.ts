// FDQ.CARD, numbers with their source and entity arguments, called through their CustomFunctions.associate
// registrations as Excel calls them, against an in-process sandbox. Office's requirement sets and
// OfficeRuntime.storage (where the pane keeps the value options) are the test's own globals.
import { MemoryStorage } from "../../../src/api";
import { forgetValueOptions } from "../../../src/host/value-options-host";
import { configureSharedClient, resetSharedClient } from "../../../src/host/shared-client";
import { saveValueOptions, type ValueOptions } from "../../../src/functions/value-options";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { officeStorageDouble } from "../../support/office-storage";
import {
  excelCaller,
  installCustomFunctionsGlobal,
  loadFunctionsAsExcelDoes,
  removeCustomFunctionsGlobal,
  type CellOutcome,
} from "./excel-harness";

let sandbox: RunningSandbox;
let excel: ReturnType<typeof excelCaller>;
const storage = new MemoryStorage();
/** The requirement sets this Excel supports (CustomFunctionsRuntime 1.4 and ExcelApi 1.16 unless a test says). */
let supported = new Set(["CustomFunctionsRuntime 1.4", "ExcelApi 1.16"]);

type Json = Record<string, unknown>;

async function options(values: Partial<ValueOptions>): Promise<void> {
  await saveValueOptions(storage, { withSource: false, cardMetrics: [], ...values });
  forgetValueOptions();
}

/** A cell's outcome and the requests that reached the sandbox meanwhile. */
async function measured(work: () => Promise<CellOutcome>) {
  const before = sandbox.stats().requests;
  const outcome = await work();
  return { outcome, requests: sandbox.stats().requests - before };
}

const valueOf = (outcome: CellOutcome): Json => {
  if (!("value" in outcome)) throw new Error(`expected a value, got ${outcome.code} ${outcome.message}`);
  return outcome.value as Json;
};

const properties = (value: Json): Record<string, Json> => value.properties as Record<string, Json>;

/** A new client with a cold day cache, so each test counts its own requests. */
function freshClient(): void {
  configureSharedClient(
    { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey },
    { retry: { attempts: 1 }, storage: new MemoryStorage() },
  );
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const registry = installCustomFunctionsGlobal();
  Object.assign(globalThis, {
    Office: {
      context: {
        requirements: {
          isSetSupported: (name: string, version: string) => supported.has(`${name} ${version}`),
        },
      },
    },
    OfficeRuntime: { storage: officeStorageDouble(storage) },
  });
  excel = excelCaller(registry, await loadFunctionsAsExcelDoes(), "web");
});

beforeEach(async () => {
  supported = new Set(["CustomFunctionsRuntime 1.4", "ExcelApi 1.16"]);
  freshClient();
  await options({});
});

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
  removeCustomFunctionsGlobal();
  delete (globalThis as { Office?: unknown }).Office;
  delete (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime;
});

describe("FDQ.CARD", () => {
  it("is an entity whose text is the security's name and ticker, with its coverage fields", async () => {
    const name = await excel.cell("SECURITY", "AAPL", "name");
    const card = valueOf(await excel.cell("CARD", "AAPL"));
    expect(card.type).toBe("Entity");
    expect(card.text).toBe(`${valueOf(name) as unknown as string} (AAPL)`);
    const props = properties(card);
    for (const [property, field] of [
      ["Ticker", "ticker"],
      ["Name", "name"],
      ["Security type", "type"],
      ["Sector", "sector_name"],
      ["Subsector", "subsector_name"],
      ["Industry", "industry_name"],
      ["Subindustry", "subindustry_name"],
      ["Last trade date", "last_trade_date"],
    ] as const) {
      const expected = valueOf(await excel.cell("SECURITY", "AAPL", field)) as unknown as string;
      expect([property, props[property]]).toEqual([property, { type: "String", basicValue: expected }]);
    }
  });

  it("carries the six stock ratings as numbers that show their words", async () => {
    const props = properties(valueOf(await excel.cell("CARD", "AAPL")));
    const words = ["", "Very Attractive", "Attractive", "Neutral", "Unattractive", "Very Unattractive"];
    const fields = ["overall", "economic_eps", "roic", "fcf_yield", "pebv", "gap"];
    const names = [
      "Overall rating",
      "Economic EPS rating",
      "ROIC rating",
      "FCF yield rating",
      "PEBV rating",
      "GAP rating",
    ];
    for (const [i, field] of fields.entries()) {
      const rating = valueOf(await excel.cell("RATING", "AAPL", field)) as unknown as number;
      expect(props[names[i]!]).toEqual({
        type: "Double",
        basicValue: rating,
        numberFormat: `0" - ${words[rating]}"`,
      });
    }
    expect(Object.keys(props).filter((k) => k.endsWith(" rating"))).toEqual(names);
  });

  it("lays out titled sections with the provenance in the last: refresh day, units spent, source", async () => {
    const card = valueOf(await excel.cell("CARD", "AAPL"));
    const layout = (card.layouts as { card: { title: Json; sections: Json[] } }).card;
    expect(layout.title).toEqual({ property: "Name" });
    expect(layout.sections.map((s) => s.title)).toEqual(["Security", "Ratings", "Source"]);
    expect(layout.sections[2]!.properties).toEqual(["Refresh day", "Units spent this refresh day", "Source"]);
    const props = properties(card);
    expect(props["Refresh day"]).toEqual({
      type: "String",
      basicValue: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(props["Units spent this refresh day"]).toEqual({ type: "Double", basicValue: 2 });
    expect(props["Source"]).toEqual({
      type: "String",
      basicValue: `FDQ service (${new URL(sandbox.baseUrl).host}), fetched now`,
    });
    expect(card.provider).toEqual({ description: "FDQ, the Financial Data Query Service" });
  });

  it("costs its coverage and ratings calls, and nothing when recalculated on the same refresh day", async () => {
    const first = await measured(() => excel.cell("CARD", "AAPL"));
    expect(first.requests).toBe(2);
    const again = await measured(() => excel.cell("CARD", "AAPL"));
    expect(again.requests).toBe(0);
    const props = properties(valueOf(again.outcome));
    // The same provenance: the card was paid once this refresh day, and now comes from the day cache.
    expect(props["Units spent this refresh day"]).toEqual({ type: "Double", basicValue: 2 });
    expect((props["Source"] as Json).basicValue).toMatch(/, from this refresh day's cache$/);
  });

  it("gives an ETF its costs rating and a mutual fund its cash rating, without the fields that do not apply", async () => {
    const etf = properties(valueOf(await excel.cell("CARD", "QQQ")));
    expect(etf["Security type"]).toEqual({ type: "String", basicValue: "etf" });
    expect(etf["Costs rating"]).toMatchObject({ type: "Double" });
    expect(etf["Cash rating"]).toBeUndefined();
    expect(etf["Subindustry"]).toBeUndefined();
    const fund = properties(valueOf(await excel.cell("CARD", "GAFFX")));
    expect(fund["Security type"]).toEqual({ type: "String", basicValue: "mf" });
    expect(fund["Cash rating"]).toMatchObject({ type: "Double" });
  });

  it("gives an inactive ticker its last trade date and says it has no ratings", async () => {
    const props = properties(valueOf(await excel.cell("CARD", "ENRN:1")));
    const lastTrade = valueOf(await excel.cell("SECURITY", "ENRN:1", "last_trade_date")) as unknown as string;
    expect(props["Last trade date"]).toEqual({ type: "String", basicValue: lastTrade });
    expect(props["Ratings"]).toEqual({
      type: "String",
      basicValue: "none: The requested rating information was not found.",
    });
  });

  it("adds the chosen key metrics, each a number with its source, and costs them on top", async () => {
    // What the metric costs alone, on a cold cache: the value and the question FY0's resolution asks.
    const alone = await measured(() => excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY0"));
    const plain = valueOf(alone.outcome) as unknown as number;
    freshClient();
    await options({ cardMetrics: [{ dataset: "roic", name: "ROIC", period: "FY0" }] });
    const { outcome, requests } = await measured(() => excel.cell("CARD", "AAPL"));
    expect(requests).toBe(2 + alone.requests);
    expect(properties(valueOf(outcome))["Units spent this refresh day"]).toEqual({
      type: "Double",
      basicValue: 3,
    });
    const card = valueOf(outcome);
    const roic = properties(card)["ROIC"] as Json;
    expect(roic).toMatchObject({ type: "Double", basicValue: plain, numberFormat: "0.00%" });
    expect((roic.properties as Record<string, Json>)["Period"]).toEqual({
      type: "String",
      basicValue: expect.stringMatching(/^FY0 = fiscal \d{4}$/),
    });
    const sections = (card.layouts as { card: { sections: Json[] } }).card.sections;
    expect(sections.map((s) => s.title)).toEqual(["Security", "Ratings", "Key metrics", "Source"]);
  });

  it("is a #N/A saying why where Excel lacks the data-type requirement sets", async () => {
    supported = new Set(["ExcelApi 1.16"]);
    const { outcome, requests } = await measured(() => excel.cell("CARD", "AAPL"));
    expect(requests).toBe(0);
    expect(outcome).toEqual({
      code: "#N/A",
      message:
        "FDQ.CARD cannot show a card here. This version of Excel lacks CustomFunctionsRuntime 1.4 (custom functions that return data types), so FDQ returns plain values and FDQ.CARD cannot show a card. Use Excel for Microsoft 365 (Windows version 2208 or later, Mac 16.64 or later) or Excel on the web.",
    });
  });

  it("spends nothing in a value preview: #N/A with the units entering it costs", async () => {
    const { outcome, requests } = await measured(() => excel.preview("CARD", "AAPL"));
    expect(requests).toBe(0);
    expect(outcome).toEqual({
      code: "#N/A",
      message:
        "Not fetched for the preview: FDQ fetches this value when the formula is entered, which costs 2 units.",
    });
  });

  it("refuses an unknown ticker with FDQ.SECURITY's message", async () => {
    const card = await excel.cell("CARD", "NOPE");
    expect(card).toEqual(await excel.cell("SECURITY", "NOPE", "name"));
  });
});

describe("entities as ticker arguments", () => {
  it("reads the ticker of an FDQ card: FDQ.DATAPOINT and FDQ.RATING given a card answer as given its ticker", async () => {
    const card = valueOf(await excel.cell("CARD", "AAPL"));
    expect(await excel.cell("DATAPOINT", card, "roic", "ROIC", 2023)).toEqual(
      await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023),
    );
    expect(await excel.cell("RATING", card, "roic")).toEqual(await excel.cell("RATING", "AAPL", "roic"));
  });

  it("reads the ticker of Microsoft's Stocks entity, from its Ticker symbol or its text", async () => {
    const stocks = {
      type: "LinkedEntity",
      text: "Aplo Synthetic Holdings (XNAS:AAPL)",
      properties: { "Ticker symbol": { type: "String", basicValue: "AAPL" } },
    };
    const textOnly = { type: "LinkedEntity", text: "Aplo Synthetic Holdings (XNAS:AAPL)" };
    const expected = await excel.cell("SECURITY", "AAPL", "name");
    expect(await excel.cell("SECURITY", stocks, "name")).toEqual(expected);
    expect(await excel.cell("SECURITY", textOnly, "name")).toEqual(expected);
  });

  it("refuses another entity with a #VALUE! naming the argument, before any request", async () => {
    const product = {
      type: "Entity",
      text: "Gumbo Mix",
      properties: { Price: { type: "Double", basicValue: 3 } },
    };
    const { outcome, requests } = await measured(() =>
      excel.cell("DATAPOINT", product, "roic", "ROIC", 2023),
    );
    expect(requests).toBe(0);
    expect(outcome).toEqual({
      code: "#VALUE!",
      message:
        'ticker must be a ticker, an FDQ card (FDQ.CARD) or a Stocks data type (got the Entity value "Gumbo Mix", which has no ticker).',
    });
  });
});

describe("numbers with their source", () => {
  it("are off by default: FDQ.DATAPOINT answers a plain number", async () => {
    expect(valueOf(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY0"))).toEqual(expect.any(Number));
  });

  it("return a Double computing as the plain number, formatted for the datapoint, with the resolved period", async () => {
    const plain = valueOf(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY0")) as unknown as number;
    await options({ withSource: true });
    const value = valueOf(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", "FY0"));
    expect(value).toMatchObject({ type: "Double", basicValue: plain, numberFormat: "0.00%" });
    const props = value.properties as Record<string, Json>;
    expect(Object.keys(props)).toEqual([
      "Ticker",
      "Dataset",
      "Datapoint",
      "Period asked",
      "Period",
      "Period type",
      "Filing type",
      "Refresh day",
      "Restated since the day before",
    ]);
    expect(props["Dataset"]).toEqual({ type: "String", basicValue: "metrics/roic" });
    expect(props["Period asked"]).toEqual({ type: "String", basicValue: "FY0" });
    expect(props["Restated since the day before"]).toEqual({
      type: "String",
      basicValue: "not known: no value kept from the day before",
    });
  });

  it("return money in ones with a plain format, and every year of FDQ.SERIES as a Double", async () => {
    await options({ withSource: true });
    const revenue = valueOf(await excel.cell("DATAPOINT", "AAPL", "roic", "NOPAT", 2023));
    expect(revenue).toMatchObject({ type: "Double", numberFormat: "#,##0" });
    const row = (
      valueOf(await excel.cell("SERIES", "AAPL", "roic", "ROIC", 2021, 2023)) as unknown as Json[][]
    )[0]!;
    expect(row.map((v) => [v.type, (v.properties as Record<string, Json>)["Period"]])).toEqual(
      [2021, 2022, 2023].map((y) => ["Double", { type: "String", basicValue: `fiscal ${y}` }]),
    );
  });

  it("return FDQ.SECTOR and FDQ.DATASET numbers as Doubles and leave text as text", async () => {
    await options({ withSource: true });
    expect(valueOf(await excel.cell("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG"))).toMatchObject({
      type: "Double",
    });
    const rows = valueOf(await excel.cell("DATASET", "AAPL", "roic", 2023)) as unknown as unknown[][];
    for (const [name, value] of rows) {
      expect([name, typeof value === "number" ? "plain" : typeof value]).toEqual([name, "object"]);
    }
    expect(valueOf(await excel.cell("SECTOR", "TECHNOLOGYSEC", "CATEGORY_TYPE"))).toEqual(expect.any(String));
  });

  it("keep errors as today's Excel errors with their messages", async () => {
    const plain = await excel.cell("DATAPOINT", "AAPL", "roic", "NO_SUCH", 2023);
    await options({ withSource: true });
    expect(await excel.cell("DATAPOINT", "AAPL", "roic", "NO_SUCH", 2023)).toEqual(plain);
  });

  it("reach another FDQ function as their number", async () => {
    await options({ withSource: true });
    const year = { type: "Double", basicValue: 2023, properties: {} };
    expect(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", year)).toMatchObject({
      value: { type: "Double", properties: { Period: { type: "String", basicValue: "fiscal 2023" } } },
    });
  });

  it("stay plain numbers where Excel lacks the requirement sets, whatever the option says", async () => {
    await options({ withSource: true });
    supported = new Set();
    forgetValueOptions();
    expect(valueOf(await excel.cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023))).toEqual(expect.any(Number));
  });
});
