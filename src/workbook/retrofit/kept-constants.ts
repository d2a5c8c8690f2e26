// The constants fdq retrofit replaced, kept inside the workbook so that fdq thaw gives them back exactly: each
// cell's element as the file stored it before (<c> with its style, type and value) and as retrofit wrote it.
// They live in fdq's own custom XML parts (src/workbook/own-parts.ts) in a namespace of their own, beside the
// frozen formulas. Host-neutral: no Office, no Node.
import { escapeXml, isNode, ownParts, partParser, replaceOwnParts, type OwnPart } from "../own-parts";
import type { PackageEditor } from "../xlsx/structure";

export const KEPT_CONSTANTS_NAMESPACE = "urn:fdq-excel:retrofitted-constants";
/** The format version this code writes and the newest it reads. */
export const KEPT_CONSTANTS_VERSION = 1;

const KIND: OwnPart = { root: "retrofittedConstants", namespace: KEPT_CONSTANTS_NAMESPACE };

export interface KeptConstant {
  /** The sheet's name as Excel shows it. */
  readonly sheet: string;
  /** "C7" */
  readonly cell: string;
  /** The cell's element before fdq retrofit, byte for byte. */
  readonly original: string;
  /** The element fdq retrofit wrote (its formula and the value it had then). */
  readonly written: string;
}

export class KeptConstantsError extends Error {
  override name = "KeptConstantsError";
}

const textOf = (v: unknown): string =>
  typeof v === "string" ? v : isNode(v) && typeof v["#text"] === "string" ? v["#text"] : "";

export function serializeKept(cells: readonly KeptConstant[]): string {
  const body = cells
    .map(
      (c) =>
        `<cell sheet="${escapeXml(c.sheet)}" cell="${escapeXml(c.cell)}">` +
        `<original>${escapeXml(c.original)}</original><written>${escapeXml(c.written)}</written></cell>`,
    )
    .join("");
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    `<retrofittedConstants xmlns="${KEPT_CONSTANTS_NAMESPACE}" version="${KEPT_CONSTANTS_VERSION}">${body}</retrofittedConstants>`
  );
}

export function parseKept(xml: string): KeptConstant[] {
  let doc: unknown;
  try {
    doc = partParser.parse(xml, true);
  } catch (err) {
    throw new KeptConstantsError(`The kept constants part is not well-formed XML (${String(err)}).`);
  }
  const root = isNode(doc) ? doc.retrofittedConstants : undefined;
  const node = isNode(root) ? root : {};
  const version = Number(node.version);
  if (!Number.isInteger(version) || version < 1)
    throw new KeptConstantsError("The kept constants part has no version.");
  if (version > KEPT_CONSTANTS_VERSION)
    throw new KeptConstantsError(
      `These constants were kept by a newer fdq (format ${version}): update fdq to restore them.`,
    );
  const cells = Array.isArray(node.cell) ? node.cell : [];
  return cells.map((c: unknown, i: number) => {
    if (!isNode(c) || typeof c.sheet !== "string" || typeof c.cell !== "string")
      throw new KeptConstantsError(`kept constant ${i + 1} has no sheet or cell.`);
    const original = textOf(c.original);
    const written = textOf(c.written);
    if (original === "" || written === "")
      throw new KeptConstantsError(`kept constant ${i + 1} (${c.sheet}!${c.cell}) is incomplete.`);
    return { sheet: c.sheet, cell: c.cell, original, written };
  });
}

/** The constants the package keeps. */
export function readKept(editor: PackageEditor): KeptConstant[] {
  return ownParts(editor, KIND).flatMap((p) => parseKept(editor.text(p.item)));
}

/** Replaces our part with one holding `cells` (none for no cells). */
export function writeKept(editor: PackageEditor, cells: readonly KeptConstant[]): void {
  replaceOwnParts(editor, KIND, cells.length > 0 ? [serializeKept(cells)] : []);
}
