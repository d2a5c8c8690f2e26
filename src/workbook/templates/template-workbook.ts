// A new .xlsx holding one template's sheet (`fdq new`): text as inline strings, numbers, formulas without a
// cached value, and a style per number format and weight. FDQ calls are stored as Excel stores an add-in's
// JavaScript function, _xldudf_FDQ_NAME(...) (docs/functions.md, "What _xldudf_ is"), so Excel with the add-in
// binds them when it opens the file; fdq refresh reads that form too. The workbook does not ask to be
// recalculated whole when it opens (fullCalcOnLoad), which would throw away the values fdq refresh writes. The package is new, so it is zipped whole with fflate (the
// zip library of src/workbook/xlsx); editing an existing package goes through xlsx/zip.ts instead.
import { zipSync } from "fflate";
import { columnNumber } from "../../formula/grid";
import { canonicalHead, fdqCallHeads } from "../../functions/formula-repair";
import { escapeAttribute, escapeText } from "../xlsx/xml";
import type { TemplateCell, TemplateSheet } from "./template-sheet";

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";
/** The first id of a workbook's own number formats (ids under it are Excel's built-in ones). */
const FIRST_CUSTOM_FORMAT = 164;

/** The formula as stored in the file: no "=", FDQ heads in Excel's stored form. */
export function storedFormula(formula: string): string {
  const text = formula.startsWith("=") ? formula.slice(1) : formula;
  let out = "";
  let from = 0;
  for (const head of fdqCallHeads(text)) {
    out += text.slice(from, head.start) + canonicalHead(head.name, "file");
    from = head.end;
  }
  return out + text.slice(from);
}

/** The cell styles the sheet uses: index 0 is the default; one more per format and weight. */
class Styles {
  private readonly formats: string[] = [];
  private readonly xfs: string[] = ['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'];
  private readonly index = new Map<string, number>();

  of(cell: TemplateCell): number {
    if (!cell.format && !cell.bold) return 0;
    const key = `${cell.bold ? "b" : ""}|${cell.format ?? ""}`;
    const known = this.index.get(key);
    if (known !== undefined) return known;
    let numFmtId = 0;
    if (cell.format) {
      const at = this.formats.indexOf(cell.format);
      numFmtId = FIRST_CUSTOM_FORMAT + (at >= 0 ? at : this.formats.push(cell.format) - 1);
    }
    const font = cell.bold ? 1 : 0;
    this.xfs.push(
      `<xf numFmtId="${numFmtId}" fontId="${font}" fillId="0" borderId="0" xfId="0"` +
        `${numFmtId ? ' applyNumberFormat="1"' : ""}${font ? ' applyFont="1"' : ""}/>`,
    );
    this.index.set(key, this.xfs.length - 1);
    return this.xfs.length - 1;
  }

  xml(): string {
    const numFmts = this.formats
      .map(
        (code, i) => `<numFmt numFmtId="${FIRST_CUSTOM_FORMAT + i}" formatCode="${escapeAttribute(code)}"/>`,
      )
      .join("");
    return (
      DECLARATION +
      `<styleSheet xmlns="${MAIN}">` +
      (numFmts ? `<numFmts count="${this.formats.length}">${numFmts}</numFmts>` : "") +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
      '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length}">${this.xfs.join("")}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      "</styleSheet>"
    );
  }
}

const rowOf = (ref: string): number => Number(/\d+$/.exec(ref)?.[0]);
const columnOf = (ref: string): number => columnNumber(/^[A-Z]+/.exec(ref)?.[0] ?? "");

function cellXml(cell: TemplateCell, style: number): string {
  const s = style ? ` s="${style}"` : "";
  if (cell.formula !== undefined)
    return `<c r="${cell.ref}"${s}><f>${escapeText(storedFormula(cell.formula))}</f></c>`;
  if (cell.number !== undefined) return `<c r="${cell.ref}"${s}><v>${String(cell.number)}</v></c>`;
  const text = cell.text ?? "";
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
  return `<c r="${cell.ref}"${s} t="inlineStr"><is><t${space}>${escapeText(text)}</t></is></c>`;
}

function worksheetXml(sheet: TemplateSheet, styles: Styles): string {
  const cells = [...sheet.cells].sort(
    (a, b) => rowOf(a.ref) - rowOf(b.ref) || columnOf(a.ref) - columnOf(b.ref),
  );
  const rows = new Map<number, string[]>();
  for (const cell of cells) {
    const r = rowOf(cell.ref);
    const list = rows.get(r) ?? [];
    list.push(cellXml(cell, styles.of(cell)));
    rows.set(r, list);
  }
  const cols = sheet.widths
    .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`)
    .join("");
  const data = [...rows].map(([r, xs]) => `<row r="${r}">${xs.join("")}</row>`).join("");
  return (
    DECLARATION +
    `<worksheet xmlns="${MAIN}" xmlns:r="${REL}">` +
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (cols ? `<cols>${cols}</cols>` : "") +
    `<sheetData>${data}</sheetData>` +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>'
  );
}

/** The bytes of a new workbook whose one sheet is `sheet`. */
export function templateWorkbook(sheet: TemplateSheet): Uint8Array {
  const styles = new Styles();
  const worksheet = worksheetXml(sheet, styles);
  const parts: Record<string, string> = {
    "[Content_Types].xml":
      DECLARATION +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SML}.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="${SML}.styles+xml"/>` +
      "</Types>",
    "_rels/.rels":
      DECLARATION +
      `<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml":
      DECLARATION +
      `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets>` +
      `<sheet name="${escapeAttribute(sheet.sheetName)}" sheetId="1" r:id="rId1"/>` +
      '</sheets><calcPr calcId="191029"/></workbook>',
    "xl/_rels/workbook.xml.rels":
      DECLARATION +
      `<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    "xl/worksheets/sheet1.xml": worksheet,
    "xl/styles.xml": styles.xml(),
  };
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(parts)) files[name] = encoder.encode(text);
  return zipSync(files, { level: 6 });
}
