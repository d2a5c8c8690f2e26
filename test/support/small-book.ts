// A small workbook written by hand, part by part (as a tool that does not calculate writes one: formulas with
// or without cached values, text as inline strings), for the CLI's scope, change-report and freeze tests.
import { DECLARATION, zipParts } from "./xlsx-corpus/zip-parts";

/** A cell: a formula (without "=", optionally with its cached number or text), or a constant. */
export type SmallCell =
  { readonly f: string; readonly v?: number | string; readonly e?: string } | number | string;

export type SmallSheets = Readonly<Record<string, Readonly<Record<string, SmallCell>>>>;

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";

const escape = (t: string): string => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function rowOf(ref: string): number {
  return Number(/\d+$/.exec(ref)?.[0]);
}

function cellXml(ref: string, cell: SmallCell): string {
  if (typeof cell === "number") return `<c r="${ref}"><v>${cell}</v></c>`;
  if (typeof cell === "string") return `<c r="${ref}" t="inlineStr"><is><t>${escape(cell)}</t></is></c>`;
  const f = `<f>${escape(cell.f)}</f>`;
  if (cell.e !== undefined) return `<c r="${ref}" t="e">${f}<v>${cell.e}</v></c>`;
  if (typeof cell.v === "number") return `<c r="${ref}">${f}<v>${cell.v}</v></c>`;
  if (typeof cell.v === "string") return `<c r="${ref}" t="str">${f}<v>${escape(cell.v)}</v></c>`;
  return `<c r="${ref}">${f}</c>`;
}

const columnOf = (ref: string): number =>
  [...(/^[A-Z]+/.exec(ref)?.[0] ?? "")].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

function sheetXml(cells: Readonly<Record<string, SmallCell>>): string {
  const rows = new Map<number, string[]>();
  const refs = Object.keys(cells).sort((a, b) => rowOf(a) - rowOf(b) || columnOf(a) - columnOf(b));
  for (const ref of refs) {
    const r = rowOf(ref);
    const row = rows.get(r);
    if (row) row.push(cellXml(ref, cells[ref] as SmallCell));
    else rows.set(r, [cellXml(ref, cells[ref] as SmallCell)]);
  }
  const data = [...rows].map(([r, xs]) => `<row r="${r}">${xs.join("")}</row>`).join("");
  return `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${data}</sheetData></worksheet>`;
}

/** `fullCalcOnLoad`: the workbook asks to be recalculated whole when opened (as some tools write it). */
export function smallBook(sheets: SmallSheets, options: { fullCalcOnLoad?: boolean } = {}): Uint8Array {
  const names = Object.keys(sheets);
  const parts: Record<string, string> = {
    "[Content_Types].xml":
      DECLARATION +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/>` +
      names
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${SML}.worksheet+xml"/>`,
        )
        .join("") +
      "</Types>",
    "_rels/.rels":
      DECLARATION +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml":
      DECLARATION +
      `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
      names.map((n, i) => `<sheet name="${escape(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("") +
      `</sheets><calcPr calcId="191029"${options.fullCalcOnLoad ? ' fullCalcOnLoad="1"' : ""}/></workbook>`,
    "xl/_rels/workbook.xml.rels":
      DECLARATION +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      names
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join("") +
      "</Relationships>",
  };
  names.forEach((name, i) => {
    parts[`xl/worksheets/sheet${i + 1}.xml`] = sheetXml(sheets[name] ?? {});
  });
  return zipParts(parts);
}
