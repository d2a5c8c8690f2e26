// XML of the small parts of a package (content types, relationships, workbook.xml, tables, metadata, shared
// strings) and of fdq's own custom XML parts (frozen formulas, resolved periods) read into a light tree, and the
// escaping rules of SpreadsheetML text. The one XML parser of src/ (docs/architecture.md, "Reading XML").
//
// Why saxes: it is a conforming, non-validating streaming parser (ISC, pure JavaScript, no Node built-ins, so
// it runs in the task pane too) that reports well-formedness errors instead of guessing, and decodes entities
// and character references exactly. Its DOM-free events keep memory proportional to what we keep. The
// worksheets, where the cells are, are not read through it: see sheet-scan.ts.
import { SaxesParser } from "saxes";

export interface XmlNode {
  /** Local name, without its namespace prefix ("sheet" for both <sheet> and <x:sheet>). */
  readonly name: string;
  /** Attributes by qualified name as written ("name", "r:id"). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlNode[];
  /** The text directly inside the element (all its text nodes, joined). */
  text: string;
}

const localName = (qualified: string): string => qualified.slice(qualified.indexOf(":") + 1);

/** Parses a whole part into a tree; throws with the parser's message when the XML is not well formed. */
export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ position: false });
  const root: XmlNode = { name: "", attributes: {}, children: [], text: "" };
  const stack: XmlNode[] = [root];
  let failure: Error | undefined;
  parser.on("error", (err) => {
    failure ??= err;
  });
  parser.on("opentag", (tag) => {
    const node: XmlNode = {
      name: localName(tag.name),
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: "",
    };
    (stack[stack.length - 1] as XmlNode).children.push(node);
    if (!tag.isSelfClosing) stack.push(node);
  });
  parser.on("closetag", (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on("text", (text) => {
    (stack[stack.length - 1] as XmlNode).text += text;
  });
  parser.on("cdata", (text) => {
    (stack[stack.length - 1] as XmlNode).text += text;
  });
  parser.write(xml).close();
  if (failure) throw failure;
  return root;
}

/** The attribute `local` whatever its prefix ("id" finds r:id); unprefixed names first. */
export function attributeOf(node: XmlNode, local: string): string | undefined {
  const direct = node.attributes[local];
  if (direct !== undefined) return direct;
  for (const [name, value] of Object.entries(node.attributes)) {
    if (name.includes(":") && localName(name) === local && !name.startsWith("xmlns")) return value;
  }
  return undefined;
}

export const childrenNamed = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node ? node.children.filter((c) => c.name === name) : [];

export const childNamed = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node?.children.find((c) => c.name === name);

/** The first element of the document. */
export const documentElement = (root: XmlNode): XmlNode | undefined => root.children[0];

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * A part's bytes as text, byte for byte reversible (the BOM kept); throws on bytes that are not UTF-8, which
 * fdq then does not patch rather than change.
 */
export const textOf = (bytes: Uint8Array): string => decoder.decode(bytes);
export const bytesOf = (text: string): Uint8Array => encoder.encode(text);

/**
 * A copy of `text` that does not keep the text it was cut from alive. V8 answers a slice of 13 characters or
 * more with a view into its parent string, and a view keeps the whole parent: one formula kept from a
 * worksheet's text held all of it (48.8 MB for a sheet of a million cells) for the rest of a refresh. Joining
 * a character makes a new string that slicing then flattens into a copy of the text alone.
 */
export const ownText = (text: string): string => ` ${text}`.slice(1);

/** The text of an XML document without a leading BOM, for the parser. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five entities and character references of XML text or an attribute value. */
export function unescapeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)));
    return ENTITIES[ref] ?? whole;
  });
}

/** SpreadsheetML's `_xHHHH_` escapes of characters XML cannot carry (ST_Xstring), decoded. */
export const unescapeXstring = (text: string): string =>
  text.includes("_x")
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;

/** A string as SpreadsheetML text: `_x` escapes for what XML cannot carry, then XML's own escapes. */
export function escapeText(text: string): string {
  const xstring = text.replace(/_x([0-9A-Fa-f]{4})_/g, "_x005F_x$1_").replace(
    // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 cannot hold
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g,
    (ch) => `_x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`,
  );
  return xstring.replace(/[&<>]/g, (ch) => (ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : "&gt;"));
}

export const escapeAttribute = (text: string): string => escapeText(text).replace(/"/g, "&quot;");
