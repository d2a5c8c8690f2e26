// Structural edits of a package, for `fdq freeze` / `fdq thaw` and the shared copy: parts added or removed
// (a custom XML part with its properties, a worksheet), and the small XML parts that list them
// ([Content_Types].xml, the relationships, workbook.xml's <sheets>, docProps/app.xml's titles). Every edit is
// textual and local (an element inserted before a closing tag, or the exact element removed), so a part is
// otherwise kept character for character, and removing what was added gives back the bytes it had.
//
// The zip container is written as zip.ts writes it (every untouched entry copied byte for byte, compressed
// data and headers included, in its order); added entries go after the existing ones, deflated with fflate,
// dated 1980-01-01 so that a build is reproducible.
import { deflateSync } from "fflate";
import type { WorkbookPackage } from "./package";
import { relationshipsPartOf } from "./package";
import { escapeAttribute } from "./xml";
import { crc32, type ZipArchive, type ZipEntry } from "./zip";

export interface PackageEdit {
  /** Existing parts given new contents. */
  readonly replaced: ReadonlyMap<string, Uint8Array>;
  /** New parts, in the order they are added. */
  readonly added: ReadonlyMap<string, Uint8Array>;
  /** Parts removed. */
  readonly removed: ReadonlySet<string>;
}

const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const DOS_DATE_1980 = (0 << 9) | (1 << 5) | 1;

function localHeader(name: Uint8Array, crc: number, compressed: number, size: number): Uint8Array {
  const h = new Uint8Array(30 + name.length);
  const v = view(h);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, 20, true);
  v.setUint16(6, 0x0800, true); // UTF-8 name
  v.setUint16(8, 8, true);
  v.setUint16(10, 0, true);
  v.setUint16(12, DOS_DATE_1980, true);
  v.setUint32(14, crc, true);
  v.setUint32(18, compressed, true);
  v.setUint32(22, size, true);
  v.setUint16(26, name.length, true);
  v.setUint16(28, 0, true);
  h.set(name, 30);
  return h;
}

function centralRecord(
  name: Uint8Array,
  crc: number,
  compressed: number,
  size: number,
  offset: number,
): Uint8Array {
  const r = new Uint8Array(46 + name.length);
  const v = view(r);
  v.setUint32(0, 0x02014b50, true);
  v.setUint16(4, 20, true);
  v.setUint16(6, 20, true);
  v.setUint16(8, 0x0800, true);
  v.setUint16(10, 8, true);
  v.setUint16(12, 0, true);
  v.setUint16(14, DOS_DATE_1980, true);
  v.setUint32(16, crc, true);
  v.setUint32(20, compressed, true);
  v.setUint32(24, size, true);
  v.setUint16(28, name.length, true);
  v.setUint32(42, offset, true);
  r.set(name, 46);
  return r;
}

/** The archive with `edit` applied; every other entry, the order and the comment as they were. */
export function writeEditedZip(archive: ZipArchive, edit: PackageEdit): Uint8Array {
  const chunks: Uint8Array[] = [archive.prefix];
  const offsets = new Map<ZipEntry, number>();
  const rewritten = new Map<ZipEntry, { crc: number; compressed: number; size: number }>();
  let at = archive.prefix.length;
  for (const entry of archive.fileOrder) {
    if (edit.removed.has(entry.name)) continue;
    offsets.set(entry, at);
    const content = edit.replaced.get(entry.name);
    if (content === undefined) {
      chunks.push(entry.raw);
      at += entry.raw.length;
      continue;
    }
    const data = deflateSync(content, { level: 6 });
    const crc = crc32(content);
    const header = entry.raw.slice(0, entry.dataStart);
    const h = view(header);
    h.setUint16(6, h.getUint16(6, true) & ~8, true); // sizes in the header now: no data descriptor
    h.setUint16(8, 8, true);
    h.setUint32(14, crc, true);
    h.setUint32(18, data.length, true);
    h.setUint32(22, content.length, true);
    rewritten.set(entry, { crc, compressed: data.length, size: content.length });
    chunks.push(header, data);
    at += header.length + data.length;
  }
  const added: Uint8Array[] = [];
  for (const [name, content] of edit.added) {
    const nameBytes = encoder.encode(name);
    const data = deflateSync(content, { level: 6 });
    const crc = crc32(content);
    chunks.push(localHeader(nameBytes, crc, data.length, content.length), data);
    added.push(centralRecord(nameBytes, crc, data.length, content.length, at));
    at += 30 + nameBytes.length + data.length;
  }
  const directoryAt = at;
  let count = 0;
  for (const entry of archive.entries) {
    if (edit.removed.has(entry.name)) continue;
    const record = entry.central.slice();
    const r = view(record);
    const fresh = rewritten.get(entry);
    if (fresh) {
      r.setUint16(8, r.getUint16(8, true) & ~8, true);
      r.setUint16(10, 8, true);
      r.setUint32(16, fresh.crc, true);
      r.setUint32(20, fresh.compressed, true);
      r.setUint32(24, fresh.size, true);
    }
    r.setUint32(42, offsets.get(entry) as number, true);
    chunks.push(record);
    at += record.length;
    count++;
  }
  for (const record of added) {
    chunks.push(record);
    at += record.length;
    count++;
  }
  if (count > 0xfffe) throw new Error("the workbook would have more parts than a zip without ZIP64 holds");
  const end = archive.end.slice();
  const e = view(end);
  e.setUint16(8, count, true);
  e.setUint16(10, count, true);
  e.setUint32(12, at - directoryAt, true);
  e.setUint32(16, directoryAt, true);
  chunks.push(end);
  return concat(chunks);
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
