// The constants fdq retrofit replaced, kept inside the workbook so that fdq thaw gives them back exactly: each
// cell's element as the file stored it before (<c> with its style, type and value) and as retrofit wrote it.
// They live in fdq's own custom XML parts (src/workbook/own-parts.ts) in a namespace of their own, beside the
// frozen formulas. Host-neutral: no Office, no Node.
import { escapeXml, ourPartRoot, ownParts, replaceOwnParts, type OwnPart } from "../own-parts";
import type { PackageEditor } from "../xlsx/structure";
import { childNamed, childrenNamed, type XmlNode } from "../xlsx/xml";

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
  let root: XmlNode | undefined;
  try {
    root = ourPartRoot(xml, KIND.root, KIND.namespace);
  } catch (err) {
    throw new KeptConstantsError(`The kept constants part is not well-formed XML (${String(err)}).`);
  }
  const version = Number(root?.attributes.version);
  if (!root || !Number.isInteger(version) || version < 1)
    throw new KeptConstantsError("The kept constants part has no version.");
  if (version > KEPT_CONSTANTS_VERSION)
    throw new KeptConstantsError(
      `These constants were kept by a newer fdq (format ${version}): update fdq to restore them.`,
    );
  return childrenNamed(root, "cell").map((c, i) => {
    const { sheet, cell } = c.attributes;
    if (typeof sheet !== "string" || typeof cell !== "string")
      throw new KeptConstantsError(`kept constant ${i + 1} has no sheet or cell.`);
    const original = childNamed(c, "original")?.text ?? "";
    const written = childNamed(c, "written")?.text ?? "";
    if (original === "" || written === "")
      throw new KeptConstantsError(`kept constant ${i + 1} (${sheet}!${cell}) is incomplete.`);
    return { sheet, cell, original, written };
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
