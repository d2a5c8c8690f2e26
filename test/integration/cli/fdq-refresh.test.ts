// `fdq refresh WORKBOOK.xlsx -o OUT.xlsx` as a process against an in-process sandbox.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { serviceNumber, serviceRecords, serviceResults } from "../functions/sandbox-oracle";
import { ROOT, runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox.close());

/** The security's name as the service's coverage endpoint answers it. */
async function securityName(ticker: string): Promise<string> {
  const [record] = (await serviceResults(sandbox, `coverage/stock/${ticker}`)) as { name: string }[];
  return String(record?.name);
}

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
  // A4 has its cached value and reads no FDQ cell: it is not recalculated, nor counted.
  expect(out.stdout).toBe(
    `Refreshed 4 formula cell(s): 3 with values, 1 with errors, 0 skipped. Wrote ${output}.\n`,
  );
  expect(out.stderr).toMatch(/^fdq refresh: Model!A2: #N\/A \S.*\n$/);

  const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
  const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
  const name = await securityName("AAPL");
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
  expect(model?.getCell("A3").value).toEqual({ formula: 'FDQ.SECURITY(B3,"name")', result: name });
  expect(model?.getCell("A4").value).toEqual({ formula: "SUM(1,2)", result: 3 });
  // The spill, as Excel stores a dynamic array: the anchor is an array formula over the spill range with the
  // first value, the rest are stored as values.
  expect(model?.getCell("D1").value).toEqual({
    formula: '_xldudf_FDQ_DATASET("AAPL","roic",2023)',
    result: records[0]?.datapoint,
    shareType: "array",
    ref: `D1:E${records.length}`,
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
      "fdq refresh: Model!A1: #SPILL! its spill range holds data in B3; nothing else written\n",
    );
    const sheet = await read(file);
    // As Excel stores a blocked dynamic array: a one-cell array formula holding #SPILL!.
    expect(sheet.getCell("A1").value).toEqual({
      formula: DATASET,
      result: { error: "#SPILL!" },
      shareType: "array",
      ref: "A1",
    });
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

    // The anchor is a dynamic array whose ref is the spill range: that is what the next refresh reads.
    expect(sheet.getCell("A1").model).toMatchObject({ shareType: "array", ref: `A1:B${records.length}` });

    // The same anchor now answers one value (its stored spill range kept, as in a file saved before the
    // answer shrank): the cells of the earlier spill are emptied.
    const smaller = new ExcelJS.Workbook();
    await smaller.xlsx.readFile(file);
    smaller.getWorksheet("Model")!.getCell("A1").value = {
      formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
      shareType: "array",
      ref: `A1:B${records.length}`,
    } as ExcelJS.CellFormulaValue;
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

describe("models beyond one FDQ call per cell", () => {
  async function book(fill: (sheet: ExcelJS.Worksheet, workbook: ExcelJS.Workbook) => void): Promise<string> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-model-")), "model.xlsx");
    const workbook = new ExcelJS.Workbook();
    fill(workbook.addWorksheet("Model"), workbook);
    await workbook.xlsx.writeFile(file);
    return file;
  }

  async function readBook(file: string): Promise<ExcelJS.Workbook> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    return workbook;
  }

  const result = (sheet: ExcelJS.Worksheet, address: string): unknown =>
    (sheet.getCell(address).model as { result?: unknown }).result;

  it("reports a circular reference by cell, keeps its old values and exits 4", async () => {
    const file = await book((sheet) => {
      sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)+B1', result: 5 };
      sheet.getCell("B1").value = { formula: "A1*2", result: 6 };
    });
    const out = await refresh([file]);
    expect(out.code).toBe(4);
    expect(out.stdout).toMatch(/^Refreshed 2 formula cell\(s\): 0 with values, 0 with errors, 2 skipped\. /);
    expect(out.stderr).toBe(
      "fdq refresh: Model!A1: skipped, reads Model!B1, which was not evaluated; its old value is kept\n" +
        "fdq refresh: Model!B1: skipped, circular reference through Model!A1; its old value is kept\n",
    );
    const sheet = (await readBook(file)).getWorksheet("Model")!;
    expect([result(sheet, "A1"), result(sheet, "B1")]).toEqual([5, 6]);
  });

  it("evaluates wrappers Excel saves with the _xlfn. prefix of newer functions (IFNA, IFS), keeping the formulas", async () => {
    const file = await book((sheet) => {
      sheet.getCell("A1").value = {
        formula: '_xlfn.IFNA(_xldudf_FDQ_DATAPOINT("AAPL","roic","ROIC",2023),"none")',
      };
      sheet.getCell("A2").value = {
        formula: '_xlfn.IFNA(FDQ.DATAPOINT("AAPL","roic","NO_SUCH",2023),"none")',
      };
      sheet.getCell("A3").value = { formula: '_xlfn.IFS(A1>0,"positive",TRUE,"other")' };
    });
    const out = await refresh([file]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Refreshed 3 formula cell\(s\): 3 with values, 0 with errors, 0 skipped\. /);
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const sheet = (await readBook(file)).getWorksheet("Model")!;
    expect([result(sheet, "A1"), result(sheet, "A2"), result(sheet, "A3")]).toEqual([
      roic,
      "none",
      roic > 0 ? "positive" : "other",
    ]);
    expect(sheet.getCell("A1").formula).toBe(
      '_xlfn.IFNA(_xldudf_FDQ_DATAPOINT("AAPL","roic","ROIC",2023),"none")',
    );
  });

  it("keeps a cell's value, and its dependents', when FDQ gives no answer (Limit Exceeded), and exits 4", async () => {
    const limited = await startSandbox({ port: 0, quota: 1 });
    try {
      const file = await book((sheet) => {
        sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2022)', result: 11 };
        sheet.getCell("A2").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)', result: 12 };
        sheet.getCell("B2").value = { formula: "A2*100", result: 1200 };
      });
      const out = await runFdq([
        "refresh",
        file,
        "--base-url",
        limited.baseUrl,
        "--api-key",
        limited.demoKey,
        "--no-cache",
        "--concurrency",
        "1",
      ]);
      expect(out.code).toBe(4);
      expect(out.stdout).toMatch(
        /^Refreshed 3 formula cell\(s\): 1 with values, 0 with errors, 2 skipped\. /,
      );
      const refused = [
        ...out.stderr.matchAll(
          /^fdq refresh: Model!(A[12]): skipped, FDQ gave no answer \(The monthly quota of this FDQ API key is used up \(429: Limit Exceeded\)\./gm,
        ),
      ];
      expect(refused).toHaveLength(1);
      const stale = refused[0]![1]!;
      const answered = stale === "A1" ? "A2" : "A1";
      const sheet = (await readBook(file)).getWorksheet("Model")!;
      // The refused cell keeps the workbook's value; the other has the service's (the same synthetic data
      // as the unlimited sandbox, which the oracle asks: the limited one has spent its quota).
      expect(result(sheet, stale)).toBe(stale === "A1" ? 11 : 12);
      const year = answered === "A1" ? 2022 : 2023;
      expect(result(sheet, answered)).toBe(
        await serviceNumber(sandbox, `metrics/roic/AAPL?datapoint=ROIC&year=${year}`),
      );
      // B2 reads A2: recomputed from the answer, or kept (and reported) with A2's old value.
      if (stale === "A2") {
        expect(result(sheet, "B2")).toBe(1200);
        expect(out.stderr).toContain(
          "fdq refresh: Model!B2: skipped, reads Model!A2, which was not evaluated",
        );
      }
    } finally {
      await limited.close();
    }
  });

  it("fetches a call whose arguments read an FDQ cell in a second batch, within --budget or skipped", async () => {
    const fill = (sheet: ExcelJS.Worksheet) => {
      sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)' };
      sheet.getCell("A2").value = { formula: 'FDQ.DATAPOINT(IF(A1>0,"MSFT","NFLX"),"roic","ROIC",2023)' };
      sheet.getCell("A3").value = { formula: "A2*100" };
    };
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const second = await serviceNumber(
      sandbox,
      `metrics/roic/${roic > 0 ? "MSFT" : "NFLX"}?datapoint=ROIC&year=2023`,
    );
    const file = await book(fill);
    const out = await refresh([file]);
    expect([out.code, out.stderr]).toEqual([0, ""]);
    let sheet = (await readBook(file)).getWorksheet("Model")!;
    expect([result(sheet, "A1"), result(sheet, "A2"), result(sheet, "A3")]).toEqual([
      roic,
      second,
      second * 100,
    ]);

    // One unit is enough for the first batch only: the second is not sent and its cells are skipped.
    const tight = await book(fill);
    const limited = await refresh([tight, "--budget", "1"]);
    expect(limited.code).toBe(4);
    expect(limited.stderr).toBe(
      "fdq refresh: Model!A2: skipped, not fetched: its FDQ call would take the run over --budget 1; its old value is kept\n" +
        "fdq refresh: Model!A3: skipped, reads Model!A2, which was not evaluated; its old value is kept\n",
    );
    sheet = (await readBook(tight)).getWorksheet("Model")!;
    expect([result(sheet, "A1"), result(sheet, "A2")]).toEqual([roic, undefined]);
  });

  it("reads a spill range an earlier fdq kept in a visible _FDQ_SPILL name, and removes the name", async () => {
    const file = await book((sheet, workbook) => {
      sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)' };
      sheet.getCell("B1").value = "left over";
      sheet.getCell("A2").value = "left over";
      workbook.definedNames.model = [{ name: `_FDQ_SPILL.${sheet.id}.A1`, ranges: ["'Model'!$A$1:$B$2"] }];
    });
    const out = await refresh([file]);
    expect([out.code, out.stderr]).toEqual([0, ""]);
    const workbook = await readBook(file);
    const sheet = workbook.getWorksheet("Model")!;
    expect([sheet.getCell("B1").value, sheet.getCell("A2").value]).toEqual([null, null]);
    expect(workbook.definedNames.model).toEqual([]);
  });
});

it("keeps the workbook's own dynamic arrays marked as such (exceljs alone would drop their cm attribute)", async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-dynamic-")), "model.xlsx");
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Model");
  sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)' };
  // A spill of Excel's own (SEQUENCE), saved with its values, as Excel stores it.
  sheet.getCell("C1").value = {
    formula: "_xlfn.SEQUENCE(2)",
    result: 1,
    shareType: "array",
    ref: "C1:C2",
  } as ExcelJS.CellFormulaValue;
  sheet.getCell("C2").value = 2;
  const xml = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
  const part = "xl/worksheets/sheet1.xml";
  // Marked by hand here, as Excel marks it (the metadata part itself does not matter to fdq's reading).
  xml.file(part, (await xml.file(part)!.async("string")).replace('<c r="C1"', '<c r="C1" cm="1"'));
  writeFileSync(file, await xml.generateAsync({ type: "nodebuffer" }));

  expect((await refresh([file])).code).toBe(0);
  const out = await JSZip.loadAsync(readFileSync(file));
  expect(await out.file(part)!.async("string")).toMatch(
    /<c r="C1" [^>]*cm="1"[^>]*><f t="array" ref="C1:C2">/,
  );
  expect(out.file("xl/metadata.xml")).not.toBeNull();
});
