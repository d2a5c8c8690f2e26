// The cells of a worksheet part, found by a hand-written scanner over its <sheetData>: each row's and each
// cell's exact position in the text, so that the reader and the patcher agree on every cell and the patcher can
// replace one cell's value while copying every other character of the part as it was.
//
// Why not saxes here: a streaming parser reports events, not the offsets of each element's start and end, and
// re-serialising events would not give back the same bytes (quotes, whitespace, entity forms, attribute order).
// <sheetData> has a small, fixed grammar (rows of cells holding f, v, is and extLst), and a worksheet of 50,000
// formulas is scanned in one pass of indexOf calls, well under the time and memory of building events for it.
import { unescapeXml, unescapeXstring } from "./xml";

export interface RowSpan {
  readonly row: number;
  /** Offset of "<row". */
  readonly start: number;
  /** Offset just after the start tag's ">". */
  readonly tagEnd: number;
  /** Offset of "</row>" (or tagEnd for <row/>). */
  readonly contentEnd: number;
  readonly selfClosing: boolean;
}

export interface CellSpan {
  readonly row: number;
  readonly col: number;
  /** Offset of "<c". */
  readonly start: number;
  /** Offset just after the start tag's ">". */
  readonly tagEnd: number;
  /** Offset of "</c>" (tagEnd for <c/>). */
  readonly contentEnd: number;
  /** Offset just after the cell's last ">". */
  readonly end: number;
}

export interface SheetLayout {
  /** "" or "x:" when the part writes its elements with a prefix. */
  readonly prefix: string;
  /** Offset just after <sheetData>'s start tag, and of </sheetData> (both -1 when there is none). */
  readonly dataStart: number;
  readonly dataEnd: number;
  /** <sheetData/>: no cells, nothing to insert into. */
  readonly dataSelfClosing: boolean;
}

/** Offset just after the ">" closing the tag that starts at `from`, quoted attribute values skipped. */
export function tagEndAt(xml: string, from: number): number {
  let quote = "";
  for (let i = from; i < xml.length; i++) {
    const ch = xml[i];
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ">") return i + 1;
  }
  throw new Error("a tag is not closed");
}

/** The patterns of one element prefix ("" or "x:"), compiled once: a sheet asks for them per cell. */
export interface Patterns {
  /** An <f> start tag (group 1: "/" when self-closing). */
  readonly formula: RegExp;
  /** A <v> start tag (group 1: "/" when self-closing). */
  readonly valueStart: RegExp;
  /** A whole <v> element. */
  readonly value: RegExp;
  /** A whole <is> element. */
  readonly inline: RegExp;
  /** Phonetic runs (<rPh>), global. */
  readonly phonetic: RegExp;
  /** Text runs (<t>), global; group 1 their text. */
  readonly text: RegExp;
  readonly dimension: RegExp;
}

const PATTERNS = new Map<string, Patterns>();

export function patternsOf(prefix: string): Patterns {
  let p = PATTERNS.get(prefix);
  if (!p) {
    p = {
      formula: new RegExp(`<${prefix}f(?=[\\s/>])[^>]*?(/?)>`),
      valueStart: new RegExp(`<${prefix}v(?:\\s[^>]*)?(/?)>`),
      value: new RegExp(`<${prefix}v(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</${prefix}v>)`),
      inline: new RegExp(`<${prefix}is(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</${prefix}is>)`),
      phonetic: new RegExp(`<${prefix}rPh[\\s>][\\s\\S]*?</${prefix}rPh>`, "g"),
      text: new RegExp(`<${prefix}t(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${prefix}t>)`, "g"),
      dimension: new RegExp(`<${prefix}dimension\\s[^>]*>`),
    };
    PATTERNS.set(prefix, p);
  }
  return p;
}

const ATTRIBUTES = new Map<string, RegExp>();

