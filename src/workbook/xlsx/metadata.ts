// Dynamic arrays in the package. Excel stores a spilling formula as an array formula (<f t="array" ref=...>)
// whose cell carries cm="N": the N-th cell-metadata block of xl/metadata.xml, pointing at XLDAPR future metadata
// (dynamicArrayProperties fDynamic="1"). Without it Excel opens the anchor as a legacy {=...} array formula.
// This reads which cm values mean "dynamic array", and, when a formula spills for the first time in a file
// that has no such metadata, adds the part as Excel writes it (with its relationship and content type).
import type { WorkbookPackage } from "./package";
import { attributeOf, childNamed, childrenNamed, textOf } from "./xml";

const METADATA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml";
const METADATA_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata";

// As Excel writes it: one metadata type (XLDAPR), one future-metadata block, one cell-metadata block (cm="1").
const METADATA_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
  '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">' +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" ' +
  'pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" ' +
  'coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">' +
  '<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';

/** The workbook's metadata part, if it has one. */
export function metadataPart(pkg: WorkbookPackage): string | undefined {
  return pkg.relationships(pkg.workbookPart).find((r) => r.type === "sheetMetadata")?.part;
}

/** The cm values that mark a cell as a dynamic array's anchor. */
export function dynamicArrayMarks(pkg: WorkbookPackage): Set<number> {
  const marks = new Set<number>();
  const part = metadataPart(pkg);
  if (part === undefined || !pkg.has(part)) return marks;
  const root = pkg.xml(part);
  const types = childrenNamed(childNamed(root, "metadataTypes"), "metadataType").map(
    (t) => attributeOf(t, "name") ?? "",
  );
  const future = childrenNamed(root, "futureMetadata").find((f) => attributeOf(f, "name") === "XLDAPR");
  const dynamicBlocks = childrenNamed(future, "bk").map((bk) => {
    const ext = childrenNamed(childNamed(bk, "extLst"), "ext");
    const props = ext.flatMap((e) => childrenNamed(e, "dynamicArrayProperties"))[0];
    const flag = props ? attributeOf(props, "fDynamic") : undefined;
    return flag === "1" || flag === "true";
  });
  childrenNamed(childNamed(root, "cellMetadata"), "bk").forEach((bk, i) => {
    for (const rc of childrenNamed(bk, "rc")) {
      const type = types[Number(attributeOf(rc, "t")) - 1];
      if (type === "XLDAPR" && dynamicBlocks[Number(attributeOf(rc, "v"))]) marks.add(i + 1);
    }
  });
  return marks;
}

export interface AddedMetadata {
  /** The cm value to give new anchors. */
  readonly mark: number;
  /** Parts to write (metadata, the workbook's relationships, the content types); empty when none change. */
  readonly parts: Map<string, Uint8Array>;
}

/**
 * The cm value that marks a new dynamic array, adding xl/metadata.xml when the workbook has none; undefined
 * when the workbook has metadata without a dynamic-array block (the anchor is then written as a legacy array
 * formula, which Excel shows with the same values).
 */
export function dynamicArrayMark(pkg: WorkbookPackage): AddedMetadata | undefined {
  const existing = dynamicArrayMarks(pkg);
  const first = [...existing].sort((a, b) => a - b)[0];
  if (first !== undefined) return { mark: first, parts: new Map() };
  if (metadataPart(pkg) !== undefined) return undefined;
  const folder = pkg.workbookPart.slice(0, pkg.workbookPart.lastIndexOf("/") + 1);
  const part = `${folder}metadata.xml`;
  if (pkg.has(part)) return undefined;
  const encoder = new TextEncoder();
  const parts = new Map<string, Uint8Array>([[part, encoder.encode(METADATA_XML)]]);
  const types = textOf(pkg.bytes("[Content_Types].xml"));
  parts.set(
    "[Content_Types].xml",
    encoder.encode(
      types.replace("</Types>", `<Override PartName="/${part}" ContentType="${METADATA_TYPE}"/></Types>`),
    ),
  );
  const relsPart = `${folder}_rels/${pkg.workbookPart.slice(folder.length)}.rels`;
  const rels = textOf(pkg.bytes(relsPart));
  const ids = new Set([...rels.matchAll(/\sId="([^"]*)"/g)].map((m) => m[1]));
  let n = ids.size + 1;
  while (ids.has(`rId${n}`)) n++;
  parts.set(
    relsPart,
    encoder.encode(
      rels.replace(
        "</Relationships>",
        `<Relationship Id="rId${n}" Type="${METADATA_REL}" Target="metadata.xml"/></Relationships>`,
      ),
    ),
  );
  return { mark: 1, parts };
}
