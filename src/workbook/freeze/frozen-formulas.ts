// Frozen FDQ formulas kept inside the workbook, so "Restore formulas" brings each back exactly on any machine
// with the add-in. The task pane stores them as custom XML parts of the workbook (Office.js
// `workbook.customXmlParts`, ExcelApi 1.5); `fdq freeze` / `fdq thaw` read and write the same parts in the
// package (customXml/itemN.xml). Host-neutral: no Office, no Node. The format is documented in
// docs/taskpane.md ("How frozen formulas are kept").
//
// A part is read with the package's one XML parser, saxes (parseXml of xlsx/xml.ts: conforming, it decodes XML's
// entities and character references and refuses a part that is not well formed; docs/architecture.md, "Libraries
// and why"); writing is ours (a handful of escapes), so the text is exactly what we mean it to be.
import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";
import { escapeXml } from "../own-parts";
import { childNamed, childrenNamed, documentElement, parseXml, withoutBom, type XmlNode } from "../xlsx/xml";

/** The namespace of our parts: Office finds them with `customXmlParts.getByNamespace(FROZEN_NAMESPACE)`. */
export const FROZEN_NAMESPACE = "urn:fdq-excel:frozen-formulas";

/** The format version this code writes and the newest it reads. */
export const FROZEN_VERSION = 1;

/**
 * The most characters one part holds: a freeze of many cells is kept in several parts, so no part nears
 * Excel on the web's 5 MB per request (docs: resource limits), with room for UTF-8 growth.
 */
export const MAX_PART_CHARS = 1_000_000;

/** A value a frozen cell was given: a number, text, a boolean, empty, or an error ("#N/A"). */
export type FrozenValue = number | string | boolean | null | { readonly error: string };

export interface FrozenCell {
  /** The sheet's name as Excel shows it (unquoted). */
  readonly sheet: string;
  /** "B2": the formula's own cell. */
  readonly cell: string;
  /** The formula exactly as it was, with its "=". */
  readonly formula: string;
  /** The value written in its place (the anchor's, for a spill). */
  readonly value: FrozenValue;
  /** "B2:D4": the range a spilling formula filled with values; its other cells are cleared on restore. */
  readonly spill?: string;
  /** ISO time of the freeze. */
  readonly frozenAt?: string;
  /** The refresh day (YYYY-MM-DD) the value was fetched on, when known. */
  readonly refreshDay?: string;
  /**
   * The cell as the file stored it (its <c> element: shared or array <f>, cm), when `fdq freeze` froze it:
   * `fdq thaw` puts it back byte for byte. The task pane ignores it (it restores `formula`).
   */
  readonly stored?: string;
}

/**
 * The calculation chain (xl/calcChain.xml) as it was before `fdq freeze` edited it, so `fdq thaw` gives it back
 * byte for byte once every formula is back. Kept in the first part of our namespace, DEFLATE-compressed and in
 * base64 (a chain repeats itself: a few percent of its size). The task pane does not read it (in Excel, Excel keeps the chain).
 */
export interface KeptCalcChain {
  /** The chain's part name ("xl/calcChain.xml"). */
  readonly part: string;
  /** Its text before the first freeze. */
  readonly original: string;
  /** A hash of its text after the last freeze, or "removed" when freeze removed it (see calc-chain.ts). */
  readonly after: string;
  /** When freeze removed the chain: its relationship and content-type elements and where they were. */
  readonly rel?: { readonly element: string; readonly index: number };
  readonly override?: { readonly element: string; readonly index: number };
}

/**
 * The frozen formulas part is not ours or not readable. A class of its own because fdq thaw reports it as a
 * damaged part of a workbook that otherwise opened (not a FileProblem of the file as a whole).
 */
export class FrozenFormatError extends Error {
  override name = "FrozenFormatError";
}

const cellId = (c: Pick<FrozenCell, "sheet" | "cell">): string =>
  `${c.sheet.toLowerCase()}!${c.cell.toUpperCase()}`;

/** `existing` with `added` put in: a cell frozen again replaces its earlier record. Order: existing, then new. */
export function mergeFrozen(existing: readonly FrozenCell[], added: readonly FrozenCell[]): FrozenCell[] {
  const byId = new Map(existing.map((c) => [cellId(c), c]));
  for (const c of added) {
    byId.delete(cellId(c));
    byId.set(cellId(c), c);
  }
  return [...byId.values()];
}

