// FDQ's data-type values in the Office double (test/support/office-double), the fake Excel of the browser tests:
// the real functions (src/functions/functions.ts) registered with it, shaped by the functions.json the build
// generates, against an in-process sandbox. A card's properties are read by dot notation, a card is passed as a
// ticker, numbers with their source compute as numbers, and what Excel would refuse shows #VALUE!.
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { MemoryStorage } from "../../../src/api";
import * as functions from "../../../src/functions/functions";
import { saveValueOptions } from "../../../src/functions/value-options";
import {
  configureSharedClient,
  officeRuntimeStorage,
  resetSharedClient,
} from "../../../src/host/shared-client";
import { forgetValueOptions } from "../../../src/host/value-options-host";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { loadNodeDouble, type NodeDouble, type NodeWorkbook } from "../../support/office-double/node-double";
import { FUNCTIONS_TS } from "./excel-harness";

let sandbox: RunningSandbox;
let metadata: { allowCustomDataForDataTypeAny?: boolean; functions: { id: string }[] };
const uninstall: (() => void)[] = [];

/** A workbook in the double with the FDQ functions registered as the build registers them. */
async function workbook(json: unknown = metadata, book: NodeWorkbook = {}): Promise<NodeDouble> {
  const double = loadNodeDouble(book, json);
  uninstall.push(double.install());
  const globals = globalThis as Record<string, unknown>;
  const previous = globals.CustomFunctions;
  globals.CustomFunctions = double.CustomFunctions;
  uninstall.push(() => (globals.CustomFunctions = previous));
  for (const f of metadata.functions) {
    const fn = (functions as unknown as Record<string, (...args: unknown[]) => unknown>)[f.id.toLowerCase()];
    double.CustomFunctions.associate(f.id, fn!);
  }
  await double.Office.onReady();
  configureSharedClient(
    { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey },
    { retry: { attempts: 1 }, storage: new MemoryStorage() },
  );
  forgetValueOptions();
  return double;
}

async function seeded(double: NodeDouble, cells: Record<string, string | number>) {
  double.double.seed(cells);
  await double.double.settled();
  return (address: string) => double.double.cell(address);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const generated = await generateCustomFunctionsMetadata(FUNCTIONS_TS);
  metadata = JSON.parse(generated.metadataJson) as typeof metadata;
});

afterEach(() => {
  for (const undo of uninstall.splice(0).reverse()) undo();
});

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
});

describe("FDQ.CARD in the Office double", () => {
  it("holds the entity as the cell's data type; the cell's value is #VALUE!, its basicValue", async () => {
    const cell = await seeded(await workbook(), { A1: '=FDQ.CARD("AAPL")' });
    const a1 = cell("A1")!;
    expect(a1.value).toBe("#VALUE!");
    expect(a1.error).toBeNull();
    expect(a1.valueAsJson).toMatchObject({ type: "Entity", text: expect.stringMatching(/ \(AAPL\)$/) });
  });

  it("answers =A1.Sector and =A1.[Last trade date] with the card's properties, names in any case", async () => {
    const cell = await seeded(await workbook(), {
      A1: '=FDQ.CARD("AAPL")',
      A2: "=A1.Sector",
      A3: "=A1.[Last trade date]",
      A4: "=a1.sector",
      B2: '=FDQ.SECURITY("AAPL","sector_name")',
      B3: '=FDQ.SECURITY("AAPL","last_trade_date")',
    });
    expect([cell("A2")!.value, cell("A3")!.value, cell("A4")!.value]).toEqual([
      cell("B2")!.value,
      cell("B3")!.value,
      cell("B2")!.value,
    ]);
  });

  it("computes with a rating as its number, and an entity itself in arithmetic is #VALUE!", async () => {
    const cell = await seeded(await workbook(), {
      A1: '=FDQ.CARD("AAPL")',
      A2: "=A1.[ROIC rating]*1",
      B2: '=FDQ.RATING("AAPL","roic")',
      A3: "=A1*2",
      A4: "=A1.Nothing",
    });
    expect(cell("A2")!.value).toBe(cell("B2")!.value);
    expect(cell("A3")!.value).toBe("#VALUE!");
    expect(cell("A4")!.value).toBe("#FIELD!");
  });

  it("passes a card to FDQ.DATAPOINT's ticker as its JSON, which reads its ticker", async () => {
    const cell = await seeded(await workbook(), {
      A1: '=FDQ.CARD("AAPL")',
      A2: '=FDQ.DATAPOINT(A1,"roic","ROIC",2023)',
      B2: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
    });
    expect(cell("A2")!.value).toEqual(expect.any(Number));
    expect(cell("A2")!.value).toBe(cell("B2")!.value);
  });

  it("without allowCustomDataForDataTypeAny, Excel passes the card's basicValue: #VALUE!, no call", async () => {
    const { allowCustomDataForDataTypeAny: _dropped, ...without } = metadata;
    const cell = await seeded(await workbook(without), {
      A1: '=FDQ.CARD("AAPL")',
      A2: '=FDQ.DATAPOINT(A1,"roic","ROIC",2023)',
    });
    expect(cell("A2")!.value).toBe("#VALUE!");
  });

  it("is a #N/A saying why in an Excel without CustomFunctionsRuntime 1.4", async () => {
    const double = await workbook(metadata, { unsupportedSets: ["CustomFunctionsRuntime 1.4"] });
    const cell = await seeded(double, { A1: '=FDQ.CARD("AAPL")' });
    expect(cell("A1")!.value).toBe("#N/A");
    expect(cell("A1")!.error).toEqual({
      code: "notAvailable",
      message: expect.stringMatching(
        /^FDQ.CARD cannot show a card here. This version of Excel lacks CustomFunctionsRuntime 1.4/,
      ),
    });
  });

  it("is what Range.valuesAsJson reads back", async () => {
    const double = await workbook();
    await seeded(double, { A1: '=FDQ.CARD("AAPL")', A2: 5 });
    const json = await double.Excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:A2");
      range.load("valuesAsJson");
      await context.sync();
      return range.valuesAsJson;
    });
    expect(json[0]![0]).toEqual(double.double.cell("A1")!.valueAsJson);
    expect(json[1]![0]).toEqual({ type: "Double", basicValue: 5 });
  });
});

