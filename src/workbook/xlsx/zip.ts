// The zip container of an .xlsx/.xlsm, read and written so that every entry fdq does not change is copied
// byte for byte: its local header, its compressed data (and data descriptor), its central-directory record,
// the order of the entries and the archive comment. Only the entries given new contents are written anew.
//
// Why by hand over fflate: fflate (MIT, no dependencies, the same code in Node and the browser, where the task
// pane will patch the bytes of Office's getFileAsync) does the DEFLATE compression and decompression. But no
// zip library we know of, fflate's `unzipSync`/`zipSync` included, hands back an entry's compressed bytes and
// headers unchanged: re-zipping recompresses every part and rewrites times, flags and extra fields. The
// container itself is a few fixed-size records (APPNOTE 4.3), so this module reads and writes those, and
// leaves the compression to fflate. ZIP64 archives (over 4 GB or 65,535 entries) are refused, as no workbook
// Excel writes needs them.
import { Deflate, deflateSync, inflateSync } from "fflate";

/**
 * The file is not a zip fdq can patch; the message says why (the caller adds what to do). A class of its own
 * because package.ts rewords exactly these (a zip's damage) and lets every other failure through.
 */
export class ZipError extends Error {
  override name = "ZipError";
}

export interface ZipEntry {
  readonly name: string;
  /** Compression method: 0 stored, 8 deflated. */
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  /** The entry as the file holds it: local header, data, data descriptor. */
  readonly raw: Uint8Array;
  /** Where the compressed data starts in `raw`. */
  readonly dataStart: number;
  /** The entry's central-directory record as the file holds it. */
  readonly central: Uint8Array;
}

