// `fdq refresh WORKBOOK.xlsx -o OUT.xlsx` as a process against an in-process sandbox.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { readBook, TestBook, type FormulaValue, type TestSheet } from "../../support/xlsx-corpus/test-book";
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
  const book = new TestBook();
  const sheet = book.addWorksheet("Model");
  // Excel saves JavaScript custom functions as _xldudf_<NAMESPACE>_<NAME>(...).
  sheet.getCell("A1").value = { formula: '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)' };
  sheet.getCell("A2").value = { formula: 'FDQ.RATING("AAPL","costs")' };
  sheet.getCell("A3").value = { formula: 'FDQ.SECURITY(B3,"name")' };
  sheet.getCell("B3").value = "AAPL";
  sheet.getCell("A4").value = { formula: "SUM(1,2)", result: 3 };
  sheet.getCell("D1").value = { formula: '_xldudf_FDQ_DATASET("AAPL","roic",2023)' };
  book.writeFile(input);

  const out = await refresh([input, "-o", output]);
  expect(out.code).toBe(0);
  // A4 has its cached value and reads no FDQ cell: it is not recalculated, nor counted. The first spill adds
  // the dynamic-array metadata (its part, its relationship, its content type) beside the worksheet, and the
  // record of each FDQ cell's request its custom XML part (with its properties and relationships).
  expect(out.stdout).toBe(
    "Refreshed 4 FDQ cells (1 with an error), recomputed 0 dependents, left none with old values; " +
      `changed 7 parts, kept 3 other parts byte for byte. Wrote ${output}.\n`,
  );
  expect(out.stderr).toMatch(/^fdq refresh: Model!A2: #N\/A \S.*\n$/);

  const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
  const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
  const name = await securityName("AAPL");
  const model = readBook(output).getWorksheet("Model");
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
  const file = path.join(ROOT, "manifest.xml");
  const out = await refresh([file, "-o", path.join(tmpdir(), "never-written.xlsx")]);
  expect(out.code).toBe(2);
  expect(out.stderr).toBe(
    `fdq refresh: cannot refresh ${file}: it holds text, not an Excel workbook: give an .xlsx or .xlsm workbook ` +
      "(for a list of formulas, use fdq eval -f FILE)\n",
  );
});

describe("spills over the user's data", () => {
  async function book(fill: (sheet: TestSheet) => void): Promise<string> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-spill-")), "model.xlsx");
    const workbook = new TestBook();
    fill(workbook.addWorksheet("Model"));
    workbook.writeFile(file);
    return file;
  }

  async function read(file: string) {
    return readBook(file).getWorksheet("Model")!;
  }

  const DATASET = 'FDQ.DATASET("AAPL","roic",2023)';

  it("writes #SPILL! to the anchor and nothing else when a constant is inside the spill range", async () => {
    const file = await book((sheet) => {
      sheet.getCell("A1").value = { formula: DATASET };
      sheet.getCell("B3").value = "mine";
    });
    const out = await refresh([file, "--in-place"]);
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
    expect((await refresh([file, "--in-place"])).stderr).toBe("");
    const again = await refresh([file, "--in-place"]);
    expect(again.stderr).toBe("");
    let sheet = await read(file);
    expect(sheet.getCell(`B${records.length}`).value).toBe(Number(records[records.length - 1]?.datavalue));

    // The anchor is a dynamic array whose ref is the spill range: that is what the next refresh reads.
    expect(sheet.getCell("A1").value).toMatchObject({ shareType: "array", ref: `A1:B${records.length}` });
    const xml = new TextDecoder().decode(unzipSync(readFileSync(file))["xl/worksheets/sheet1.xml"]);
    expect(xml).toMatch(/<c r="A1" cm="1"[^>]*><f t="array" ref="A1:B\d+">/);

    // The same anchor now answers one value (its stored spill range kept, as in a file saved before the
    // answer shrank): the cells of the earlier spill are emptied, and the array covers its own cell only.
    const smaller = await book((s) => {
      s.getCell("A1").value = {
        formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
        shareType: "array",
        ref: `A1:B${records.length}`,
        dynamic: true,
        result: "CAPITAL_INVESTED",
      };
      s.getCell("B1").value = 1;
      s.getCell("A2").value = "left over";
      s.getCell(`B${records.length}`).value = 2;
    });
    expect((await refresh([smaller, "--in-place"])).stderr).toBe("");
    sheet = await read(smaller);
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    expect(sheet.getCell("A1").value).toEqual({
      formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
      result: roic,
      shareType: "array",
      ref: "A1",
    });
    expect([
      sheet.getCell("B1").value,
      sheet.getCell("A2").value,
      sheet.getCell(`B${records.length}`).value,
    ]).toEqual([null, null, null]);
  });
});

