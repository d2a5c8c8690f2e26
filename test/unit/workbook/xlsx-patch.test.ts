// The package side of `fdq refresh` without a service: the zip container copied entry by entry, the model read
// from the parts, and the value patcher (values, types, spills, new cells and rows), on hand-written parts.
import { unzipSync, zipSync } from "fflate";
import { ExcelError, type FormulaCell } from "../../../src/workbook/model";
import type { CellWrite, CellWrites } from "../../../src/workbook/xlsx/patch";
import { openPackage, PackageError } from "../../../src/workbook/xlsx/package";
import { patchPackage } from "../../../src/workbook/xlsx/patch";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { crc32, readZip, writeZip } from "../../../src/workbook/xlsx/zip";
import { fidelityBook } from "../../support/xlsx-corpus/fidelity-book";
import { TestBook } from "../../support/xlsx-corpus/test-book";
import { DECLARATION, zipParts } from "../../support/xlsx-corpus/zip-parts";

const text = (bytes: Uint8Array | undefined): string =>
  new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/** A one-sheet package whose sheet part is `sheet` (its <sheetData> and around it, as given). */
function bookWithSheet(sheet: string, strings: readonly string[] = []): Uint8Array {
  const book = new TestBook();
  book.addWorksheet("Model");
  const parts = unzipSync(book.bytes());
  parts["xl/worksheets/sheet1.xml"] = new TextEncoder().encode(sheet);
  parts["xl/sharedStrings.xml"] = new TextEncoder().encode(
    `${DECLARATION}<sst xmlns="${MAIN}">${strings.map((s) => `<si><t>${s}</t></si>`).join("")}</sst>`,
  );
  return zipSync(parts);
}

function writes(cells: Record<string, CellWrite>): CellWrites {
  const rows = new Map<number, Map<number, CellWrite>>();
  for (const [address, write] of Object.entries(cells)) {
    const m = /^([A-Z]+)(\d+)$/.exec(address) as RegExpExecArray;
    const col = [...(m[1] as string)].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
    const row = Number(m[2]);
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row)?.set(col, write);
  }
  return new Map([["Model", rows]]);
}

function patchedSheet(bytes: Uint8Array, cells: Record<string, CellWrite>): string {
  const pkg = openPackage(bytes);
  const { sharedStrings } = readWorkbook(pkg);
  return text(unzipSync(patchPackage(pkg, sharedStrings, writes(cells)).bytes)["xl/worksheets/sheet1.xml"]);
}

describe("the zip container", () => {
  it("writes an archive it changes nothing in as the same bytes", () => {
    const original = fidelityBook();
    const archive = readZip(original);
    const copy = writeZip(archive, new Map());
    expect(Buffer.from(copy)).toEqual(Buffer.from(original));
  });

  it("replaces one entry's contents and appends a new one, readable by another zip reader", () => {
    const archive = readZip(zipParts({ "a.xml": "<a/>", "b.bin": new Uint8Array([1, 2, 3]) }));
    const out = writeZip(
      archive,
      new Map([
        ["a.xml", new TextEncoder().encode("<a>new</a>")],
        ["c.xml", new TextEncoder().encode("<c/>")],
      ]),
    );
    const files = unzipSync(out);
    expect(Object.keys(files)).toEqual(["a.xml", "b.bin", "c.xml"]);
    expect([text(files["a.xml"]), [...(files["b.bin"] ?? [])], text(files["c.xml"])]).toEqual([
      "<a>new</a>",
      [1, 2, 3],
      "<c/>",
    ]);
    expect(Buffer.from(readZip(out).entries[1]?.raw ?? [])).toEqual(
      Buffer.from(archive.entries[1]?.raw ?? []),
    );
  });

  it("deflates a part given in pieces as its whole contents, with their CRC and size, readable by another zip reader", () => {
    const archive = readZip(zipParts({ "a.xml": "<a/>", "b.bin": new Uint8Array([1, 2, 3]) }));
    const whole = new TextEncoder().encode(`<a>${"0123456789".repeat(20_000)}</a>`);
    const pieces = [whole.subarray(0, 3), whole.subarray(3, 100_003), whole.subarray(100_003)];
    const out = writeZip(archive, new Map([["a.xml", pieces]]));
    expect(Buffer.from(unzipSync(out)["a.xml"] ?? [])).toEqual(Buffer.from(whole));
    const entry = readZip(out).entries[0];
    expect([entry?.crc, entry?.size]).toEqual([crc32(whole), whole.length]);
    expect(Buffer.from(readZip(out).entries[1]?.raw ?? [])).toEqual(
      Buffer.from(archive.entries[1]?.raw ?? []),
    );
  });

  it("reads an entry written with a data descriptor and copies it unchanged", () => {
    // A stored entry with flag bit 3: sizes and CRC after the data, zero in the local header.
    const name = new TextEncoder().encode("x.txt");
    const data = new TextEncoder().encode("hello");
    const zipped = unzipSync(zipSync({ "x.txt": data }, { level: 0 }));
    expect(text(zipped["x.txt"])).toBe("hello");
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 8, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const crc = readZip(zipSync({ "x.txt": data }, { level: 0 })).entries[0]?.crc ?? 0;
    const descriptor = new Uint8Array(16);
    const dv = new DataView(descriptor.buffer);
    dv.setUint32(0, 0x08074b50, true);
    dv.setUint32(4, crc, true);
    dv.setUint32(8, data.length, true);
    dv.setUint32(12, data.length, true);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(8, 8, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, name.length, true);
    central.set(name, 46);
    const end = new Uint8Array(22);
    const ev = new DataView(end.buffer);
    const directoryAt = local.length + data.length + descriptor.length;
    ev.setUint32(0, 0x06054b50, true);
    ev.setUint16(8, 1, true);
    ev.setUint16(10, 1, true);
    ev.setUint32(12, central.length, true);
    ev.setUint32(16, directoryAt, true);
    const file = new Uint8Array([...local, ...data, ...descriptor, ...central, ...end]);
    const archive = readZip(file);
    expect(archive.entries[0]?.raw.length).toBe(directoryAt);
    expect(Buffer.from(writeZip(archive, new Map()))).toEqual(Buffer.from(file));
  });
});

