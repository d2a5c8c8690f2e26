// fdq's own custom XML parts in a package (customXml/itemN.xml): the frozen formulas, the resolved periods and
// the cell sources each live in parts of their own namespace, each part with its properties part
// (customXml/itemPropsN.xml, naming the namespace, as Office writes a part added with customXmlParts.add),
// linked from workbook.xml as Office links them, so the task pane finds them with customXmlParts.getByNamespace.
import type { PackageEditor } from "./xlsx/structure";
import { documentElement, parseXml, withoutBom, type XmlNode } from "./xlsx/xml";

const CUSTOM_XML_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml";
const PROPS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps";
const PROPS_TYPE = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml";

export interface OwnPartFile {
  /** customXml/itemN.xml */
  readonly item: string;
  /** The relationship's Target as workbook.xml.rels writes it. */
  readonly target: string;
}

/** A part's name as a relationship of `source` targets it ("xl/workbook.xml" -> "../customXml/item1.xml"). */
export function targetFrom(source: string, part: string): string {
  const folder = source.slice(0, source.lastIndexOf("/") + 1);
  if (part.startsWith(folder)) return part.slice(folder.length);
  const depth = folder.split("/").filter(Boolean).length;
  return "../".repeat(depth) + part;
}

/** One kind of fdq-owned custom XML part: its root element and namespace. */
export interface OwnPart {
  readonly root: string;
  readonly namespace: string;
}

const isOfKind = (xml: string, kind: OwnPart): boolean =>
  new RegExp(
    `^(?:\\uFEFF)?(?:<\\?xml[^>]*\\?>\\s*)?<(?:[\\w.-]+:)?${kind.root}\\s[^>]*xmlns(?::[\\w.-]+)?="${kind.namespace}"`,
  ).test(xml);

/** Our parts of `kind` in the package, in the order workbook.xml.rels lists them. */
export function ownParts(editor: PackageEditor, kind: OwnPart): OwnPartFile[] {
  const { pkg } = editor;
  const relsPart = `${pkg.workbookPart.slice(0, pkg.workbookPart.lastIndexOf("/") + 1)}_rels/${pkg.workbookPart.slice(pkg.workbookPart.lastIndexOf("/") + 1)}.rels`;
  if (!editor.has(relsPart)) return [];
  const parts: OwnPartFile[] = [];
  for (const m of editor.text(relsPart).matchAll(/<Relationship\s[^>]*\/>/g)) {
    const rel = m[0];
    if (!rel.includes(`Type="${CUSTOM_XML_REL}"`)) continue;
    const target = /\sTarget="([^"]*)"/.exec(rel)?.[1];
    if (target === undefined) continue;
    const item = resolve(pkg.workbookPart, target);
    if (editor.has(item) && isOfKind(editor.text(item), kind)) parts.push({ item, target });
  }
  return parts;
}

function resolve(source: string, target: string): string {
  const out = source.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "." && seg !== "") out.push(seg);
  }
  return out.join("/");
}

const propsOf = (item: string): string => item.replace(/item(\d+)\.xml$/, "itemProps$1.xml");
const itemRelsOf = (item: string): string => item.replace(/([^/]+)$/, "_rels/$1.rels");

export function removePart(editor: PackageEditor, part: OwnPartFile): void {
  const props = propsOf(part.item);
  editor.remove(part.item);
  if (editor.has(props)) {
    editor.remove(props);
    editor.removeOverride(props);
  }
  if (editor.has(itemRelsOf(part.item))) editor.remove(itemRelsOf(part.item));
  editor.removeRelationship(editor.pkg.workbookPart, part.target);
  editor.removeOverride(part.item);
}

/**
 * The part's itemID: a GUID made from its namespace and name (unique within the workbook, where one name holds
 * one part), not a random one, so that the same refresh of the same workbook writes the same bytes.
 */
function guid(namespace: string, item: string): string {
  const text = `${namespace}|${item}`;
  let hex = "";
  for (const seed of [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]) {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    hex += (h >>> 0).toString(16).padStart(8, "0");
  }
  // A version-4-shaped GUID (the version and variant digits set), as Office writes them.
  const g = `${hex.slice(0, 12)}4${hex.slice(13, 16)}8${hex.slice(17, 32)}`.toUpperCase();
  return `{${g.slice(0, 8)}-${g.slice(8, 12)}-${g.slice(12, 16)}-${g.slice(16, 20)}-${g.slice(20, 32)}}`;
}

export function addPart(editor: PackageEditor, xml: string, namespace: string): void {
  const item = editor.freeName("customXml/item", ".xml");
  const props = propsOf(item);
  editor.add(item, xml);
  if (!editor.hasDefault("xml")) editor.addOverride(item, "application/xml");
  editor.add(
    props,
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\r\n' +
      `<ds:datastoreItem ds:itemID="${guid(namespace, item)}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml">` +
      `<ds:schemaRefs><ds:schemaRef ds:uri="${namespace}"/></ds:schemaRefs></ds:datastoreItem>`,
  );
  editor.addOverride(props, PROPS_TYPE);
  editor.add(
    itemRelsOf(item),
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${PROPS_REL}" Target="${props.slice(props.lastIndexOf("/") + 1)}"/></Relationships>`,
  );
  editor.addRelationship(editor.pkg.workbookPart, CUSTOM_XML_REL, targetFrom(editor.pkg.workbookPart, item));
}

/** Replaces our parts of `kind` with `xmls` (each a part of that kind). */
export function replaceOwnParts(editor: PackageEditor, kind: OwnPart, xmls: readonly string[]): void {
  for (const part of ownParts(editor, kind)) removePart(editor, part);
  for (const xml of xmls) addPart(editor, xml, kind.namespace);
}

/** Text as XML character data or an attribute value: markup escaped, and CR and tab kept as references. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/**
 * The document element of one of our custom XML parts (frozen formulas, resolved periods) when it is
 * `root` in `namespace`; throws the parser's error when the part is not well-formed XML.
 */
export function ourPartRoot(xml: string, root: string, namespace: string): XmlNode | undefined {
  const element = documentElement(parseXml(withoutBom(xml)));
  return element?.name === root && element.attributes.xmlns === namespace ? element : undefined;
}
