// `fdq refresh` keeps every byte of a workbook but the values it refreshes: the fidelity corpus (a hand-written
// workbook holding everything a re-serialising writer loses) refreshed against the sandbox, then compared part
// by part with the input. Contents are read back with fflate's own unzip, independently of the patcher.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { readZip } from "../../../src/workbook/xlsx/zip";
import { fidelityBook, MAY_CHANGE, SHEET_PARTS } from "../../support/xlsx-corpus/fidelity-book";
import { serviceNumber, serviceRecords } from "../functions/sandbox-oracle";
import { runFdq, type Run } from "../cli/run-fdq";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox.close());

const refresh = (args: string[]): Promise<Run> =>
  runFdq(["refresh", ...args, "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--no-cache"]);

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

/** Each cell's XML by address ("B3" -> '<c r="B3" ...>...</c>'). */
function cellsOf(xml: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g))
    cells.set(m[1] as string, m[0]);
  return cells;
}

/**
 * The sheet with the cells a refresh may change reduced to what must not change (their address, style and
 * formula, an array's ref masked), and those the input did not have removed: equal for input and output
 * exactly when nothing else changed.
 */
function masked(xml: string, mayChange: readonly string[], inInput: ReadonlySet<string>): string {
  const allowed = new Set(mayChange);
  return xml.replace(/<c r="([A-Z]+\d+)"[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g, (cell, address: string) => {
    if (!allowed.has(address)) return cell;
    if (!inInput.has(address)) return "";
    return cell
      .replace(/ t="[^"]*"/, "")
      .replace(/<v>[\s\S]*?<\/v>|<v\/>/, "")
      .replace(/<is>[\s\S]*?<\/is>/, "")
      .replace(/(<f t="array" ref=")[^"]*"/, '$1(masked)"')
      .replace(/\/>$/, "></c>");
  });
}

interface Refreshed {
  input: Uint8Array;
  output: Uint8Array;
  run: Run;
  file: string;
  out: string;
}

async function refreshCorpus(macros: boolean): Promise<Refreshed> {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-fidelity-"));
  const ext = macros ? "xlsm" : "xlsx";
  const file = path.join(dir, `model.${ext}`);
  const out = path.join(dir, `refreshed.${ext}`);
  const input = fidelityBook({ macros });
  writeFileSync(file, input);
  const run = await refresh([file, "-o", out]);
  return { input, output: new Uint8Array(readFileSync(out)), run, file, out };
}

describe.each([false, true])("the fidelity corpus (macros: %s)", (macros) => {
  let result: Refreshed;

  beforeAll(async () => {
    result = await refreshCorpus(macros);
  });

  it("writes the result and says how many parts it kept byte for byte", () => {
    const parts = Object.keys(unzipSync(result.input)).length;
    expect([0, 4]).toContain(result.run.code);
    // The two worksheets, the two lists of parts, and the record of each FDQ cell's request (its part, its
    // properties, its relationships: src/workbook/refresh/cell-sources.ts) added.
    expect(result.run.stdout).toMatch(
      new RegExp(
        `; changed 7 parts, kept ${parts - 4} other parts byte for byte\\. Wrote ${result.out.replace(/[.\\]/g, "\\$&")}\\.\\n$`,
      ),
    );
    expect(readFileSync(result.file)).toEqual(Buffer.from(result.input));
  });

  it("copies every part but the two worksheets byte for byte, compressed bytes and headers included, in order; the record part is added at the end", () => {
    const before = readZip(result.input);
    const after = readZip(result.output);
    const RECORD = ["customXml/item2.xml", "customXml/itemProps2.xml", "customXml/_rels/item2.xml.rels"];
    expect(after.entries.map((e) => e.name)).toEqual([...before.entries.map((e) => e.name), ...RECORD]);
    expect(after.fileOrder.map((e) => e.name)).toEqual([...before.fileOrder.map((e) => e.name), ...RECORD]);
    expect(text(unzipSync(result.output)["customXml/item2.xml"])).toContain(
      'xmlns="urn:fdq-excel:cell-sources"',
    );
    const sheets = new Set<string>(Object.values(SHEET_PARTS));
    // The lists of parts only gain the record's entries.
    const lists: Record<string, RegExp> = {
      "[Content_Types].xml": /<Override PartName="\/customXml\/itemProps2\.xml"[^>]*\/>/,
      "xl/_rels/workbook.xml.rels":
        /<Relationship Id="rId\d+" Type="[^"]*\/customXml" Target="\.\.\/customXml\/item2\.xml"\/>/,
    };
    for (const [i, entry] of before.entries.entries()) {
      const copy = after.entries[i];
      if (sheets.has(entry.name)) continue;
      const list = lists[entry.name];
      if (list) {
        const was = text(unzipSync(result.input)[entry.name]);
        const now = text(unzipSync(result.output)[entry.name]);
        expect(now).toMatch(list);
        expect(now.replace(list, "")).toBe(was);
        continue;
      }
      expect({ name: entry.name, raw: Buffer.from(copy?.raw ?? []) }).toEqual({
        name: entry.name,
        raw: Buffer.from(entry.raw),
      });
    }
    expect(after.end.subarray(20)).toEqual(before.end.subarray(20)); // the archive comment
  });

  it("keeps workbook.xml (calcId 191029, every defined name) and the package's content types", () => {
    const out = unzipSync(result.output);
    expect(text(out["xl/workbook.xml"])).toContain('<calcPr calcId="191029" iterateCount="50"/>');
    expect(text(out["xl/workbook.xml"])).toContain(
      '<definedName name="LastYear">Inputs!$B$2+4</definedName>',
    );
    expect(text(out["[Content_Types].xml"])).toContain(
      macros ? "application/vnd.ms-excel.sheet.macroEnabled.main+xml" : "spreadsheetml.sheet.main+xml",
    );
    if (macros) expect(out["xl/vbaProject.bin"]).toEqual(unzipSync(result.input)["xl/vbaProject.bin"]);
  });

  it.each(Object.entries(SHEET_PARTS))(
    "changes nothing in %s but the values of the refreshed cells",
    (sheet, part) => {
      const before = text(unzipSync(result.input)[part]);
      const after = text(unzipSync(result.output)[part]);
      const inInput = new Set(cellsOf(before).keys());
      const mayChange = MAY_CHANGE[sheet] ?? [];
      expect(masked(after, mayChange, inInput)).toBe(masked(before, mayChange, inInput));
    },
  );

  it("writes the FDQ answers, the grown spill and empties what the shrunk spill no longer covers", async () => {
    const model = cellsOf(text(unzipSync(result.output)[SHEET_PARTS.Model]));
    const inputs = cellsOf(text(unzipSync(result.output)[SHEET_PARTS.Inputs]));
    const msft = await serviceNumber(sandbox, "metrics/roic/MSFT?datapoint=ROIC&year=2023");
    expect(model.get("C3")).toBe(
      `<c r="C3" s="2"><f>_xldudf_FDQ_DATAPOINT(A3,"metrics/roic","ROIC",B3)</f><v>${msft}</v></c>`,
    );
    // The other stored forms of an FDQ call: _xludf.FDQ. (a function Excel could not find) and lower case.
    const roic = (t: string): Promise<number> =>
      serviceNumber(sandbox, `metrics/roic/${t}?datapoint=ROIC&year=2023`);
    expect(model.get("C2")).toBe(
      `<c r="C2" s="2"><f>_xludf.FDQ.DATAPOINT(A2,"metrics/roic","ROIC",B2)</f><v>${await roic("AAPL")}</v></c>`,
    );
    expect(model.get("C4")).toBe(
      `<c r="C4" s="2"><f>fdq.datapoint(A4,"metrics/roic","ROIC",B4)</f><v>${await roic("NFLX")}</v></c>`,
    );
    // Its year is the expression name LastYear = Inputs!$B$2+4 = 2023.
    expect(inputs.get("B3")).toBe(
      `<c r="B3" s="2"><f>FDQ.DATAPOINT(B1,"metrics/roic","ROIC",LastYear)</f><v>${await roic("AAPL")}</v></c>`,
    );
    const aapl = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
    expect(model.get("F1")).toBe(
      `<c r="F1" cm="1" t="str"><f t="array" ref="F1:G${aapl.length}">FDQ.DATASET("AAPL","roic",2023)</f>` +
        `<v>${aapl[0]?.datapoint}</v></c>`,
    );
    expect(model.get(`G${aapl.length}`)).toBe(
      `<c r="G${aapl.length}"><v>${Number(aapl[aapl.length - 1]?.datavalue)}</v></c>`,
    );
    const msftRecords = await serviceRecords(sandbox, "metrics/roic/MSFT?year=2023");
    expect(msftRecords.length).toBeLessThan(22);
    expect(inputs.get("D1")).toContain(`<f t="array" ref="D1:E${msftRecords.length}">`);
    for (let r = msftRecords.length + 1; r <= 22; r++) {
      expect([inputs.get(`D${r}`), inputs.get(`E${r}`)]).toEqual([`<c r="D${r}"/>`, `<c r="E${r}" s="2"/>`]);
    }
  });

  it("refreshed twice, differs from the first result only in values that changed (none: the same answers)", async () => {
    const dir = path.dirname(result.out);
    const again = path.join(dir, `again${path.extname(result.out)}`);
    const run = await refresh([result.out, "-o", again]);
    expect(run.code).toBe(result.run.code);
    // Identical values leave the worksheets as they were, so the whole file is the same bytes.
    expect(Buffer.from(readFileSync(again))).toEqual(Buffer.from(result.output));
  });
});

it("refuses to name a macro-enabled workbook .xlsx, sending nothing", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-fidelity-"));
  const file = path.join(dir, "model.xlsm");
  writeFileSync(file, fidelityBook({ macros: true }));
  const requests = sandbox.stats().requests;
  const run = await refresh([file, "-o", path.join(dir, "out.xlsx")]);
  expect(run).toEqual({
    code: 2,
    stdout: "",
    stderr:
      `fdq refresh: cannot write ${path.join(dir, "out.xlsx")}: the workbook has macros (.xlsm), and Excel will not ` +
      "open a macro-enabled workbook named .xlsx; give -o a name ending in .xlsm\n",
  });
  expect(sandbox.stats().requests).toBe(requests);
});
