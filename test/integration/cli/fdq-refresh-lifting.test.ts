// `fdq refresh` lifts a scalar FDQ function over a range as Excel does (one call per cell, the results spill
// from the formula's cell), and a spilling function given a range answers Excel's #VALUE! message.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { singleCell } from "../../../src/functions/ranges";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { serviceNumber } from "../functions/sandbox-oracle";
import { readBook, TestBook, type TestSheet } from "../../support/xlsx-corpus/test-book";
import { runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox.close());

const refresh = (args: string[]): Promise<Run> =>
  runFdq([
    "refresh",
    ...args,
    "--in-place",
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    sandbox.demoKey,
    "--no-cache",
  ]);

/** `refresh(args)`, with the number of requests the sandbox answered while it ran. */
async function refreshCounted(args: string[]): Promise<{ out: Run; requests: number }> {
  const before = sandbox.stats().requests;
  const out = await refresh(args);
  return { out, requests: sandbox.stats().requests - before };
}

/** Excel's message for a range given to a spilling function, as the add-in's functions build it. */
function rangeMessage(value: unknown[][], argument: string, fn: string): string {
  try {
    singleCell(value, argument, fn);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("singleCell accepted the range");
}

const TICKERS = ["AAPL", "MSFT", "NFLX"];

async function workbookFile(build: (sheet: TestSheet) => void): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-lifting-"));
  const file = path.join(dir, "model.xlsx");
  const book = new TestBook();
  const sheet = book.addWorksheet("Model");
  build(sheet);
  book.writeFile(file);
  return file;
}

async function readSheet(file: string) {
  const sheet = readBook(file).getWorksheet("Model");
  if (!sheet) throw new Error("no Model sheet");
  return sheet;
}

it("lifts FDQ.DATAPOINT over A2:A4: three calls, spilled from the formula's cell", async () => {
  const file = await workbookFile((sheet) => {
    sheet.getCell("A1").value = "Ticker";
    TICKERS.forEach((t, i) => (sheet.getCell(`A${i + 2}`).value = t));
    sheet.getCell("C1").value = 2023;
    sheet.getCell("B2").value = { formula: 'FDQ.DATAPOINT($A2:$A4,"metrics/roic","ROIC",C$1)' };
  });

  const before = { requests: sandbox.stats().requests, units: sandbox.usage() };
  const out = await refresh([file]);
  expect([out.code, out.stderr]).toEqual([0, ""]);
  // The day's stock coverage list, then one request of one unit per ticker.
  expect([sandbox.stats().requests - before.requests, sandbox.usage() - before.units]).toEqual([
    1 + 3,
    1 + 3,
  ]);
  // The first spill of the workbook adds the dynamic-array metadata part (its relationship, its content type),
  // and the record of each FDQ cell's request adds its custom XML part (with its properties and relationships).
  expect(out.stdout).toBe(
    "Refreshed 1 FDQ cell, recomputed 0 dependents, left none with old values; " +
      `changed 7 parts, kept 3 other parts byte for byte. Wrote ${file}.\n`,
  );

  const expected = await Promise.all(
    TICKERS.map((t) => serviceNumber(sandbox, `metrics/roic/${t}?datapoint=ROIC&year=2023`)),
  );
  const sheet = await readSheet(file);
  expect(sheet.getCell("B2").value).toEqual({
    formula: 'FDQ.DATAPOINT($A2:$A4,"metrics/roic","ROIC",C$1)',
    result: expected[0],
    shareType: "array",
    ref: "B2:B4",
  });
  expect([sheet.getCell("B3").value, sheet.getCell("B4").value]).toEqual([expected[1], expected[2]]);
});

it("counts every lifted call against --budget before sending anything", async () => {
  const file = await workbookFile((sheet) => {
    TICKERS.forEach((t, i) => (sheet.getCell(`A${i + 2}`).value = t));
    sheet.getCell("B2").value = { formula: 'FDQ.DATAPOINT(A2:A4,"roic","ROIC",2023)' };
  });
  const { out, requests } = await refreshCounted([file, "--budget", "2"]);
  expect(requests).toBe(0);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    "this run would spend at most 4 quota units (4 requests not in today's cache; less if the day's ticker coverage list, asked first, does not list some tickers); --budget is 2. Nothing was sent.",
  );
});