/** `cells` without those of `restored`. */
export function withoutCells(
  cells: readonly FrozenCell[],
  restored: readonly Pick<FrozenCell, "sheet" | "cell">[],
): FrozenCell[] {
  const gone = new Set(restored.map(cellId));
  return cells.filter((c) => !gone.has(cellId(c)));
}

// ---- writing ---------------------------------------------------------------------------------------------

/** Characters XML 1.0 cannot carry at all (control characters): a formula with one cannot be kept. */
// eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 refuses
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function checkText(text: string, what: string): string {
  if (NOT_XML.test(text)) throw new FrozenFormatError(`${what} holds a control character XML cannot keep.`);
  return text;
}

function valueElement(value: FrozenValue): string {
  if (value === null) return `<value type="empty"/>`;
  if (typeof value === "object") return `<value type="error">${escapeXml(value.error)}</value>`;
  if (typeof value === "number") return `<value type="number">${String(value)}</value>`;
  if (typeof value === "boolean") return `<value type="boolean">${value ? "true" : "false"}</value>`;
  return `<value type="text">${escapeXml(checkText(value, "A frozen text value"))}</value>`;
}

function cellElement(c: FrozenCell): string {
  const attrs = [`sheet="${escapeXml(checkText(c.sheet, "A sheet name"))}"`, `cell="${escapeXml(c.cell)}"`];
  if (c.spill) attrs.push(`spill="${escapeXml(c.spill)}"`);
  if (c.frozenAt) attrs.push(`frozenAt="${escapeXml(c.frozenAt)}"`);
  if (c.refreshDay) attrs.push(`refreshDay="${escapeXml(c.refreshDay)}"`);
  return (
    `<cell ${attrs.join(" ")}><formula>${escapeXml(checkText(c.formula, `The formula of ${c.cell}`))}</formula>` +
    `${valueElement(c.value)}${c.stored ? `<stored>${escapeXml(checkText(c.stored, `The cell ${c.cell}`))}</stored>` : ""}</cell>`
  );
}

const open = `<?xml version="1.0" encoding="UTF-8"?><frozenFormulas xmlns="${FROZEN_NAMESPACE}" version="${FROZEN_VERSION}">`;
const close = "</frozenFormulas>";

/** One part's XML for `cells` (an empty list is a valid, empty part). */
export function serializeFrozen(cells: readonly FrozenCell[]): string {
  return open + cells.map(cellElement).join("") + close;
}

/** `cells` as as few parts as fit MAX_PART_CHARS each (no part for no cells). */
export function serializeFrozenParts(cells: readonly FrozenCell[], maxChars = MAX_PART_CHARS): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let size = open.length + close.length;
  for (const c of cells) {
    const element = cellElement(c);
    if (current.length > 0 && size + element.length > maxChars) {
      parts.push(open + current.join("") + close);
      current = [];
      size = open.length + close.length;
    }
    current.push(element);
    size += element.length;
  }
  if (current.length > 0) parts.push(open + current.join("") + close);
  return parts;
}

const b64 = (bytes: Uint8Array): string => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
const unb64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** `part` (one of serializeFrozenParts) with the kept calculation chain added. */
export function withKeptChain(part: string, chain: KeptCalcChain): string {
  const attrs = [`part="${escapeXml(chain.part)}"`, `after="${escapeXml(chain.after)}"`];
  if (chain.rel) attrs.push(`rel="${escapeXml(chain.rel.element)}"`, `relIndex="${chain.rel.index}"`);
  if (chain.override)
    attrs.push(`override="${escapeXml(chain.override.element)}"`, `overrideIndex="${chain.override.index}"`);
  const element = `<calcChain ${attrs.join(" ")}>${b64(deflateSync(strToU8(chain.original)))}</calcChain>`;
  return part.slice(0, part.length - close.length) + element + close;
}

// ---- reading ---------------------------------------------------------------------------------------------

