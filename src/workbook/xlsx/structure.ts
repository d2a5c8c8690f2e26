// Structural edits of a package, for `fdq freeze` / `fdq thaw` and the shared copy: parts added or removed
// (a custom XML part with its properties, a worksheet), and the small XML parts that list them
// ([Content_Types].xml, the relationships, workbook.xml's <sheets>, docProps/app.xml's titles). Every edit is
// textual and local (an element inserted before a closing tag, or the exact element removed), so a part is
// otherwise kept character for character, and removing what was added gives back the bytes it had.
//
// The zip container is written by zip.ts (every untouched entry copied byte for byte, compressed data and
// headers included, in its order); added entries go after the existing ones.
import type { WorkbookPackage } from "./package";
import { relationshipsPartOf } from "./package";
import { escapeAttribute } from "./xml";
import { writeZip, type ZipArchive } from "./zip";

export interface PackageEdit {
  /** Existing parts given new contents. */
  readonly replaced: ReadonlyMap<string, Uint8Array>;
  /** New parts, in the order they are added. */
  readonly added: ReadonlyMap<string, Uint8Array>;
  /** Parts removed. */
  readonly removed: ReadonlySet<string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The archive with `edit` applied (zip.ts's writer); every other entry, the order and the comment as they were. */
export function writeEditedZip(archive: ZipArchive, edit: PackageEdit): Uint8Array {
  return writeZip(archive, new Map([...edit.replaced, ...edit.added]), edit.removed);
}

/**
 * A package being edited: parts' texts as they will be written, added and removed parts. Reads go through
 * the edits so far, so several edits of one part (a relationship added, then another) compose.
 */
export class PackageEditor {
  private readonly texts = new Map<string, string>();
  private readonly added = new Map<string, Uint8Array>();
  private readonly removed = new Set<string>();

  constructor(readonly pkg: WorkbookPackage) {}

  has(part: string): boolean {
    if (this.removed.has(part)) return false;
    return this.added.has(part) || this.texts.has(part) || this.pkg.has(part);
  }

  text(part: string): string {
    const edited = this.texts.get(part);
    if (edited !== undefined) return edited;
    const added = this.added.get(part);
    return added !== undefined ? decoder.decode(added) : this.pkg.text(part);
  }

  setText(part: string, text: string): void {
    if (this.added.has(part)) this.added.set(part, encoder.encode(text));
    else if (text === this.pkg.text(part)) this.texts.delete(part);
    else this.texts.set(part, text);
  }

  add(part: string, text: string): void {
    if (this.removed.delete(part)) {
      this.setText(part, text);
      return;
    }
    this.added.set(part, encoder.encode(text));
  }

  remove(part: string): void {
    this.texts.delete(part);
    if (!this.added.delete(part)) this.removed.add(part);
  }

  /** A part name not taken yet: `${stem}${n}${ext}` from n = 1. */
  freeName(stem: string, ext: string): string {
    for (let n = 1; ; n++) if (!this.has(`${stem}${n}${ext}`)) return `${stem}${n}${ext}`;
  }

  /** Parts written anew (changed existing ones and added ones). */
  changedParts(): string[] {
    return [...this.texts.keys(), ...this.added.keys()];
  }

  removedParts(): string[] {
    return [...this.removed];
  }

  write(): Uint8Array {
    const replaced = new Map([...this.texts].map(([k, v]) => [k, encoder.encode(v)]));
    return writeEditedZip(this.pkg.archive, { replaced, added: this.added, removed: this.removed });
  }

  // ---- the parts that list parts ------------------------------------------------------------------------

  /** Adds <Override PartName="/part" ContentType="type"/> to [Content_Types].xml. */
  addOverride(part: string, type: string): void {
    const types = this.text("[Content_Types].xml");
    this.setText(
      "[Content_Types].xml",
      insertBefore(
        types,
        "</Types>",
        `<Override PartName="/${escapeAttribute(part)}" ContentType="${escapeAttribute(type)}"/>`,
      ),
    );
  }

  removeOverride(part: string): void {
    const types = this.text("[Content_Types].xml");
    this.setText("[Content_Types].xml", types.replace(elementWith("Override", "PartName", `/${part}`), ""));
  }

  /** Whether [Content_Types].xml has a Default for the extension. */
  hasDefault(ext: string): boolean {
    return new RegExp(`<Default\\s[^>]*Extension="${ext}"`, "i").test(this.text("[Content_Types].xml"));
  }

  /** Adds a relationship from `source` ("" for the package) to `target` (relative to the source's folder); answers its Id. */
  addRelationship(source: string, type: string, target: string): string {
    const relsPart = source === "" ? "_rels/.rels" : relationshipsPartOf(source);
    const empty =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    const exists = this.has(relsPart);
    const rels = exists ? this.text(relsPart) : empty;
    const ids = new Set([...rels.matchAll(/\sId="([^"]*)"/g)].map((m) => m[1]));
    let n = ids.size + 1;
    while (ids.has(`rId${n}`)) n++;
    const id = `rId${n}`;
    const next = insertBefore(
      rels,
      "</Relationships>",
      `<Relationship Id="${id}" Type="${escapeAttribute(type)}" Target="${escapeAttribute(target)}"/>`,
    );
    if (exists) this.setText(relsPart, next);
    else this.add(relsPart, next);
    return id;
  }

  /** Removes the relationship of `source` to `target` (as written); the rels part goes when it is left empty and was added. */
  removeRelationship(source: string, target: string): void {
    const relsPart = source === "" ? "_rels/.rels" : relationshipsPartOf(source);
    if (!this.has(relsPart)) return;
    this.setText(relsPart, this.text(relsPart).replace(elementWith("Relationship", "Target", target), ""));
  }
}

/** `text` with `insert` before the last `closing` tag. */
export function insertBefore(text: string, closing: string, insert: string): string {
  const at = text.lastIndexOf(closing);
  if (at < 0) throw new Error(`${closing} is missing`);
  return text.slice(0, at) + insert + text.slice(at);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An empty element <name ... attr="value" .../> (with optional whitespace before it removed too). */
function elementWith(name: string, attr: string, value: string): RegExp {
  return new RegExp(`<${name}\\s(?:[^>]*\\s)?${attr}="${escapeRegExp(escapeAttribute(value))}"[^>]*/>`);
}
