// An .xlsx/.xlsm package as fdq refresh reads it: what the file is (refused with a sentence saying what to do
// when it is not a workbook fdq can patch), its parts, their content types and relationships, and workbook.xml's
// sheets. Works on bytes only (no file system), so the task pane can use it on Office's getFileAsync bytes.
import { contentOf, readZip, ZipError, type ZipArchive, type ZipEntry } from "./zip";
import {
  attributeOf,
  childNamed,
  childrenNamed,
  documentElement,
  parseXml,
  textOf,
  withoutBom,
  type XmlNode,
} from "./xml";

/** The bytes are not a workbook fdq can patch. The message completes "cannot refresh FILE: ...". */
export class PackageError extends Error {
  override name = "PackageError";
}

export type PackageKind = "xlsx" | "xlsm" | "xltx" | "xltm";

const MAIN_TYPES: Record<string, PackageKind> = {
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml": "xlsx",
  "application/vnd.ms-excel.sheet.macroEnabled.main+xml": "xlsm",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml": "xltx",
  "application/vnd.ms-excel.template.macroEnabled.main+xml": "xltm",
};
const BINARY_TYPE = "application/vnd.ms-excel.sheet.binary.macroEnabled.main";
const OFFICE_DOCUMENT = "/officeDocument";

export interface Relationship {
  readonly id: string;
  /** The type URI's last segment ("worksheet", "table", "sheetMetadata"). */
  readonly type: string;
  /** The target part's name in the zip ("xl/worksheets/sheet1.xml"); undefined for an external target. */
  readonly part: string | undefined;
}

export interface SheetEntry {
  readonly name: string;
  /** Position in workbook.xml's <sheets>: what localSheetId counts. */
  readonly index: number;
  /** The worksheet part, or undefined for a chart sheet, dialog sheet or a sheet whose part is missing. */
  readonly part: string | undefined;
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const SAVE_AS =
  "open it in Excel and save it as an Excel Workbook (.xlsx) or Excel Macro-Enabled Workbook (.xlsm), then refresh that file";

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  magic.every((b, i) => bytes[i] === b);

/** Whether a compound file holds a stream named `name` (its directory stores names in UTF-16LE). */
function holdsStream(bytes: Uint8Array, name: string): boolean {
  const needle = new Uint8Array(name.length * 2);
  for (let i = 0; i < name.length; i++) needle[i * 2] = name.charCodeAt(i);
  outer: for (let at = 0; at + needle.length <= bytes.length; at++) {
    for (let j = 0; j < needle.length; j++) if (bytes[at + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 4096);
  if (sample.length === 0) return true;
  let printable = 0;
  for (const b of sample) if (b === 9 || b === 10 || b === 13 || (b >= 32 && b !== 127)) printable++;
  return !sample.includes(0) && printable / sample.length > 0.95;
}

/** Refuses what is not a zip package, with what to do about it. */
function sniff(bytes: Uint8Array): void {
  if (startsWith(bytes, CFB_MAGIC)) {
    // Office stores a password-protected .xlsx inside a compound file with EncryptionInfo/EncryptedPackage.
    if (holdsStream(bytes, "EncryptionInfo") || holdsStream(bytes, "EncryptedPackage")) {
      throw new PackageError(
        "it is encrypted with a password, and fdq refresh cannot read an encrypted workbook: open it in " +
          "Excel, remove the password (File > Info > Protect Workbook > Encrypt with Password), save it, and " +
          "refresh it again",
      );
    }
    throw new PackageError(
      `it is an Excel 97-2003 workbook (.xls), which fdq refresh cannot patch: ${SAVE_AS}`,
    );
  }
  if (startsWith(bytes, [0x50, 0x4b])) return;
  if (bytes.length === 0)
    throw new PackageError("it is empty: give an .xlsx or .xlsm workbook saved by Excel");
  if (looksLikeText(bytes)) {
    throw new PackageError(
      "it holds text, not an Excel workbook: give an .xlsx or .xlsm workbook (for a list of formulas, use fdq eval -f FILE)",
    );
  }
  throw new PackageError(
    "it is not an Excel workbook (an .xlsx or .xlsm file is a zip package): give an .xlsx or .xlsm workbook saved by Excel",
  );
}

/** "xl/worksheets/../drawings/d1.xml" -> "xl/drawings/d1.xml". */
function normalise(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "..") out.pop();
    else if (segment !== "." && segment !== "") out.push(segment);
  }
  return out.join("/");
}

/** The relationships part of `part` ("xl/workbook.xml" -> "xl/_rels/workbook.xml.rels"). */
export function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

export class WorkbookPackage {
  readonly archive: ZipArchive;
  readonly kind: PackageKind;
  readonly workbookPart: string;
  readonly workbook: XmlNode;
  readonly sheets: readonly SheetEntry[];
  private readonly byName = new Map<string, ZipEntry>();
  private readonly defaults = new Map<string, string>();
  private readonly overrides = new Map<string, string>();