describe("data types the Office double refuses, as Excel does", () => {
  it("shows #VALUE! for a card whose property names clash (names ignore case) or whose section names nothing", async () => {
    const double = await workbook();
    const entity = (properties: Record<string, unknown>, sections: string[]) => ({
      type: "Entity",
      text: "X",
      properties,
      layouts: { card: { sections: [{ layout: "List", properties: sections }] } },
    });
    double.CustomFunctions.associate("CLASH", () =>
      entity(
        { Sector: { type: "String", basicValue: "a" }, SECTOR: { type: "String", basicValue: "b" } },
        [],
      ),
    );
    double.CustomFunctions.associate("MISSING", () =>
      entity({ A: { type: "String", basicValue: "a" } }, ["B"]),
    );
    double.CustomFunctions.associate("LONG", () => ({ type: "String", basicValue: "x".repeat(32768) }));
    const cell = await seeded(double, { A1: "=FDQ.CLASH()", A2: "=FDQ.MISSING()", A3: "=FDQ.LONG()" });
    expect([cell("A1")!.value, cell("A2")!.value, cell("A3")!.value]).toEqual([
      "#VALUE!",
      "#VALUE!",
      "#VALUE!",
    ]);
    expect([cell("A1")!.error, cell("A2")!.error, cell("A3")!.error]).toEqual([
      {
        code: "invalidValue",
        message: "Excel refused the data type: value: two properties are named SECTOR (names ignore case)",
      },
      {
        code: "invalidValue",
        message: "Excel refused the data type: value: a section names no property (B)",
      },
      {
        code: "invalidValue",
        message: "Excel refused the data type: value: text longer than 32767 characters",
      },
    ]);
  });
});

describe("numbers with their source in the Office double", () => {
  it("compute as their basicValue and show their properties by dot notation", async () => {
    const double = await workbook();
    await saveValueOptions(officeRuntimeStorage()!, { withSource: true, cardMetrics: [] });
    forgetValueOptions();
    const cell = await seeded(double, {
      A1: '=FDQ.DATAPOINT("AAPL","roic","ROIC","FY0")',
      A2: "=A1*100",
      A3: "=A1.Period",
    });
    const a1 = cell("A1")!;
    expect(a1.valueAsJson).toMatchObject({ type: "Double", numberFormat: "0.00%" });
    expect(a1.value).toBe((a1.valueAsJson as { basicValue: number }).basicValue);
    expect(cell("A2")!.value).toBeCloseTo((a1.value as number) * 100, 12);
    expect(cell("A3")!.value).toMatch(/^FY0 = fiscal \d{4}$/);
  });
});
