// A small workbook writer and reader for tests: hand-written SpreadsheetML parts zipped with fflate (as the
// corpus is), and the refreshed file read back through src/workbook/xlsx's reader. Cells are given and read in
// one plain shape: a constant, an error as { error: "#N/A" }, or a formula as { formula, result? } with
// shareType "array" and ref for an array formula (dynamic: true marks it as Excel marks a dynamic array).
import { readFileSync, writeFileSync } from "node:fs";
import { addressOfCell, cellPosition } from "../../../src/workbook/engine/references";
import { ExcelError, sheetKey, type FormulaCell, type Scalar } from "../../../src/workbook/model";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { DECLARATION, zipParts } from "./zip-parts";

export interface FormulaValue {
  formula: string;
  result?: Constant;
  shareType?: "array";
  ref?: string;
  /** With shareType "array": a dynamic array (cm="1" and XLDAPR metadata), as Excel stores a spill. */
  dynamic?: boolean;
}
export type Constant = number | string | boolean | { error: string };
export type CellValue = Constant | FormulaValue | null;

const escape = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const isFormula = (v: CellValue): v is FormulaValue => typeof v === "object" && v !== null && "formula" in v;

export class TestSheet {
  readonly cells = new Map<string, CellValue>();
  constructor(readonly name: string) {}
  getCell(address: string): { value: CellValue } {
    const cells = this.cells;
    return {
      get value(): CellValue {
        return cells.get(address) ?? null;
      },
      set value(v: CellValue) {
        cells.set(address, v);
      },
    };
  }
}

export interface TestName {
  name: string;
  text: string;
  localSheetId?: number;
  hidden?: boolean;
}

export class TestBook {
  readonly sheets: TestSheet[] = [];
  readonly names: TestName[] = [];

  addWorksheet(name: string): TestSheet {
    const sheet = new TestSheet(name);
    this.sheets.push(sheet);
    return sheet;
  }

  bytes(): Uint8Array {
    const strings: string[] = [];
    const stringIndex = (s: string): number => {
      let i = strings.indexOf(s);
      if (i < 0) i = strings.push(s) - 1;
      return i;
    };
    let dynamic = false;
    const valueXml = (v: Constant | undefined, formula: boolean): [string, string] => {
      if (v === undefined) return ["", ""];
      if (typeof v === "number") return ["", `<v>${v}</v>`];
      if (typeof v === "boolean") return [' t="b"', `<v>${v ? 1 : 0}</v>`];
      if (typeof v === "object") return [' t="e"', `<v>${escape(v.error)}</v>`];
      return formula ? [' t="str"', `<v>${escape(v)}</v>`] : [' t="s"', `<v>${stringIndex(v)}</v>`];
    };
    const sheetXml = (sheet: TestSheet): string => {
      const rows = new Map<number, [number, string][]>();
      for (const [address, value] of sheet.cells) {
        const at = cellPosition(address);
        if (!at || value === null) continue;
        let xml: string;
        if (isFormula(value)) {
          const [t, v] = valueXml(value.result, true);
          const array = value.shareType === "array" ? ` t="array" ref="${value.ref ?? address}"` : "";
          const cm = value.shareType === "array" && value.dynamic ? ' cm="1"' : "";
          if (cm) dynamic = true;
          xml = `<c r="${address}"${cm}${t}><f${array}>${escape(value.formula)}</f>${v}</c>`;
        } else {
          const [t, v] = valueXml(value, false);
          xml = `<c r="${address}"${t}>${v}</c>`;
        }
        const row = rows.get(at.row) ?? [];
        row.push([at.col, xml]);
        rows.set(at.row, row);
      }
      const data = [...rows.entries()]
        .sort(([a], [b]) => a - b)
        .map(
          ([r, cells]) =>
            `<row r="${r}">${cells
              .sort(([a], [b]) => a - b)
              .map(([, x]) => x)
              .join("")}</row>`,
        )
        .join("");
      return `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${data}</sheetData></worksheet>`;
    };
    const sheets = this.sheets.map(sheetXml);
    const names =
      this.names.length === 0
        ? ""
        : `<definedNames>${this.names
            .map(
              (n) =>
                `<definedName name="${n.name}"${n.localSheetId !== undefined ? ` localSheetId="${n.localSheetId}"` : ""}` +
                `${n.hidden ? ' hidden="1"' : ""}>${escape(n.text)}</definedName>`,
            )
            .join("")}</definedNames>`;
    const o = (part: string, type: string): string => `<Override PartName="/${part}" ContentType="${type}"/>`;
    const sml = "application/vnd.openxmlformats-officedocument.spreadsheetml";
    const parts: Record<string, string> = {
      "[Content_Types].xml":
        `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        o("xl/workbook.xml", `${sml}.sheet.main+xml`) +
        this.sheets.map((_, i) => o(`xl/worksheets/sheet${i + 1}.xml`, `${sml}.worksheet+xml`)).join("") +
        o("xl/sharedStrings.xml", `${sml}.sharedStrings+xml`) +
        (dynamic ? o("xl/metadata.xml", `${sml}.sheetMetadata+xml`) : "") +
        "</Types>",
      "_rels/.rels":
        `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      "xl/workbook.xml":
        `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
        this.sheets
          .map((s, i) => `<sheet name="${escape(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join("") +
        `</sheets>${names}<calcPr calcId="191029"/></workbook>`,
      "xl/_rels/workbook.xml.rels":
        `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        this.sheets
          .map(
            (_, i) =>
              `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
          )
          .join("") +
        `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
        (dynamic ? `<Relationship Id="rIdM" Type="${REL}/sheetMetadata" Target="metadata.xml"/>` : "") +
        "</Relationships>",
    };
    this.sheets.forEach((_, i) => (parts[`xl/worksheets/sheet${i + 1}.xml`] = sheets[i] as string));
    parts["xl/sharedStrings.xml"] =
      `${DECLARATION}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((s) => `<si><t xml:space="preserve">${escape(s)}</t></si>`).join("") +
      "</sst>";
    if (dynamic) parts["xl/metadata.xml"] = DYNAMIC_METADATA;
    return zipParts(parts);
  }