  constructor(bytes: Uint8Array) {
    sniff(bytes);
    try {
      this.archive = readZip(bytes);
    } catch (err) {
      if (!(err instanceof ZipError)) throw err;
      throw new PackageError(
        `it is damaged: ${err.message}; copy it again or restore it from a backup, and check that it opens in Excel`,
      );
    }
    for (const entry of this.archive.entries) this.byName.set(entry.name, entry);
    if (!this.has("[Content_Types].xml")) {
      throw new PackageError("it is a zip file but not an Excel workbook: give an .xlsx or .xlsm workbook");
    }
    const types = this.xml("[Content_Types].xml");
    for (const d of childrenNamed(types, "Default")) {
      this.defaults.set(
        (attributeOf(d, "Extension") ?? "").toLowerCase(),
        attributeOf(d, "ContentType") ?? "",
      );
    }
    for (const o of childrenNamed(types, "Override")) {
      this.overrides.set(normalise(attributeOf(o, "PartName") ?? ""), attributeOf(o, "ContentType") ?? "");
    }
    const main = this.relationships("").find((r) => r.type === "officeDocument")?.part;
    if (main === undefined || !this.has(main)) {
      throw new PackageError("it is a zip file but not an Excel workbook: give an .xlsx or .xlsm workbook");
    }
    const type = this.contentTypeOf(main) ?? "";
    if (type.startsWith(BINARY_TYPE)) {
      throw new PackageError(
        `it is an Excel Binary Workbook (.xlsb), which fdq refresh cannot patch: ${SAVE_AS}`,
      );
    }
    const kind = MAIN_TYPES[type];
    if (kind === undefined) {
      throw new PackageError(
        `it is an Office file but not an Excel workbook (its main part is ${type || "untyped"})`,
      );
    }
    this.kind = kind;
    this.workbookPart = main;
    this.workbook = this.xml(main);
    const rels = new Map(this.relationships(main).map((r) => [r.id, r]));
    this.sheets = childrenNamed(childNamed(this.workbook, "sheets"), "sheet").map((sheet, index) => {
      const rel = rels.get(attributeOf(sheet, "id") ?? "");
      const part =
        rel?.type === "worksheet" && rel.part !== undefined && this.has(rel.part) ? rel.part : undefined;
      return { name: attributeOf(sheet, "name") ?? "", index, part };
    });
  }

  has(part: string): boolean {
    return this.byName.has(part);
  }

  /** The part's uncompressed bytes. */
  bytes(part: string): Uint8Array {
    const entry = this.byName.get(part);
    if (!entry) throw new PackageError(`it is damaged: its part ${part} is missing`);
    try {
      return contentOf(entry);
    } catch (err) {
      throw new PackageError(
        `it is damaged: ${(err as Error).message}; copy it again or restore it from a backup`,
      );
    }
  }

  text(part: string): string {
    try {
      return textOf(this.bytes(part));
    } catch (err) {
      if (err instanceof PackageError) throw err;
      throw new PackageError(`it is damaged: its part ${part} is not UTF-8 text`);
    }
  }

  /**
   * The part's text from the last occurrence of `marker` (ASCII) on, or all of it when the marker is absent: a
   * worksheet's elements after its cells without the cells decoded into one string (a sheet of a million cells
   * is tens of MB of text).
   */
  textFromLast(part: string, marker: string): string {
    const bytes = this.bytes(part);
    const last = marker.length - 1;
    let at = -1;
    for (let i = bytes.length - marker.length; i >= 0 && at < 0; i--) {
      if (bytes[i + last] !== marker.charCodeAt(last)) continue;
      let j = 0;
      while (j < last && bytes[i + j] === marker.charCodeAt(j)) j++;
      if (j === last) at = i;
    }
    try {
      return textOf(at < 0 ? bytes : bytes.subarray(at));
    } catch {
      throw new PackageError(`it is damaged: its part ${part} is not UTF-8 text`);
    }
  }

  /** The part parsed; its document element's parent (so `childNamed(root, "workbook")` style is not needed). */
  xml(part: string): XmlNode {
    try {
      const root = documentElement(parseXml(withoutBom(this.text(part))));
      if (!root) throw new Error("no element");
      return root;
    } catch (err) {
      if (err instanceof PackageError) throw err;
      throw new PackageError(
        `it is damaged: its part ${part} is not well-formed XML (${(err as Error).message})`,
      );
    }
  }

  contentTypeOf(part: string): string | undefined {
    const dot = part.lastIndexOf(".");
    return this.overrides.get(part) ?? this.defaults.get(part.slice(dot + 1).toLowerCase());
  }

  /** The relationships of `part` ("" for the package's own), targets resolved to part names. */
  relationships(part: string): Relationship[] {
    const relsPart = part === "" ? "_rels/.rels" : relationshipsPartOf(part);
    if (!this.has(relsPart)) return [];
    const folder = part.slice(0, part.lastIndexOf("/") + 1);
    return childrenNamed(this.xml(relsPart), "Relationship").map((rel) => {
      const target = attributeOf(rel, "Target") ?? "";
      const type = attributeOf(rel, "Type") ?? "";
      const external = attributeOf(rel, "TargetMode") === "External";
      return {
        id: attributeOf(rel, "Id") ?? "",
        type: type.endsWith(OFFICE_DOCUMENT) ? "officeDocument" : type.slice(type.lastIndexOf("/") + 1),
        part: external ? undefined : normalise(target.startsWith("/") ? target : folder + target),
      };
    });
  }
}

/** Opens the bytes of a workbook; throws PackageError with what to do when fdq cannot patch them. */
export const openPackage = (bytes: Uint8Array): WorkbookPackage => new WorkbookPackage(bytes);