describe("reading the model", () => {
  it("reads the corpus: names as stored, sheet scope, tables with calculated columns, data tables, dynamic arrays", () => {
    const { model } = readWorkbook(openPackage(fidelityBook()));
    expect(model.names).toEqual([
      { name: "_xlnm.Print_Area", text: "Inputs!$A$1:$H$22", hidden: false, scope: "Inputs" },
      { name: "HiddenRate", text: "0.05", hidden: true },
      { name: "Hurdle", text: "0.08", hidden: false },
      { name: "LastYear", text: "Inputs!$B$2+4", hidden: false },
      { name: "Local", text: "Model!$B$2", hidden: false, scope: "Model" },
    ]);
    expect(model.tables).toEqual([
      {
        name: "PeTbl",
        sheet: "Model",
        ref: "A1:D4",
        headerRowCount: 1,
        totalsRowCount: 0,
        columns: [
          { name: "Ticker" },
          { name: "Year" },
          { name: "ROIC" },
          { name: "Spread", calculatedFormula: "PeTbl[[#This Row],[ROIC]]-Hurdle" },
        ],
      },
    ]);
    expect([model.externalBooks, model.date1904]).toEqual([1, false]);
    const at = (sheet: string, row: number, col: number): FormulaCell =>
      model.formulas.find((f) => f.sheet === sheet && f.row === row && f.col === col) as FormulaCell;
    // Shared formula followers at their own cell; the master as stored.
    expect([at("Model", 2, 5).formula, at("Model", 3, 5).formula, at("Model", 4, 5).formula]).toEqual([
      "C2*100",
      "C3*100",
      "C4*100",
    ]);
    expect(at("Model", 13, 2)).toMatchObject({ kind: "dataTable", cached: 400.4 });
    expect(at("Model", 1, 6).array).toEqual({ ref: "F1:G3", dynamic: true });
    expect(at("Inputs", 4, 2).cached).toBe(false);
    expect(at("Model", 9, 2).cached).toBe("below");
    // Shared strings resolved.
    expect(model.sheets[1]?.rows.get(2)?.get(1)).toBe("AAPL");
  });

  it("refuses a .xlsb with what to do", () => {
    const parts = unzipSync(new TestBook().bytes());
    parts["[Content_Types].xml"] = new TextEncoder().encode(
      text(parts["[Content_Types].xml"]).replace(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
        "application/vnd.ms-excel.sheet.binary.macroEnabled.main",
      ),
    );
    expect(() => openPackage(zipSync(parts))).toThrow(
      new PackageError(
        "it is an Excel Binary Workbook (.xlsb), which fdq refresh cannot patch: open it in Excel and save it as an " +
          "Excel Workbook (.xlsx) or Excel Macro-Enabled Workbook (.xlsm), then refresh that file",
      ),
    );
  });
});