describe("models beyond one FDQ call per cell", () => {
  async function book(fill: (sheet: TestSheet) => void): Promise<string> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-model-")), "model.xlsx");
    const workbook = new TestBook();
    fill(workbook.addWorksheet("Model"));
    workbook.writeFile(file);
    return file;
  }

  const result = (sheet: ReturnType<typeof readSheet>, address: string): unknown =>
    sheet.getCell(address).result ?? undefined;

  function readSheet(file: string) {
    return readBook(file).getWorksheet("Model")!;
  }

  it("reports a circular reference by cell, keeps its old values and exits 4", async () => {
    const file = await book((sheet) => {
      sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)+B1', result: 5 };
      sheet.getCell("B1").value = { formula: "A1*2", result: 6 };
    });
    const out = await refresh([file, "--in-place"]);
    expect(out.code).toBe(4);
    expect(out.stdout).toMatch(
      /^Refreshed 0 FDQ cells, recomputed 0 dependents, left 1 FDQ cell and 1 dependent with old values; changed 0 parts, /,
    );
    expect(out.stderr).toBe(
      "fdq refresh: Model!A1: left with its old value, reads Model!B1, which was not evaluated\n" +
        "fdq refresh: Model!B1: left with its old value, circular reference through Model!A1\n",
    );
    const sheet = readSheet(file);
    expect([result(sheet, "A1"), result(sheet, "B1")]).toEqual([5, 6]);
  });

  it("evaluates wrappers Excel saves with the _xlfn. prefix of newer functions (IFNA, IFS), keeping the formulas", async () => {
    const file = await book((sheet) => {
      sheet.getCell("A1").value = {
        formula: '_xlfn.IFNA(_xldudf_FDQ_DATAPOINT("AAPL","roic","ROIC",2023),"none")',
      };
      sheet.getCell("A2").value = {
        formula: '_xlfn.IFNA(FDQ.DATAPOINT("AAPL","roic","ROIC",1990),"none")',
      };
      sheet.getCell("A3").value = { formula: '_xlfn.IFS(A1>0,"positive",TRUE,"other")' };
    });
    const out = await refresh([file, "--in-place"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Refreshed 2 FDQ cells, recomputed 1 dependent, left none with old values; /);
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    const sheet = readSheet(file);
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
    // The quota serves the day's coverage list and one value.
    const limited = await startSandbox({ port: 0, quota: 2 });
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
        "--in-place",
      ]);
      expect(out.code).toBe(4);
      expect(out.stdout).toMatch(
        /^Refreshed 1 FDQ cell, recomputed [01] dependents?, left 1 FDQ cell( and 1 dependent)? with old values; /,
      );
      const refused = [
        ...out.stderr.matchAll(
          /^fdq refresh: Model!(A[12]): left with its old value, FDQ gave no answer \(The monthly quota of this FDQ API key is used up \(429: Limit Exceeded\)\./gm,
        ),
      ];
      expect(refused).toHaveLength(1);
      const stale = refused[0]![1]!;
      const answered = stale === "A1" ? "A2" : "A1";
      const sheet = readSheet(file);
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
          "fdq refresh: Model!B2: left with its old value, reads Model!A2, which was not evaluated",
        );
      }
    } finally {
      await limited.close();
    }
  });

  it("fetches a call whose arguments read an FDQ cell in a second batch, within --budget or skipped", async () => {
    const fill = (sheet: TestSheet) => {
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
    const out = await refresh([file, "--in-place"]);
    expect([out.code, out.stderr]).toEqual([0, ""]);
    let sheet = readSheet(file);
    expect([result(sheet, "A1"), result(sheet, "A2"), result(sheet, "A3")]).toEqual([
      roic,
      second,
      second * 100,
    ]);

    // Two units (the day's coverage list and A1) are enough for the first batch only: the second is not sent
    // and its cells are skipped.
    const tight = await book(fill);
    const limited = await refresh([tight, "--budget", "2", "--in-place"]);
    expect(limited.code).toBe(4);
    expect(limited.stderr).toBe(
      "fdq refresh: Model!A2: left with its old value, not fetched: its FDQ call would take the run over --budget 2\n" +
        "fdq refresh: Model!A3: left with its old value, reads Model!A2, which was not evaluated\n",
    );
    sheet = readSheet(tight);
    expect([result(sheet, "A1"), result(sheet, "A2")]).toEqual([roic, undefined]);
  });
});

it("keeps the workbook's own dynamic arrays marked as such", async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "fdq-dynamic-")), "model.xlsx");
  const workbook = new TestBook();
  const sheet = workbook.addWorksheet("Model");
  sheet.getCell("A1").value = { formula: 'FDQ.DATAPOINT("AAPL","roic","ROIC",2023)' };
  // A spill of Excel's own (SEQUENCE), saved with its values, as Excel stores it (cm="1", XLDAPR metadata).
  const sequence: FormulaValue = {
    formula: "_xlfn.SEQUENCE(2)",
    result: 1,
    shareType: "array",
    ref: "C1:C2",
    dynamic: true,
  };
  sheet.getCell("C1").value = sequence;
  sheet.getCell("C2").value = 2;
  workbook.writeFile(file);

  expect((await refresh([file, "--in-place"])).code).toBe(0);
  const out = unzipSync(readFileSync(file));
  expect(new TextDecoder().decode(out["xl/worksheets/sheet1.xml"])).toContain(
    '<c r="C1" cm="1"><f t="array" ref="C1:C2">_xlfn.SEQUENCE(2)</f><v>1</v></c></row><row r="2"><c r="C2"><v>2</v></c>',
  );
  expect(out["xl/metadata.xml"]).toEqual(unzipSync(workbook.bytes())["xl/metadata.xml"]);
});
