// The formula engine's oracle test writes workbooks for LibreOffice and reads back what LibreOffice computed.
// Writing: the smallest valid .xlsx (stored zip entries, inline strings, formulas without cached values so
// LibreOffice computes every one, defined names, tables). Reading: each sheet's cells with their values.
// Node's zlib gives the CRC and inflates LibreOffice's deflated entries; nothing else is needed.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { crc32, inflateRawSync } from "node:zlib";
import { cellPosition, rectOf } from "../../src/workbook/engine/references";

export type OracleConstant = number | string | boolean;
/**
 * A cell to write: a constant, or a formula (without "=") with `array` for an array formula's range
 * (`dynamic` marks a dynamic array for the engine; LibreOffice is never given those).
 */
export type OracleCell = OracleConstant | { f: string; array?: string; dynamic?: boolean };

export interface OracleTable {
  name: string;
  sheet: string;
  ref: string;
  columns: string[];
  totalsRow?: boolean;
}

export interface OracleBook {
  sheets: Record<string, Record<string, OracleCell>>;
  names?: { name: string; text: string; sheet?: string }[];
  tables?: OracleTable[];
}

const escape = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text, "utf8");
    const fileName = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export function unzip(bytes: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extra = bytes.readUInt16LE(at + 30);
    const comment = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    out.set(name, (method === 8 ? inflateRawSync(raw) : raw).toString("utf8"));
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

function cellXml(address: string, cell: OracleCell): string {
  if (typeof cell === "number") return `<c r="${address}"><v>${cell}</v></c>`;
  if (typeof cell === "boolean") return `<c r="${address}" t="b"><v>${cell ? 1 : 0}</v></c>`;
  if (typeof cell === "string") return `<c r="${address}" t="inlineStr"><is><t>${escape(cell)}</t></is></c>`;
  const array = cell.array ? ` t="array" ref="${cell.array}"` : "";
  return `<c r="${address}"><f${array}>${escape(cell.f)}</f></c>`;
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml";

export function writeOracleBook(book: OracleBook): Buffer {
  const sheetNames = Object.keys(book.sheets);
  const parts: Record<string, string> = {};
  const overrides: string[] = [];
  const tables = book.tables ?? [];
  sheetNames.forEach((name, i) => {
    const rows = new Map<number, string[]>();
    const cells = Object.entries(book.sheets[name] ?? {})
      .map(([address, cell]) => ({ address, cell, at: cellPosition(address)! }))
      .sort((a, b) => a.at.row - b.at.row || a.at.col - b.at.col);
    for (const { address, cell, at } of cells) {
      if (!rows.has(at.row)) rows.set(at.row, []);
      rows.get(at.row)!.push(cellXml(address, cell));
    }
    const data = [...rows].map(([row, xml]) => `<row r="${row}">${xml.join("")}</row>`).join("");
    const own = tables.map((t, k) => ({ t, k })).filter(({ t }) => t.sheet === name);
    const tableParts = own.length
      ? `<tableParts count="${own.length}">${own.map(({ k }) => `<tablePart r:id="rT${k}"/>`).join("")}</tableParts>`
      : "";
    parts[`xl/worksheets/sheet${i + 1}.xml`] =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${NS} ${REL_NS}><sheetData>${data}</sheetData>${tableParts}</worksheet>`;
    overrides.push(
      `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${TYPE}.worksheet+xml"/>`,
    );
    if (own.length) {
      parts[`xl/worksheets/_rels/sheet${i + 1}.xml.rels`] =
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        own
          .map(
            ({ k }) => `<Relationship Id="rT${k}" Type="${REL}/table" Target="../tables/table${k + 1}.xml"/>`,
          )
          .join("") +
        `</Relationships>`;
    }
  });
  tables.forEach((t, k) => {
    const totals = t.totalsRow ? ` totalsRowCount="1"` : "";
    const body = rectOf(t.sheet, t.ref)!;
    const autoFilterRef = t.totalsRow
      ? `${t.ref.split(":")[0]}:${t.ref.split(":")[1]!.replace(/\d+$/, String(body.bottom - 1))}`
      : t.ref;
    parts[`xl/tables/table${k + 1}.xml`] =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><table ${NS} id="${k + 1}" name="${t.name}" displayName="${t.name}" ref="${t.ref}"${totals}>` +
      `<autoFilter ref="${autoFilterRef}"/><tableColumns count="${t.columns.length}">` +
      t.columns.map((c, j) => `<tableColumn id="${j + 1}" name="${escape(c)}"/>`).join("") +
      `</tableColumns><tableStyleInfo name="TableStyleMedium2" showRowStripes="1"/></table>`;
    overrides.push(`<Override PartName="/xl/tables/table${k + 1}.xml" ContentType="${TYPE}.table+xml"/>`);
  });
  const names = (book.names ?? [])
    .map((n) => {
      const scope = n.sheet === undefined ? "" : ` localSheetId="${sheetNames.indexOf(n.sheet)}"`;
      return `<definedName name="${n.name}"${scope}>${escape(n.text)}</definedName>`;
    })
    .join("");
  parts["xl/workbook.xml"] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook ${NS} ${REL_NS}><sheets>` +
    sheetNames.map((n, i) => `<sheet name="${escape(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("") +
    `</sheets>${names ? `<definedNames>${names}</definedNames>` : ""}<calcPr calcId="191029" fullCalcOnLoad="1"/></workbook>`;
  parts["xl/_rels/workbook.xml.rels"] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    sheetNames
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join("") +
    `</Relationships>`;
  parts["_rels/.rels"] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  parts["[Content_Types].xml"] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/>${overrides.join("")}</Types>`;
  return zip(parts);
}

/** A value LibreOffice stored: number, text, logical, or an error as "#N/A". */
export type OracleValue = number | string | boolean | { error: string } | null;

const unescape = (s: string): string =>
  s.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e] ?? "",
  );

/** Every sheet's cell values (by "Sheet!A1") of an .xlsx LibreOffice wrote. */
export function readOracleValues(bytes: Buffer): Map<string, OracleValue> {
  const files = unzip(bytes);
  const shared = [...(files.get("xl/sharedStrings.xml") ?? "").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    unescape([...(m[1] as string).matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
  );
  const workbook = files.get("xl/workbook.xml") ?? "";
  const rels = files.get("xl/_rels/workbook.xml.rels") ?? "";
  const values = new Map<string, OracleValue>();
  for (const sheet of workbook.matchAll(/<sheet\b[^>]*name="([^"]*)"[^>]*r:id="([^"]*)"/g)) {
    const target =
      new RegExp(`Id="${sheet[2]}"[^>]*Target="([^"]*)"`).exec(rels)?.[1] ??
      new RegExp(`Target="([^"]*)"[^>]*Id="${sheet[2]}"`).exec(rels)?.[1];
    // A target is relative to xl/, or absolute ("/xl/worksheets/sheet1.xml", as openpyxl writes it).
    const xml = files.get(target?.startsWith("/") ? target.slice(1) : `xl/${target}`) ?? "";
    for (const c of xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const type = /t="([^"]*)"/.exec(c[2] as string)?.[1] ?? "n";
      const v = /<v>([\s\S]*?)<\/v>/.exec(c[3] ?? "")?.[1];
      const inline = /<is>[\s\S]*?<t[^>]*>([\s\S]*?)<\/t>/.exec(c[3] ?? "")?.[1];
      let value: OracleValue = null;
      if (type === "s" && v !== undefined) value = shared[Number(v)] ?? "";
      else if (type === "str") value = unescape(v ?? "");
      else if (type === "inlineStr") value = unescape(inline ?? "");
      else if (type === "b") value = v === "1";
      else if (type === "e") value = { error: unescape(v ?? "") };
      else if (v !== undefined) value = Number(v);
      values.set(`${unescape(sheet[1] as string)}!${c[1]}`, value);
    }
  }
  return values;
}

/** Recalculate every formula of an .xlsx on load (its cached values would otherwise be trusted). */
export const RECALCULATE_ON_LOAD =
  '<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">' +
  "<value>0</value></prop></item>";

/**
 * A LibreOffice user profile in DIR (for soffice -env:UserInstallation=file://DIR) with the settings ITEMS, and
 * the last version set up above every release: LibreOffice then skips what it does on the first start after an
 * install or upgrade, its graphics self-test (sixteen 4096 x 4096 bitmaps drawn and read back, about 7 of the
 * 8.5 CPU-seconds a conversion took with a new profile). Loading, calculating and saving do not depend on it.
 */
export function libreOfficeProfile(dir: string, items: string[] = []): string {
  mkdirSync(path.join(dir, "user"), { recursive: true });
  const lastVersion =
    '<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse">' +
    "<value>99.9</value></prop></item>";
  writeFileSync(
    path.join(dir, "user", "registrymodifications.xcu"),
    '<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry" ' +
      'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      [lastVersion, ...items].join("") +
      "</oor:items>",
  );
  return `-env:UserInstallation=file://${dir}`;
}