describe("the value patcher", () => {
  const sheet = (data: string, prefix = ""): string =>
    `${DECLARATION}<${prefix}worksheet xmlns${prefix ? `:${prefix.slice(0, -1)}` : ""}="${MAIN}">` +
    `<${prefix}dimension ref="A1:C3"/><${prefix}sheetData>${data}</${prefix}sheetData></${prefix}worksheet>`;

  it("sets the value and type of a formula cell and keeps everything else of it", () => {
    const xml = patchedSheet(
      bookWithSheet(
        sheet('<row r="1" spans="1:3"><c r="A1" s="4" t="e"><f>FDQ.RATING(B1)</f><v>#N/A</v></c></row>'),
      ),
      { A1: { value: "A+ <ok> & _x0001_", formula: true } },
    );
    expect(xml).toContain(
      '<c r="A1" s="4" t="str"><f>FDQ.RATING(B1)</f><v>A+ &lt;ok&gt; &amp; _x005F_x0001_</v></c>',
    );
  });

  it("writes numbers bare, booleans as t=b, errors as t=e, and a non-finite number as #NUM!", () => {
    const cells = '<row r="1"><c r="A1"><f>X()</f></c><c r="B1"><f>X()</f></c><c r="C1"><f>X()</f></c></row>';
    const xml = patchedSheet(bookWithSheet(sheet(cells)), {
      A1: { value: 0.1 + 0.2, formula: true },
      B1: { value: true, formula: true },
      C1: { value: Infinity, formula: true },
    });
    expect(xml).toContain(
      '<c r="A1"><f>X()</f><v>0.30000000000000004</v></c><c r="B1" t="b"><f>X()</f><v>1</v></c>' +
        '<c r="C1" t="e"><f>X()</f><v>#NUM!</v></c>',
    );
  });

  it("spills into new cells in column order, new rows in row order, widening spans and the dimension", () => {
    const data =
      '<row r="1" spans="1:3"><c r="A1" cm="1"><f t="array" ref="A1">FDQ.DATASET("AAPL","roic",2023)</f><v>1</v></c>' +
      '<c r="C1"><v>9</v></c></row><row r="3" spans="1:3"><c r="A3"><v>3</v></c></row>';
    const xml = patchedSheet(bookWithSheet(sheet(data), ["known"]), {
      A1: { value: "known", formula: true, arrayRef: "A1:B4" },
      B1: { value: "known", formula: false },
      A2: { value: "new", formula: false },
      B2: { value: 2, formula: false },
      A3: { value: new ExcelError("#N/A"), formula: false },
      B3: { value: null, formula: false },
      A4: { value: " pad ", formula: false },
    });
    expect(xml).toContain(
      '<dimension ref="A1:C4"/><sheetData>' +
        '<row r="1" spans="1:3"><c r="A1" cm="1" t="str"><f t="array" ref="A1:B4">FDQ.DATASET("AAPL","roic",2023)</f><v>known</v></c>' +
        '<c r="B1" t="s"><v>0</v></c><c r="C1"><v>9</v></c></row>' +
        '<row r="2"><c r="A2" t="inlineStr"><is><t>new</t></is></c><c r="B2"><v>2</v></c></row>' +
        '<row r="3" spans="1:3"><c r="A3" t="e"><v>#N/A</v></c><c r="B3"><v>0</v></c></row>' +
        '<row r="4"><c r="A4" t="inlineStr"><is><t xml:space="preserve"> pad </t></is></c></row></sheetData>',
    );
  });

  it("empties a cell an old spill no longer covers, keeping its style", () => {
    const data =
      '<row r="1"><c r="B1" s="3" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>x</t></is></c></row>';
    const xml = patchedSheet(bookWithSheet(sheet(data), ["old"]), {
      B1: { value: undefined, formula: false },
      C1: { value: undefined, formula: false },
    });
    expect(xml).toContain('<row r="1"><c r="B1" s="3"/><c r="C1"/></row>');
  });

  it("patches a sheet written with a namespace prefix, and a self-closing row", () => {
    const data =
      '<x:row r="1"><x:c r="A1"><x:f>FDQ.X()</x:f><x:v>1</x:v></x:c></x:row><x:row r="2" spans="1:1"/>';
    const xml = patchedSheet(bookWithSheet(sheet(data, "x:")), {
      A1: { value: 5, formula: true },
      B2: { value: "y", formula: false },
    });
    expect(xml).toContain(
      '<x:row r="1"><x:c r="A1"><x:f>FDQ.X()</x:f><x:v>5</x:v></x:c></x:row>' +
        '<x:row r="2" spans="1:2"><x:c r="B2" t="inlineStr"><x:is><x:t>y</x:t></x:is></x:c></x:row>',
    );
  });

  it("keeps a byte-order mark and every character around the cells", () => {
    const part = `\uFEFF${sheet('<row r="1">\n  <c r="A1"><f>FDQ.X()</f><v>1</v></c>\n</row>')}`;
    const xml = patchedSheet(bookWithSheet(part), { A1: { value: 2, formula: true } });
    expect(xml).toBe(part.replace("<v>1</v>", "<v>2</v>"));
  });

  it("writes a sheet longer than one piece whole, a character outside the BMP across a piece's end intact", () => {
    // The text before B1 is written in pieces of 65,536 UTF-16 units: the emoji's two units straddle the first end.
    const head = sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>').split("</sheetData>")[0] as string;
    const text = `${"x".repeat(65_535 - head.length)}\u{1F600}${"y".repeat(70_000)}`;
    const part = sheet(
      `<row r="1"><c r="A1" t="inlineStr"><is><t>${text}</t></is></c><c r="B1"><f>FDQ.X()</f><v>1</v></c></row>`,
    );
    expect(part.indexOf("\u{1F600}")).toBe(65_535);
    const xml = patchedSheet(bookWithSheet(part), { B1: { value: 2, formula: true } });
    expect(xml).toBe(part.replace("<v>1</v>", "<v>2</v>"));
  });
});
