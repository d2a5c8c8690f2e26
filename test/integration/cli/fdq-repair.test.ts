// `fdq repair WORKBOOK -o OUT` as a process: what it prints and its exit statuses, on the hand-built corrupted
// book, a book written the way openpyxl writes one with every corrupted form, and the project's real-model
// fixture; and the repaired book refreshes with `fdq refresh` against an in-process sandbox.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { readZip } from "../../../src/workbook/xlsx/zip";
import { corruptedBook, corruptedCells, BLOOMBERG_PATH } from "../../support/xlsx-corpus/corrupted-book";
import { formulasOf, readBook, TestBook } from "../../support/xlsx-corpus/test-book";
import { serviceNumber, serviceRecords } from "../functions/sandbox-oracle";
import { ROOT, runFdq } from "./run-fdq";

/** fdq runs as a process several times here: minutes on a loaded machine. */
jest.setTimeout(120_000);

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = mkdtempSync(path.join(tmpdir(), "fdq-repair-"));
});

afterAll(() => sandbox.close());

const file = (name: string): string => path.join(dir, name);

describe("fdq repair", () => {
  it("lists every repaired cell and name with its formula before and after, and the external link it removed", async () => {
    writeFileSync(file("corrupted.xlsx"), corruptedBook());
    const run = await runFdq(["repair", file("corrupted.xlsx"), "-o", file("repaired.xlsx")]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const parts = readZip(corruptedBook()).entries.length;
    expect(run.stdout).toBe(
      [
        "Repaired 9 FDQ formulas Excel no longer recognised (8 cells, 1 defined name); removed the external link " +
          `xl/externalLinks/externalLink2.xml (file:///${BLOOMBERG_PATH}), which only they used; changed 4 parts, ` +
          `removed 2, kept ${parts - 6} other parts byte for byte. Wrote ${file("repaired.xlsx")}.`,
        ...corruptedCells().map((c) => `Model!${c.cell}: ${c.before} -> ${c.after}`),
        'name RoicAapl: =[2]!_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023) -> ' +
          '=_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)',
        "The repaired cells keep their saved values until they are calculated: run fdq refresh on the file, or Refresh in Excel.",
        "",
      ].join("\n"),
    );
  });

  it("repairs the real-model fixture's one corrupted cell, Summary!B9 ([2]! with no external link behind it)", async () => {
    const run = await runFdq([
      "repair",
      path.join(ROOT, "test/fixtures/real-model.xlsx"),
      "-o",
      file("real-model.xlsx"),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").slice(1, 2)).toEqual([
      'Summary!B9: =[2]!_xldudf_FDQ_DATAPOINT("MSFT","metrics/roic","ROIC",2022) -> ' +
        '=_xldudf_FDQ_DATAPOINT("MSFT","metrics/roic","ROIC",2022)',
    ]);
    expect(run.stdout).toMatch(
      /^Repaired 1 FDQ formula Excel no longer recognised \(1 cell\); changed 1 part, /,
    );
  });

  it("says when there is nothing to repair, and writes the workbook as it was (status 0)", async () => {
    const run = await runFdq(["repair", file("repaired.xlsx"), "-o", file("again.xlsx")]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toBe(
      "Nothing to repair: every FDQ formula is in a form Excel recognises; changed 0 parts, kept " +
        `${readZip(readFileSync(file("repaired.xlsx"))).entries.length} other parts byte for byte. Wrote ${file("again.xlsx")}.\n`,
    );
    expect(Buffer.compare(readFileSync(file("again.xlsx")), readFileSync(file("repaired.xlsx")))).toBe(0);
  });

  it("lists a call it cannot repair (not an FDQ function) and exits with status 4", async () => {
    const book = new TestBook();
    const sheet = book.addWorksheet("Model");
    sheet.getCell("A1").value = { formula: "[1]!_xldudf_FDQ_NOSUCH(1)" };
    sheet.getCell("A2").value = { formula: '_xludf.FDQ.RATING("AAPL","overall")' };
    book.writeFile(file("unknown.xlsx"));
    const run = await runFdq(["repair", file("unknown.xlsx"), "-o", file("unknown-out.xlsx")]);
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      "fdq repair: Model!A1: [1]!_xldudf_FDQ_NOSUCH is not an FDQ function; left as it is\n",
    );
    expect(run.stdout).toContain(
      'Model!A2: =_xludf.FDQ.RATING("AAPL","overall") -> =_xldudf_FDQ_RATING("AAPL","overall")',
    );
  });

  it("refuses to run without -o or --in-place, and refuses a file that is not a workbook (status 2)", async () => {
    const missing = await runFdq(["repair", file("corrupted.xlsx")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `fdq: say where to write the repaired workbook: -o OUT.xlsx for a new file, or --in-place to replace ${file("corrupted.xlsx")}`,
    );
    writeFileSync(file("notes.txt"), "not a workbook\n");
    const text = await runFdq(["repair", file("notes.txt"), "-o", file("notes.xlsx")]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(
      /^fdq repair: cannot repair .*notes\.txt: it holds text, not an Excel workbook/,
    );
  });
});

describe("a book written as openpyxl writes one, with every corrupted form", () => {
  const ROIC = '"metrics/roic","ROIC"';

  it("is repaired, and then refreshes with fdq refresh: each repaired formula gets the service's value", async () => {
    const book = new TestBook();
    const sheet = book.addWorksheet("Model");
    sheet.getCell("A2").value = "AAPL";
    sheet.getCell("A3").value = "MSFT";
    sheet.getCell("B2").value = {
      formula: `_xludf.FDQ.DATAPOINT($A2,${ROIC},2023)`,
      result: { error: "#NAME?" },
    };
    sheet.getCell("B3").value = { formula: `fdq.datapoint($A3,${ROIC},2023)`, result: { error: "#NAME?" } };
    sheet.getCell("B4").value = { formula: `[1]!_xldudf_FDQ_DATAPOINT("NFLX",${ROIC},2023)` };
    sheet.getCell("B5").value = {
      formula: `IFERROR('${BLOOMBERG_PATH}'!_xldudf_FDQ_DATAPOINT("AAPL",${ROIC},2022),"n/a")`,
    };
    sheet.getCell("B6").value = { formula: `BloombergUI.xla!_xldudf_FDQ_DATAPOINT("MSFT",${ROIC},2022)` };
    sheet.getCell("D1").value = {
      formula: '[1]!_xldudf_FDQ_DATASET("AAPL","roic",2023)',
      shareType: "array",
      ref: "D1:E3",
    };
    book.names.push({ name: "Roic", text: `_xludf.FDQ.DATAPOINT("AAPL",${ROIC},2021)` });
    book.writeFile(file("openpyxl.xlsx"));

    const repair = await runFdq(["repair", file("openpyxl.xlsx"), "-o", file("openpyxl-repaired.xlsx")]);
    expect([repair.code, repair.stderr]).toEqual([0, ""]);
    expect(repair.stdout).toMatch(
      /^Repaired 7 FDQ formulas Excel no longer recognised \(6 cells, 1 defined name\);/,
    );
    const repaired = formulasOf(file("openpyxl-repaired.xlsx"));
    expect([...repaired].map(([cell, f]) => [cell, f.formula])).toEqual([
      ["Model!D1", '_xldudf_FDQ_DATASET("AAPL","roic",2023)'],
      ["Model!B2", `_xldudf_FDQ_DATAPOINT($A2,${ROIC},2023)`],
      ["Model!B3", `_xldudf_FDQ_DATAPOINT($A3,${ROIC},2023)`],
      ["Model!B4", `_xldudf_FDQ_DATAPOINT("NFLX",${ROIC},2023)`],
      ["Model!B5", `IFERROR(_xldudf_FDQ_DATAPOINT("AAPL",${ROIC},2022),"n/a")`],
      ["Model!B6", `_xldudf_FDQ_DATAPOINT("MSFT",${ROIC},2022)`],
    ]);
    expect(readBook(file("openpyxl-repaired.xlsx")).names).toEqual([
      { name: "Roic", text: `_xldudf_FDQ_DATAPOINT("AAPL",${ROIC},2021)`, hidden: false },
    ]);

    const refresh = await runFdq([
      "refresh",
      file("openpyxl-repaired.xlsx"),
      "-o",
      file("openpyxl-refreshed.xlsx"),
      "--base-url",
      sandbox.baseUrl,
      "--api-key",
      sandbox.demoKey,
      "--no-cache",
    ]);
    // The repaired name is an FDQ call no formula uses: refreshed cells are all there is, and the name is said.
    expect([refresh.code, refresh.stderr]).toEqual([
      0,
      "fdq refresh: the name Roic: not refreshed, calls FDQ.DATAPOINT and no formula uses it, so there is no value to refresh\n",
    ]);
    const roic = (ticker: string, year: number): Promise<number> =>
      serviceNumber(sandbox, `metrics/roic/${ticker}?datapoint=ROIC&year=${year}`);
    const refreshed = formulasOf(file("openpyxl-refreshed.xlsx"));
    const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
    expect([...refreshed].map(([cell, f]) => [cell, f.formula, f.result])).toEqual([
      ["Model!D1", '_xldudf_FDQ_DATASET("AAPL","roic",2023)', records[0]?.datapoint],
      ["Model!B2", `_xldudf_FDQ_DATAPOINT($A2,${ROIC},2023)`, await roic("AAPL", 2023)],
      ["Model!B3", `_xldudf_FDQ_DATAPOINT($A3,${ROIC},2023)`, await roic("MSFT", 2023)],
      ["Model!B4", `_xldudf_FDQ_DATAPOINT("NFLX",${ROIC},2023)`, await roic("NFLX", 2023)],
      ["Model!B5", `IFERROR(_xldudf_FDQ_DATAPOINT("AAPL",${ROIC},2022),"n/a")`, await roic("AAPL", 2022)],
      ["Model!B6", `_xldudf_FDQ_DATAPOINT("MSFT",${ROIC},2022)`, await roic("MSFT", 2022)],
    ]);
  });
});