  writeFile(file: string): void {
    writeFileSync(file, this.bytes());
  }
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const DYNAMIC_METADATA =
  `${DECLARATION}<metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';

/** A cell read back from a refreshed file. */
export interface ReadCell {
  /** The constant, or for a formula { formula, result } (with shareType and ref for an array). */
  readonly value: CellValue;
  /** The formula's text, for a formula cell. */
  readonly formula: string | undefined;
  /** The cached result of a formula cell (undefined: none stored). */
  readonly result: Constant | null | undefined;
}

const constantOf = (v: Scalar): Constant | null => (v instanceof ExcelError ? { error: v.code } : v);
const isFormulaCell = (v: unknown): v is FormulaCell =>
  typeof v === "object" && v !== null && "formula" in v && "sheet" in v;

export interface ReadBook {
  getWorksheet(name: string): { getCell(address: string): ReadCell } | undefined;
  readonly names: readonly { name: string; text: string }[];
}

/** Reads a workbook file back (through src/workbook/xlsx's reader). */
export function readBook(file: string): ReadBook {
  const { model } = readWorkbook(openPackage(new Uint8Array(readFileSync(file))));
  return {
    names: model.names,
    getWorksheet(name: string) {
      const sheet = model.sheets.find((s) => sheetKey(s.name) === sheetKey(name));
      if (!sheet) return undefined;
      return {
        getCell(address: string): ReadCell {
          const at = cellPosition(address);
          const held = at ? sheet.rows.get(at.row)?.get(at.col) : undefined;
          if (held === undefined) return { value: null, formula: undefined, result: undefined };
          if (!isFormulaCell(held)) return { value: constantOf(held), formula: undefined, result: undefined };
          const result = held.cached === undefined ? undefined : constantOf(held.cached);
          const value: FormulaValue = { formula: held.formula };
          if (result !== undefined && result !== null) value.result = result;
          if (held.array) {
            value.shareType = "array";
            value.ref = held.array.ref;
          }
          return { value, formula: held.formula, result };
        },
      };
    },
  };
}

/** Every formula cell of a workbook file ("Sheet!A1" -> its formula and cached result), in sheet order. */
export function formulasOf(
  file: string,
): Map<string, { formula: string; result: Constant | null | undefined }> {
  const { model } = readWorkbook(openPackage(new Uint8Array(readFileSync(file))));
  return new Map(
    model.formulas.map((f) => [
      `${f.sheet}!${addressOfCell(f.row, f.col)}`,
      { formula: f.formula, result: f.cached === undefined ? undefined : constantOf(f.cached) },
    ]),
  );
}