function parseValue(node: XmlNode | undefined, where: string): FrozenValue {
  const type = node?.attributes.type;
  const text = node?.text ?? "";
  switch (type) {
    case "empty":
      return null;
    case "error":
      return { error: text };
    case "number": {
      const n = Number(text);
      if (text.trim() === "" || !Number.isFinite(n))
        throw new FrozenFormatError(`${where}: "${text}" is not a number.`);
      return n;
    }
    case "boolean":
      if (text !== "true" && text !== "false")
        throw new FrozenFormatError(`${where}: "${text}" is not a boolean.`);
      return text === "true";
    case "text":
      return text;
    default:
      throw new FrozenFormatError(`${where}: a value without a known type.`);
  }
}

function parseCell(node: XmlNode, i: number): FrozenCell {
  const where = `frozen cell ${i + 1}`;
  const { sheet, cell, spill, frozenAt, refreshDay } = node.attributes;
  if (typeof sheet !== "string" || sheet === "") throw new FrozenFormatError(`${where} has no sheet.`);
  if (typeof cell !== "string" || !/^[A-Z]{1,3}[1-9]\d*$/.test(cell))
    throw new FrozenFormatError(`${where} has no cell address.`);
  const formula = childNamed(node, "formula")?.text ?? "";
  const stored = childNamed(node, "stored")?.text ?? "";
  if (!formula.startsWith("=")) throw new FrozenFormatError(`${where} (${sheet}!${cell}) has no formula.`);
  return {
    sheet,
    cell,
    formula,
    value: parseValue(childNamed(node, "value"), `${where} (${sheet}!${cell})`),
    ...(typeof spill === "string" && spill !== "" ? { spill } : {}),
    ...(typeof frozenAt === "string" ? { frozenAt } : {}),
    ...(typeof refreshDay === "string" ? { refreshDay } : {}),
    ...(stored !== "" ? { stored } : {}),
  };
}

/** The cells of one part; throws FrozenFormatError for a part that is not ours or from a newer version. */
export function parseFrozen(xml: string): FrozenCell[] {
  let node: XmlNode | undefined;
  try {
    node = documentElement(parseXml(withoutBom(xml)));
  } catch (err) {
    throw new FrozenFormatError(`The frozen formulas part is not well-formed XML (${String(err)}).`);
  }
  if (node?.name !== "frozenFormulas") throw new FrozenFormatError("Not a frozen formulas part.");
  if (node.attributes.xmlns !== FROZEN_NAMESPACE)
    throw new FrozenFormatError(`Not in the namespace ${FROZEN_NAMESPACE}.`);
  const version = Number(node.attributes.version);
  if (!Number.isInteger(version) || version < 1) throw new FrozenFormatError("The part has no version.");
  if (version > FROZEN_VERSION) {
    throw new FrozenFormatError(
      `These formulas were frozen by a newer FDQ for Excel (format ${version}): update the add-in to restore them.`,
    );
  }
  return childrenNamed(node, "cell").map(parseCell);
}

/** The kept calculation chain of several parts (the last one written), if any. */
export function parseKeptChain(xmls: readonly string[]): KeptCalcChain | undefined {
  let kept: KeptCalcChain | undefined;
  for (const xml of xmls) {
    const root = documentElement(parseXml(withoutBom(xml)));
    const node = root?.name === "frozenFormulas" ? childNamed(root, "calcChain") : undefined;
    const {
      part,
      after,
      rel: relElement,
      relIndex,
      override: overrideElement,
      overrideIndex,
    } = node?.attributes ?? {};
    if (!node || typeof part !== "string" || typeof after !== "string") continue;
    let original: string;
    try {
      original = strFromU8(inflateSync(unb64(node.text.trim())));
    } catch {
      throw new FrozenFormatError("The kept calculation chain is damaged.");
    }
    const at = (element: string | undefined, index: string | undefined) =>
      typeof element === "string" && Number.isInteger(Number(index))
        ? { element, index: Number(index) }
        : undefined;
    const rel = at(relElement, relIndex);
    const override = at(overrideElement, overrideIndex);
    kept = {
      part,
      original,
      after,
      ...(rel && { rel }),
      ...(override && { override }),
    };
  }
  return kept;
}

/** The cells of several parts, in order, a cell in a later part replacing an earlier record of it. */
export function parseFrozenParts(xmls: readonly string[]): FrozenCell[] {
  return xmls.reduce<FrozenCell[]>((all, xml) => mergeFrozen(all, parseFrozen(xml)), []);
}