export interface ZipArchive {
  /** In the order of the central directory. */
  readonly entries: readonly ZipEntry[];
  /** The entries in the order their data lies in the file (usually the same). */
  readonly fileOrder: readonly ZipEntry[];
  /** The end-of-central-directory record with its comment, as the file holds it. */
  readonly end: Uint8Array;
  /** Bytes before the first entry (a self-extracting stub; normally none). */
  readonly prefix: Uint8Array;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const DESCRIPTOR = 0x08074b50;
const ZIP64_END_LOCATOR = 0x07064b50;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The running CRC-32 (before its final inversion) after `data`. */
function crcOver(crc: number, data: Uint8Array): number {
  for (let i = 0; i < data.length; i++)
    crc = (CRC_TABLE[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return crc;
}

export function crc32(data: Uint8Array): number {
  return (crcOver(0xffffffff, data) ^ 0xffffffff) >>> 0;
}

/**
 * A part's new contents: its bytes, or its bytes in pieces, in order, deflated as they come and never joined
 * (a worksheet of tens of megabytes is then never one buffer).
 */
export type PartContent = Uint8Array | Iterable<Uint8Array>;

interface Deflated {
  /** The compressed data, in pieces. */
  readonly data: readonly Uint8Array[];
  readonly compressed: number;
  readonly crc: number;
  readonly size: number;
}

function deflated(content: PartContent): Deflated {
  if (content instanceof Uint8Array) {
    const data = deflateSync(content, { level: 6 });
    return { data: [data], compressed: data.length, crc: crc32(content), size: content.length };
  }
  const data: Uint8Array[] = [];
  let compressed = 0;
  const stream = new Deflate({ level: 6 }, (chunk) => {
    data.push(chunk);
    compressed += chunk.length;
  });
  let crc = 0xffffffff;
  let size = 0;
  for (const piece of content) {
    crc = crcOver(crc, piece);
    size += piece.length;
    stream.push(piece);
  }
  stream.push(new Uint8Array(0), true);
  return { data, compressed, crc: (crc ^ 0xffffffff) >>> 0, size };
}

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const utf8 = new TextDecoder("utf-8");

function findEnd(bytes: Uint8Array, v: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const last = bytes.length - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (v.getUint32(at, true) === END && at + 22 + v.getUint16(at + 20, true) <= bytes.length) return at;
  }
  throw new ZipError("its zip directory is missing (the file is truncated or damaged)");
}

/** Reads the container; entry contents stay compressed until `contentOf`. */
export function readZip(bytes: Uint8Array): ZipArchive {
  if (bytes.length < 22) throw new ZipError("it is too short to be a zip package");
  const v = view(bytes);
  const endAt = findEnd(bytes, v);
  const count = v.getUint16(endAt + 10, true);
  const directorySize = v.getUint32(endAt + 12, true);
  const directoryAt = v.getUint32(endAt + 16, true);
  if (
    count === 0xffff ||
    directoryAt === 0xffffffff ||
    (endAt >= 20 && v.getUint32(endAt - 20, true) === ZIP64_END_LOCATOR)
  ) {
    throw new ZipError("it is a ZIP64 archive, which fdq refresh does not patch");
  }
  if (directoryAt + directorySize > endAt) {
    throw new ZipError(
      "its zip directory points past the end of the file (the file is truncated or damaged)",
    );
  }
  const entries: ZipEntry[] = [];
  let at = directoryAt;
  for (let i = 0; i < count; i++) {
    if (at + 46 > endAt || v.getUint32(at, true) !== CENTRAL) {
      throw new ZipError("its zip directory is damaged");
    }
    const flags = v.getUint16(at + 8, true);
    if (flags & 1) throw new ZipError("its parts are encrypted");
    const method = v.getUint16(at + 10, true);
    const crc = v.getUint32(at + 16, true);
    const compressedSize = v.getUint32(at + 20, true);
    const size = v.getUint32(at + 24, true);
    const nameLength = v.getUint16(at + 28, true);
    const centralLength = 46 + nameLength + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
    const localAt = v.getUint32(at + 42, true);
    const name = utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (localAt + 30 > directoryAt || v.getUint32(localAt, true) !== LOCAL) {
      throw new ZipError(`its entry ${name} is missing (the file is truncated or damaged)`);
    }
    const dataStart = 30 + v.getUint16(localAt + 26, true) + v.getUint16(localAt + 28, true);
    let end = localAt + dataStart + compressedSize;
    if (flags & 8) end += end + 4 <= directoryAt && v.getUint32(end, true) === DESCRIPTOR ? 16 : 12;
    if (end > directoryAt) throw new ZipError(`its entry ${name} is cut short (the file is truncated)`);
    if (method !== 0 && method !== 8) {
      throw new ZipError(`its entry ${name} uses compression method ${method}, which Excel does not write`);
    }
    entries.push({
      name,
      method,
      crc,
      compressedSize,
      size,
      raw: bytes.subarray(localAt, end),
      dataStart,
      central: bytes.subarray(at, at + centralLength),
    });
    at += centralLength;
  }
  const offset = (e: ZipEntry): number => e.raw.byteOffset - bytes.byteOffset;
  const fileOrder = [...entries].sort((a, b) => offset(a) - offset(b));
  const first = fileOrder[0];
  return {
    entries,
    fileOrder,
    end: bytes.subarray(endAt),
    prefix: bytes.subarray(0, first ? offset(first) : directoryAt),
  };
}

/** An entry's uncompressed contents, checked against its CRC. */
export function contentOf(entry: ZipEntry): Uint8Array {
  const data = entry.raw.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  let content: Uint8Array;
  try {
    content = entry.method === 0 ? data : inflateSync(data, { out: new Uint8Array(entry.size) });
  } catch (err) {
    throw new ZipError(`its entry ${entry.name} cannot be decompressed (${(err as Error).message})`);
  }
  if (content.length !== entry.size || crc32(content) !== entry.crc) {
    throw new ZipError(`its entry ${entry.name} is damaged (its checksum does not match)`);
  }
  return content;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A local header and central-directory record for a part the archive did not have. */
function newEntryHeaders(
  name: Uint8Array,
  like: ZipEntry | undefined,
): { local: Uint8Array; central: Uint8Array } {
  const local = new Uint8Array(30 + name.length);
  const central = new Uint8Array(46 + name.length);
  const l = view(local);
  const c = view(central);
  // The same time stamp as the archive's first entry (a new part is as old as the package), else 1980-01-01.
  const time = like ? view(like.central).getUint16(12, true) : 0;
  const date = like ? view(like.central).getUint16(14, true) : 0x21;
  l.setUint32(0, LOCAL, true);
  l.setUint16(4, 20, true);
  l.setUint16(10, time, true);
  l.setUint16(12, date, true);
  l.setUint16(26, name.length, true);
  local.set(name, 30);
  c.setUint32(0, CENTRAL, true);
  c.setUint16(4, 20, true);
  c.setUint16(6, 20, true);
  c.setUint16(12, time, true);
  c.setUint16(14, date, true);
  c.setUint16(28, name.length, true);
  central.set(name, 46);
  return { local, central };
}

/**
 * The archive with `replaced` entries (by name) given new contents, deflated, parts it did not have added at
 * its end (in the map's order), and `removed` parts left out; every other entry, the order and the comment as
 * they were. The one zip writer: the refresh's patcher and the structural edits of freeze/thaw/share use it.
 */
export function writeZip(
  archive: ZipArchive,
  replaced: ReadonlyMap<string, PartContent>,
  removed: ReadonlySet<string> = new Set(),
): Uint8Array {
  const names = new Set(archive.entries.map((e) => e.name));
  const added: ZipEntry[] = [];
  for (const name of replaced.keys()) {
    if (names.has(name)) continue;
    const { local, central } = newEntryHeaders(new TextEncoder().encode(name), archive.entries[0]);
    added.push({
      name,
      method: 8,
      crc: 0,
      compressedSize: 0,
      size: 0,
      raw: local,
      dataStart: local.length,
      central,
    });
  }
  const kept = (e: ZipEntry): boolean => !removed.has(e.name);
  const fileOrder = [...archive.fileOrder.filter(kept), ...added];
  const chunks: Uint8Array[] = [archive.prefix];
  const offsets = new Map<ZipEntry, number>();
  const rewritten = new Map<ZipEntry, { crc: number; compressed: number; size: number }>();
  let at = archive.prefix.length;
  for (const entry of fileOrder) {
    offsets.set(entry, at);
    const content = replaced.get(entry.name);
    if (content === undefined) {
      chunks.push(entry.raw);
      at += entry.raw.length;
      continue;
    }
    const { data, compressed, crc, size } = deflated(content);
    const header = entry.raw.slice(0, entry.dataStart);
    const h = view(header);
    h.setUint16(6, h.getUint16(6, true) & ~8, true); // sizes in the header now: no data descriptor
    h.setUint16(8, 8, true);
    h.setUint32(14, crc, true);
    h.setUint32(18, compressed, true);
    h.setUint32(22, size, true);
    rewritten.set(entry, { crc, compressed, size });
    chunks.push(header);
    for (const piece of data) chunks.push(piece);
    at += header.length + compressed;
  }
  const directoryAt = at;
  const directory = [...archive.entries.filter(kept), ...added];
  if (directory.length > 0xfffe)
    throw new ZipError("the workbook would have more parts than a zip without ZIP64 holds");
  for (const entry of directory) {
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
  }
  const end = archive.end.slice();
  const e = view(end);
  e.setUint16(8, directory.length, true);
  e.setUint16(10, directory.length, true);
  e.setUint32(12, at - directoryAt, true);
  e.setUint32(16, directoryAt, true);
  chunks.push(end);
  return concat(chunks);
}