/** The pattern of attribute `name` in a start tag (group 1: its leading space; 2 or 3: its value). */
export function attributePattern(name: string): RegExp {
  let pattern = ATTRIBUTES.get(name);
  if (!pattern) {
    pattern = new RegExp(`(\\s)${name.replace(".", "\\.")}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    ATTRIBUTES.set(name, pattern);
  }
  return pattern;
}

/** The value of attribute `name` in a start tag ("<c r=\"A1\" t=\"s\">"), entities decoded. */
export function attributeIn(tag: string, name: string): string | undefined {
  const m = attributePattern(name).exec(tag);
  if (!m) return undefined;
  return unescapeXml(m[2] ?? m[3] ?? "");
}

/** "AB12" -> [12, 28]; undefined for anything else. */
export function parseAddress(address: string): [number, number] | undefined {
  let col = 0;
  let i = 0;
  for (; i < address.length; i++) {
    const code = address.charCodeAt(i) & ~32; // upper case
    if (code < 65 || code > 90) break;
    col = col * 26 + code - 64;
  }
  const row = Number(address.slice(i));
  return i > 0 && i <= 3 && Number.isInteger(row) && row >= 1 ? [row, col] : undefined;
}

export function layoutOf(xml: string): SheetLayout {
  const m = /<([A-Za-z_][\w.-]*:)?sheetData[\s/>]/.exec(xml);
  if (!m) return { prefix: "", dataStart: -1, dataEnd: -1, dataSelfClosing: true };
  const prefix = m[1] ?? "";
  const dataStart = tagEndAt(xml, m.index);
  if (xml[dataStart - 2] === "/") return { prefix, dataStart, dataEnd: dataStart, dataSelfClosing: true };
  const dataEnd = xml.indexOf(`</${prefix}sheetData`, dataStart);
  if (dataEnd < 0) throw new Error("<sheetData> is not closed");
  return { prefix, dataStart, dataEnd, dataSelfClosing: false };
}

/**
 * Walks the rows and cells of <sheetData> in document order. A row or cell without its `r` attribute follows
 * the previous one, as the format allows.
 */
export function scanSheet(
  xml: string,
  layout: SheetLayout,
  onRow: (row: RowSpan) => void,
  onCell: (cell: CellSpan) => void,
): void {
  if (layout.dataSelfClosing) return;
  const { prefix } = layout;
  const rowOpen = `<${prefix}row`;
  const cellOpen = `<${prefix}c`;
  const cellClose = `</${prefix}c>`;
  const rowClose = `</${prefix}row>`;
  let at = layout.dataStart;
  let rowNumber = 0;
  while (at < layout.dataEnd) {
    const rowStart = xml.indexOf(rowOpen, at);
    if (rowStart < 0 || rowStart >= layout.dataEnd) break;
    const next = xml[rowStart + rowOpen.length];
    if (next !== " " && next !== ">" && next !== "/" && next !== "\t" && next !== "\n" && next !== "\r") {
      at = rowStart + rowOpen.length;
      continue;
    }
    const rowTagEnd = tagEndAt(xml, rowStart);
    const rowTag = xml.slice(rowStart, rowTagEnd);
    const r = attributeIn(rowTag, "r");
    rowNumber = r !== undefined ? Number(r) : rowNumber + 1;
    if (xml[rowTagEnd - 2] === "/") {
      onRow({ row: rowNumber, start: rowStart, tagEnd: rowTagEnd, contentEnd: rowTagEnd, selfClosing: true });
      at = rowTagEnd;
      continue;
    }
    const rowEnd = xml.indexOf(rowClose, rowTagEnd);
    if (rowEnd < 0) throw new Error(`row ${rowNumber} is not closed`);
    onRow({ row: rowNumber, start: rowStart, tagEnd: rowTagEnd, contentEnd: rowEnd, selfClosing: false });
    let colNumber = 0;
    let c = rowTagEnd;
    for (;;) {
      const cellStart = xml.indexOf(cellOpen, c);
      if (cellStart < 0 || cellStart >= rowEnd) break;
      const after = xml[cellStart + cellOpen.length];
      if (
        after !== " " &&
        after !== ">" &&
        after !== "/" &&
        after !== "\t" &&
        after !== "\n" &&
        after !== "\r"
      ) {
        c = cellStart + cellOpen.length;
        continue;
      }
      const cellTagEnd = tagEndAt(xml, cellStart);
      const cellTag = xml.slice(cellStart, cellTagEnd);
      const ref = attributeIn(cellTag, "r");
      const position = ref !== undefined ? parseAddress(ref) : undefined;
      colNumber = position ? position[1] : colNumber + 1;
      const row = position ? position[0] : rowNumber;
      if (xml[cellTagEnd - 2] === "/") {
        onCell({
          row,
          col: colNumber,
          start: cellStart,
          tagEnd: cellTagEnd,
          contentEnd: cellTagEnd,
          end: cellTagEnd,
        });
        c = cellTagEnd;
        continue;
      }
      const contentEnd = xml.indexOf(cellClose, cellTagEnd);
      if (contentEnd < 0 || contentEnd > rowEnd) throw new Error(`cell ${ref ?? colNumber} is not closed`);
      const end = contentEnd + cellClose.length;
      onCell({ row, col: colNumber, start: cellStart, tagEnd: cellTagEnd, contentEnd, end });
      c = end;
    }
    at = rowEnd + rowClose.length;
  }
}

export interface CellParts {
  /** The cell's start tag ("<c r=\"A1\" t=\"s\">"). */
  readonly tag: string;
  /** The <f> element's start tag and text (entities decoded), if any. */
  readonly formulaTag: string | undefined;
  readonly formulaText: string;
  /** <v>'s text (entities decoded), if any. */
  readonly value: string | undefined;
  /** An inline string's text (its <t> runs joined, phonetic runs left out), if any. */
  readonly inline: string | undefined;
}

/** What a cell holds, read from its span. */
export function cellParts(xml: string, cell: CellSpan, prefix: string): CellParts {
  const tag = xml.slice(cell.start, cell.tagEnd);
  if (cell.contentEnd === cell.tagEnd) {
    return { tag, formulaTag: undefined, formulaText: "", value: undefined, inline: undefined };
  }
  const inner = xml.slice(cell.tagEnd, cell.contentEnd);
  let formulaTag: string | undefined;
  let formulaText = "";
  const patterns = patternsOf(prefix);
  const f = patterns.formula.exec(inner);
  if (f) {
    const fEnd = tagEndAt(inner, f.index);
    formulaTag = inner.slice(f.index, fEnd);
    if (inner[fEnd - 2] !== "/") {
      const close = inner.indexOf(`</${prefix}f>`, fEnd);
      formulaText = unescapeXml(inner.slice(fEnd, close < 0 ? inner.length : close));
    }
  }
  let value: string | undefined;
  const v = patterns.valueStart.exec(inner);
  if (v) {
    if (v[1] === "/") value = "";
    else {
      const start = v.index + v[0].length;
      const close = inner.indexOf(`</${prefix}v>`, start);
      value = unescapeXml(inner.slice(start, close < 0 ? inner.length : close));
    }
  }
  let inline: string | undefined;
  const isStart = inner.indexOf(`<${prefix}is`);
  if (isStart >= 0) inline = inlineText(inner.slice(isStart), prefix);
  return { tag, formulaTag, formulaText, value, inline };
}

/** The text of a rich or plain string element (<si>, <is>): its <t> runs, without phonetic (<rPh>) runs. */
export function inlineText(xml: string, prefix: string): string {
  const patterns = patternsOf(prefix);
  const withoutPhonetic = xml.includes("rPh") ? xml.replace(patterns.phonetic, "") : xml;
  let text = "";
  for (const m of withoutPhonetic.matchAll(patterns.text)) text += m[1] ?? "";
  return unescapeXstring(unescapeXml(text));
}
