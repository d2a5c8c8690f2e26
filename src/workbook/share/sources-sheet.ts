// The "FDQ sources" sheet of a shared copy (its rows from src/workbook/share/fdq-sources.ts) added to the package:
// a worksheet part holding only constants (text as inline strings, so no shared string table is touched;
// Excel turns them into shared strings when it next saves), its content type, its relationship, its <sheet>
// at the end of workbook.xml's <sheets> (so no localSheetId of a defined name moves), and its title in
// docProps/app.xml when that lists the sheets.
import type { SourcesCell } from "./fdq-sources";
import { addressOfCell } from "../engine/references";
import { targetFrom } from "../own-parts";
import { insertBefore, type PackageEditor } from "../xlsx/structure";
import { attributeIn } from "../xlsx/sheet-scan";
import { escapeAttribute, escapeText } from "../xlsx/xml";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";

/** Column widths: sheet, cell, formula, value, period, refresh day, source. */
const WIDTHS = [16, 8, 60, 16, 24, 12, 60];

function cellXml(ref: string, value: SourcesCell): string {
  if (typeof value === "number")
    return Number.isFinite(value) ? `<c r="${ref}"><v>${String(value)}</v></c>` : "";
  if (typeof value === "boolean") return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  if (value === "") return "";
  const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : "";
  return `<c r="${ref}" t="inlineStr"><is><t${space}>${escapeText(value)}</t></is></c>`;
}

export function sourcesSheetXml(rows: readonly (readonly SourcesCell[])[]): string {
  const width = Math.max(1, ...rows.map((r) => r.length));
  const data = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row.map((v, c) => cellXml(addressOfCell(r + 1, c + 1), v)).join("")}</row>`,
    )
    .join("");
  const cols = WIDTHS.slice(0, width)
    .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`)
    .join("");
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    `<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:${addressOfCell(Math.max(1, rows.length), width)}"/>` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>${data}</sheetData>` +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>'
  );
}

/** Adds the sheet `name` with `rows` after the workbook's last sheet. */
export function addSourcesSheet(
  editor: PackageEditor,
  name: string,
  rows: readonly (readonly SourcesCell[])[],
): string {
  const { pkg } = editor;
  const folder = pkg.workbookPart.slice(0, pkg.workbookPart.lastIndexOf("/") + 1);
  const part = editor.freeName(`${folder}worksheets/sheet`, ".xml");
  editor.add(part, sourcesSheetXml(rows));
  editor.addOverride(part, WORKSHEET_TYPE);
  const id = editor.addRelationship(pkg.workbookPart, `${REL}/worksheet`, targetFrom(pkg.workbookPart, part));
  const workbook = editor.text(pkg.workbookPart);
  const ids = [...workbook.matchAll(/<(?:[\w.-]+:)?sheet\s[^>]*>/g)].map((m) =>
    Number(attributeIn(m[0], "sheetId") ?? 0),
  );
  const sheetId = Math.max(0, ...ids) + 1;
  const prefix = new RegExp(`xmlns:([\\w.-]+)="${REL}"`).exec(workbook)?.[1];
  const rid = prefix ? `${prefix}:id="${id}"` : `xmlns:r="${REL}" r:id="${id}"`;
  const main = /<([\w.-]+:)?sheets[\s>]/.exec(workbook)?.[1] ?? "";
  editor.setText(
    pkg.workbookPart,
    insertBefore(
      workbook,
      `</${main}sheets>`,
      `<${main}sheet name="${escapeAttribute(name)}" sheetId="${sheetId}" ${rid}/>`,
    ),
  );
  addTitle(editor, name);
  return part;
}

/** docProps/app.xml: the sheet's title after the last worksheet title, and the worksheet count one more. */
function addTitle(editor: PackageEditor, name: string): void {
  const app = "docProps/app.xml";
  if (!editor.has(app)) return;
  const xml = editor.text(app);
  const heading =
    /(<vt:lpstr>Worksheets<\/vt:lpstr><\/vt:variant>\s*<vt:variant>\s*<vt:i4>)(\d+)(<\/vt:i4>)/.exec(xml);
  const titles =
    /<TitlesOfParts>\s*<vt:vector size="(\d+)" baseType="lpstr">([\s\S]*?)<\/vt:vector>\s*<\/TitlesOfParts>/.exec(
      xml,
    );
  if (!heading || !titles) return;
  const count = Number(heading[2]);
  // Worksheets come first in TitlesOfParts when they head HeadingPairs; else after the parts listed before them.
  const before = xml.slice(0, heading.index);
  const earlier = [...before.matchAll(/<vt:i4>(\d+)<\/vt:i4>/g)].reduce((n, m) => n + Number(m[1]), 0);
  const entries = [...(titles[2] ?? "").matchAll(/<vt:lpstr>[\s\S]*?<\/vt:lpstr>/g)];
  const after = entries[earlier + count - 1];
  const inner = titles[2] ?? "";
  const at = after ? (after.index ?? 0) + after[0].length : 0;
  const newInner = `${inner.slice(0, at)}<vt:lpstr>${escapeText(name)}</vt:lpstr>${inner.slice(at)}`;
  const newTitles = titles[0]
    .replace(`size="${titles[1]}"`, `size="${Number(titles[1]) + 1}"`)
    .replace(inner, newInner);
  let next = xml.replace(titles[0], newTitles);
  next = next.replace(heading[0], `${heading[1]}${count + 1}${heading[3]}`);
  editor.setText(app, next);
}
