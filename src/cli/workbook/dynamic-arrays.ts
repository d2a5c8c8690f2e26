// Dynamic arrays in the .xlsx, which exceljs neither reads nor writes. Excel stores a spilling formula as an
// array formula (<f t="array" ref="D1:E10">) whose cell carries cm="1", an index into xl/metadata.xml whose
// cell metadata points at the XLDAPR future metadata (dynamicArrayProperties fDynamic="1"). Without it Excel
// opens the anchor as a legacy {=...} array formula. So after exceljs has written the file, the anchors are
// marked in the sheet XML and metadata.xml is added (with its relationship and content type); before reading,
// the anchors the file already marks (the user's own dynamic arrays, fdq's from the last refresh) are noted so
// that they are marked again. The zip is handled with jszip (MIT option of its dual licence), which exceljs
// itself uses.
import JSZip from "jszip";

/** "Sheet name" -> A1 addresses of its dynamic-array anchors. */
export type DynamicAnchors = Map<string, Set<string>>;

const METADATA_PART = "xl/metadata.xml";
const METADATA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml";
const METADATA_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata";

// As Excel writes it: one metadata type (XLDAPR), one future-metadata block, one cell-metadata block (cm="1").
const METADATA_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">' +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" ' +
  'pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" ' +
  'coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">' +
  '<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';

const xmlDecode = (s: string): string =>
  s.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e] ?? "",
  );

const attribute = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? xmlDecode(m[1] as string) : undefined;
};

/** Sheet name -> its part in the zip ("xl/worksheets/sheet1.xml"). */
async function sheetParts(zip: JSZip): Promise<Map<string, string>> {
  const workbook = (await zip.file("xl/workbook.xml")?.async("string")) ?? "";
  const rels = (await zip.file("xl/_rels/workbook.xml.rels")?.async("string")) ?? "";
  const targets = new Map<string, string>();
  for (const tag of rels.match(/<Relationship\b[^>]*>/g) ?? []) {
    const id = attribute(tag, "Id");
    const target = attribute(tag, "Target");
    if (id && target) targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`);
  }
  const parts = new Map<string, string>();
  for (const tag of workbook.match(/<sheet\b[^>]*>/g) ?? []) {
    const name = attribute(tag, "name");
    const target = targets.get(attribute(tag, "r:id") ?? "");
    if (name !== undefined && target) parts.set(name, target);
  }
  return parts;
}

/** The anchors a file marks as dynamic arrays (any cell with cell metadata on an array formula). */
export async function readDynamicAnchors(xlsx: Buffer): Promise<DynamicAnchors> {
  const zip = await JSZip.loadAsync(xlsx);
  const anchors: DynamicAnchors = new Map();
  for (const [name, part] of await sheetParts(zip)) {
    const xml = (await zip.file(part)?.async("string")) ?? "";
    const found = new Set<string>();
    for (const m of xml.matchAll(/<c\b([^>]*)>\s*<f\b[^>]*\bt="array"/g)) {
      const tag = m[1] as string;
      const address = attribute(tag, "r");
      if (address && attribute(tag, "cm") !== undefined) found.add(address);
    }
    if (found.size > 0) anchors.set(name, found);
  }
  return anchors;
}

/** Marks `anchors` in the xlsx exceljs wrote (their array formulas must be written already). */
export async function markDynamicArrays(xlsx: Buffer, anchors: DynamicAnchors): Promise<Buffer> {
  if (anchors.size === 0) return xlsx;
  const zip = await JSZip.loadAsync(xlsx);
  const parts = await sheetParts(zip);
  for (const [sheet, addresses] of anchors) {
    const part = parts.get(sheet);
    const xml = part ? await zip.file(part)?.async("string") : undefined;
    if (!part || xml === undefined) continue;
    // Only array formulas are marked: a cell that is no longer one (its formula was changed) stays as it is.
    const marked = xml.replace(
      /<c\b([^>]*)>(\s*<f\b[^>]*\bt="array")/g,
      (whole, tag: string, rest: string) => {
        const address = attribute(tag, "r");
        if (!address || !addresses.has(address) || attribute(tag, "cm") !== undefined) return whole;
        return `<c${tag} cm="1">${rest}`;
      },
    );
    zip.file(part, marked);
  }
  zip.file(METADATA_PART, METADATA_XML);
  const types = (await zip.file("[Content_Types].xml")?.async("string")) ?? "";
  if (!types.includes(`PartName="/${METADATA_PART}"`)) {
    zip.file(
      "[Content_Types].xml",
      types.replace(
        "</Types>",
        `<Override PartName="/${METADATA_PART}" ContentType="${METADATA_TYPE}"/></Types>`,
      ),
    );
  }
  const relsPart = "xl/_rels/workbook.xml.rels";
  const rels = (await zip.file(relsPart)?.async("string")) ?? "";
  if (!rels.includes(METADATA_REL)) {
    zip.file(
      relsPart,
      rels.replace(
        "</Relationships>",
        `<Relationship Id="rIdFdqMetadata" Type="${METADATA_REL}" Target="metadata.xml"/></Relationships>`,
      ),
    );
  }
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}