it("lifts a column of tickers against a row of years into a table, one call per cell", async () => {
  const file = await workbookFile((sheet) => {
    TICKERS.slice(0, 2).forEach((t, i) => (sheet.getCell(`A${i + 2}`).value = t));
    sheet.getCell("B1").value = 2022;
    sheet.getCell("C1").value = 2023;
    sheet.getCell("E2").value = { formula: 'FDQ.DATAPOINT(A2:A3,"roic","ROIC",B1:C1)' };
  });

  const { out, requests } = await refreshCounted([file]);
  expect([out.code, out.stderr]).toEqual([0, ""]);
  expect(requests).toBe(1 + 4); // the coverage list and the 4 cells
  const value = (t: string, year: number): Promise<number> =>
    serviceNumber(sandbox, `metrics/roic/${t}?datapoint=ROIC&year=${year}`);
  const sheet = await readSheet(file);
  expect((sheet.getCell("E2").value as { ref?: string }).ref).toBe("E2:F3");
  expect([
    [(sheet.getCell("E2").value as { result?: unknown }).result, sheet.getCell("F2").value],
    [sheet.getCell("E3").value, sheet.getCell("F3").value],
  ]).toEqual([
    [await value("AAPL", 2022), await value("AAPL", 2023)],
    [await value("MSFT", 2022), await value("MSFT", 2023)],
  ]);
});

it("answers FDQ.DATASET given a range with Excel's #VALUE! message, without a request", async () => {
  const file = await workbookFile((sheet) => {
    TICKERS.forEach((t, i) => (sheet.getCell(`A${i + 2}`).value = t));
    sheet.getCell("D1").value = { formula: 'FDQ.DATASET(A2:A4,"roic",2023)' };
  });

  const { out, requests } = await refreshCounted([file]);
  expect(requests).toBe(0);
  const message = rangeMessage([["AAPL"], ["MSFT"], ["NFLX"]], "ticker", "DATASET");
  expect(message).toBe(
    "ticker must be one cell, not a range of 3 cells (3 rows by 1 column): " +
      "FDQ.DATASET spills a table of its own, so Excel cannot repeat it for each cell.",
  );
  expect(out.code).toBe(0);
  expect(out.stdout).toBe(
    "Refreshed 1 FDQ cell (1 with an error), recomputed 0 dependents, left none with old values; " +
      `changed 1 part, kept 5 other parts byte for byte. Wrote ${file}.\n`,
  );
  expect(out.stderr).toBe(`fdq refresh: Model!D1: #VALUE! ${message}\n`);
  const sheet = await readSheet(file);
  expect(sheet.getCell("D1").value).toEqual({
    formula: 'FDQ.DATASET(A2:A4,"roic",2023)',
    result: { error: "#VALUE!" },
  });
});

it("lifts a call inside a larger formula too, and spills the formula's results", async () => {
  const file = await workbookFile((sheet) => {
    TICKERS.forEach((t, i) => (sheet.getCell(`A${i + 2}`).value = t));
    sheet.getCell("B2").value = { formula: 'IFERROR(FDQ.DATAPOINT(A2:A4,"roic","ROIC",2023)/1e6,"n/a")' };
  });
  const { out, requests } = await refreshCounted([file]);
  expect([out.code, out.stderr, requests]).toEqual([0, "", 1 + 3]); // the coverage list and the 3 calls
  const expected = await Promise.all(
    TICKERS.map((t) => serviceNumber(sandbox, `metrics/roic/${t}?datapoint=ROIC&year=2023`)),
  );
  const sheet = await readSheet(file);
  expect(sheet.getCell("B2").value).toEqual({
    formula: 'IFERROR(FDQ.DATAPOINT(A2:A4,"roic","ROIC",2023)/1e6,"n/a")',
    result: expected[0]! / 1e6,
    shareType: "array",
    ref: "B2:B4",
  });
  expect([sheet.getCell("B3").value, sheet.getCell("B4").value]).toEqual([
    expected[1]! / 1e6,
    expected[2]! / 1e6,
  ]);
});
