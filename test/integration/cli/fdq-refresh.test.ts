// `fdq refresh WORKBOOK.xlsx -o OUT.xlsx` as a process against an in-process sandbox.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { serviceNumber, serviceRecords } from "../functions/sandbox-oracle";
import { ROOT, runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox.close());

const refresh = (args: string[]): Promise<Run> =>
  runFdq(["refresh", ...args, "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--no-cache"]);

it("writes every FDQ formula's value into the workbook as its cached result, keeping the formulas", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-refresh-"));
  const input = path.join(dir, "model.xlsx");
  const output = path.join(dir, "model-refreshed.xlsx");
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Model");
  // Excel saves JavaScript custom functions as _xldudf_<NAMESPACE>_<NAME>(...).
  sheet.getCell("A1").value = { formula: '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)' };
  sheet.getCell("A2").value = { formula: 'FDQ.RATING("AAPL","costs")' };
  sheet.getCell("A3").value = { formula: 'FDQ.SECURITY(B3,"name")' };
  sheet.getCell("B3").value = "AAPL";
  sheet.getCell("A4").value = { formula: "SUM(1,2)", result: 3 };
  sheet.getCell("D1").value = { formula: '_xldudf_FDQ_DATASET("AAPL","roic",2023)' };
  await book.xlsx.writeFile(input);

  const out = await refresh([input, "-o", output]);
  expect(out.code).toBe(0);
  expect(out.stdout).toBe(
    `Refreshed 3 FDQ formula cell(s): 2 with values, 1 with errors, 1 skipped. Wrote ${output}.\n`,
  );
  expect(out.stderr).toBe(
    "fdq refresh: Model!A3: Cell references are not supported: B3; use a literal value (at character 14)\n",
  );

  const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
  const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
  const result = new ExcelJS.Workbook();
  await result.xlsx.readFile(output);
  const model = result.getWorksheet("Model");
  expect(model?.getCell("A1").value).toEqual({
    formula: '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)',
    result: roic,
  });
  expect(model?.getCell("A2").value).toEqual({
    formula: 'FDQ.RATING("AAPL","costs")',
    result: { error: "#N/A" },
  });
  expect(model?.getCell("A4").value).toEqual({ formula: "SUM(1,2)", result: 3 });
  // The spill: the anchor keeps the formula with the first value, the rest are stored as values.
  expect(model?.getCell("D1").value).toEqual({
    formula: '_xldudf_FDQ_DATASET("AAPL","roic",2023)',
    result: records[0]?.datapoint,
  });
  expect(model?.getCell("E1").value).toBe(Number(records[0]?.datavalue));
  const last = records.length;
  expect([model?.getCell(`D${last}`).value, model?.getCell(`E${last}`).value]).toEqual([
    records[last - 1]?.datapoint,
    Number(records[last - 1]?.datavalue),
  ]);
});

it("exits 2 for a file that is not a workbook", async () => {
  const out = await refresh([path.join(ROOT, "manifest.xml")]);
  expect(out.code).toBe(2);
  expect(out.stderr).toMatch(/^fdq: cannot read .*manifest\.xml as an \.xlsx workbook: /);
});

describe("spills over the user's data", () => {
  async function book(fill: (sheet: ExcelJS.Worksheet) => void): Promise<string> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-spill-")), "model.xlsx");
    const workbook = new ExcelJS.Workbook();
    fill(workbook.addWorksheet("Model"));
    await workbook.xlsx.writeFile(file);
    return file;
  }

  async function read(file: string): Promise<ExcelJS.Worksheet> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    return workbook.getWorksheet("Model")!;
  }

  const DATASET = 'FDQ.DATASET("AAPL","roic",2023)';

  it("writes #SPILL! to the anchor and nothing else when a constant is inside the spill range", async () => {
    const file = await book((sheet) => {
      sheet.getCell("A1").value = { formula: DATASET };
      sheet.getCell("B3").value = "mine";
    });
    const out = await refresh([file]);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      "fdq refresh: Model!A1: #SPILL! (its spill range holds data in B3; nothing else written)\n",
    );
    const sheet = await read(file);
    expect(sheet.getCell("A1").value).toEqual({ formula: DATASET, result: { error: "#SPILL!" } });
    expect([sheet.getCell("B1").value, sheet.getCell("A2").value, sheet.getCell("B3").value]).toEqual([
      null,
      null,
      "mine",
    ]);
  });

  it("refreshes its own earlier spill again, and clears what a larger earlier spill left", async () => {
    const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
    const file = await book((sheet) => {
      sheet.getCell("A1").value = { formula: DATASET };
    });
    expect((await refresh([file])).stderr).toBe("");
    const again = await refresh([file]);
    expect(again.stderr).toBe("");
    let sheet = await read(file);
    expect(sheet.getCell(`B${records.length}`).value).toBe(Number(records[records.length - 1]?.datavalue));

    // The same anchor now answers one value: the cells of the earlier spill are emptied.
    const smaller = new ExcelJS.Workbook();
    await smaller.xlsx.readFile(file);
    smaller.getWorksheet("Model")!.getCell("A1").value = {
      formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
    };
    await smaller.xlsx.writeFile(file);
    expect((await refresh([file])).stderr).toBe("");
    sheet = await read(file);
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    expect(sheet.getCell("A1").value).toEqual({
      formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
      result: roic,
    });
    expect([
      sheet.getCell("B1").value,
      sheet.getCell("A2").value,
      sheet.getCell(`B${records.length}`).value,
    ]).toEqual([null, null, null]);
  });
});
