// The refreshed package: every part copied as it was (compressed bytes included) except the worksheets holding
// written cells, and in those only the written cells change: a cell's <v> (or inline string) and its `t`
// attribute, an array anchor's `ref`, and the cells a spill covers (created in their row, in column order,
// when the sheet has none there). Every other character of the part (other cells, formulas, styles, the order
// and quoting of attributes, extLst, whitespace) is kept. workbook.xml, calcId included, is never touched.
//
// Values are stored as Excel stores them: numbers bare, booleans t="b", errors t="e", a formula's text result
// t="str"; a spilled text is the shared string's index when the workbook's table already holds it, else an
// inline string (t="inlineStr"), which Excel reads and turns into a shared string when it next saves.
import { addressOfCell, cellPosition, rectOf, refOf } from "../engine/references";
import { ExcelError, sheetKey, type Scalar } from "../model";
import { dynamicArrayMark } from "./metadata";
import type { WorkbookPackage } from "./package";
import {
  attributeIn,
  attributePattern,
  layoutOf,
  patternsOf,
  scanSheet,
  type CellSpan,
  type RowSpan,
} from "./sheet-scan";
import { writeZip, type PartContent } from "./zip";
import { bytesOf, escapeAttribute, escapeText } from "./xml";

/** What the refresh writes to one cell (src/workbook/refresh/cell-writes.ts makes them from its results). */
export interface CellWrite {
  /** The new cached value; undefined empties the cell's value (a cell an old spill no longer covers). */
  readonly value: Scalar | undefined;
  /** Whether the cell holds a formula (its string values are then stored as t="str"). */
  readonly formula: boolean;
  /** For an array formula's anchor: the range its `ref` now covers. */
  readonly arrayRef?: string;
  /** A formula that spills for the first time: its <f> becomes a dynamic array formula. */
  readonly newDynamicArray?: boolean;
}

/** Sheet name (as in the model) -> row -> column -> what to write. */
export type CellWrites = Map<string, Map<number, Map<number, CellWrite>>>;

export interface Patched {
  readonly bytes: Uint8Array;
  /** The parts written anew (worksheets with refreshed cells, metadata when a first dynamic array appears). */
  readonly changed: readonly string[];
  /** The parts copied byte for byte. */
  readonly kept: number;
}

interface Splice {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/** A start tag with attribute `name` set (added before the tag's end when absent) or removed (undefined). */
export function withAttribute(tag: string, name: string, value: string | undefined): string {
  const m = attributePattern(name).exec(tag);
  if (m) {
    if (value === undefined) return tag.slice(0, m.index) + tag.slice(m.index + m[0].length);
    return `${tag.slice(0, m.index)}${m[1]}${name}="${escapeAttribute(value)}"${tag.slice(m.index + m[0].length)}`;
  }
  if (value === undefined) return tag;
  const close = tag.endsWith("/>") ? tag.length - 2 : tag.length - 1;
  const before = tag.slice(0, close).replace(/\s+$/, "");
  return `${before} ${name}="${escapeAttribute(value)}"${tag.slice(close)}`;
}

interface Stored {
  /** The `t` attribute (undefined: a number). */
  readonly type: string | undefined;
  /** The value element(s), prefix included. */
  readonly xml: string;
}

function numberText(n: number): string {
  // Shortest text that reads back as the same double, as Excel's own 17-digit form does.
  return Object.is(n, -0) ? "0" : String(n);
}

function stored(
  value: Scalar,
  write: CellWrite,
  prefix: string,
  shared: (s: string) => number | undefined,
): Stored {
  const v = (text: string): string => `<${prefix}v>${text}</${prefix}v>`;
  if (value === null) return { type: undefined, xml: v("0") }; // Excel shows an empty result as 0
  if (typeof value === "number") {
    return Number.isFinite(value)
      ? { type: undefined, xml: v(numberText(value)) }
      : { type: "e", xml: v("#NUM!") };
  }
  if (typeof value === "boolean") return { type: "b", xml: v(value ? "1" : "0") };
  if (value instanceof ExcelError) return { type: "e", xml: v(escapeText(value.code)) };
  if (write.formula) return { type: "str", xml: v(escapeText(value)) };
  const index = shared(value);
  if (index !== undefined) return { type: "s", xml: v(String(index)) };
  const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : "";
  return {
    type: "inlineStr",
    xml: `<${prefix}is><${prefix}t${space}>${escapeText(value)}</${prefix}t></${prefix}is>`,
  };
}

interface SheetContext {
  readonly prefix: string;
  readonly shared: (s: string) => number | undefined;
  /** The cm value marking a new dynamic array; undefined: written as a legacy array formula. */
  readonly mark: number | undefined;
}

/** The cell's new XML: its value (or none), `t`, an anchor's `ref`; everything else as it was. */
function rewriteCell(
  xml: string,
  span: CellSpan | undefined,
  address: string,
  write: CellWrite,
  ctx: SheetContext,
): string {
  const { prefix } = ctx;
  const patterns = patternsOf(prefix);
  let tag: string;
  let inner: string;
  if (span) {
    tag = xml.slice(span.start, span.tagEnd);
    inner = xml.slice(span.tagEnd, span.contentEnd);
    if (tag.endsWith("/>")) tag = `${tag.slice(0, -2).replace(/\s+$/, "")}>`;
  } else {
    tag = `<${prefix}c r="${address}">`;
    inner = "";
  }
  // The old value goes: <v>...</v>, <v/>, and an inline string's <is>...</is>.
  inner = inner.replace(patterns.value, "").replace(patterns.inline, "");
  const fMatch = patterns.formula.exec(inner);
  let valueAt = 0;
  if (fMatch) {
    let fTag = fMatch[0];
    if (write.arrayRef !== undefined) {
      if (write.newDynamicArray && attributeIn(fTag, "t") === undefined)
        fTag = withAttribute(fTag, "t", "array");
      if (attributeIn(fTag, "t") === "array") fTag = withAttribute(fTag, "ref", write.arrayRef);
      const isArray = attributeIn(fTag, "t") === "array";
      if (write.newDynamicArray && isArray && ctx.mark !== undefined)
        tag = withAttribute(tag, "cm", String(ctx.mark));
    }
    inner = inner.slice(0, fMatch.index) + fTag + inner.slice(fMatch.index + fMatch[0].length);
    const fEnd = fMatch.index + fTag.length;
    if (fMatch[1] === "/") valueAt = fEnd;
    else {
      const close = inner.indexOf(`</${prefix}f>`, fEnd);
      valueAt = close < 0 ? fEnd : close + `</${prefix}f>`.length;
    }
  }
  if (write.value === undefined) {
    tag = withAttribute(tag, "t", undefined);
    return inner === "" ? `${tag.slice(0, -1)}/>` : `${tag}${inner}</${prefix}c>`;
  }
  const value = stored(write.value, write, prefix, ctx.shared);
  tag = withAttribute(tag, "t", value.type);
  return `${tag}${inner.slice(0, valueAt)}${value.xml}${inner.slice(valueAt)}</${prefix}c>`;
}

/** "1:5" widened to cover `cols`. */
function widenedSpans(spans: string, cols: readonly number[]): string {
  const [a, b] = spans.split(":").map(Number);
  if (a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b)) return spans;
  return `${Math.min(a, ...cols)}:${Math.max(b, ...cols)}`;
}

/**
 * The sheet's text with `writes` applied, as pieces in order (stretches of the old text and the new cells between
 * them: the patched sheet is never one string); undefined when nothing in it changes.
 */
function patchSheet(
  xml: string,
  writes: Map<number, Map<number, CellWrite>>,
  ctx: Omit<SheetContext, "prefix">,
): string[] | undefined {
  const layout = layoutOf(xml);
  const sheet: SheetContext = { ...ctx, prefix: layout.prefix };
  const splices: Splice[] = [];
  const rows: RowSpan[] = [];
  const cellsOfRow = new Map<number, CellSpan[]>();
  scanSheet(
    xml,
    layout,
    (row) => rows.push(row),
    (cell) => {
      // Only the rows written to are looked at: a sheet of a million cells would otherwise hold a span per cell.
      if (!writes.has(cell.row)) return;
      let list = cellsOfRow.get(cell.row);
      if (!list) cellsOfRow.set(cell.row, (list = []));
      list.push(cell);
    },
  );
  const rowNumbers = new Set(rows.map((r) => r.row));
  for (const row of rows) {
    const wanted = writes.get(row.row);
    if (!wanted) continue;
    const spans = cellsOfRow.get(row.row) ?? [];
    const found = new Set<number>();
    for (const span of spans) {
      const write = wanted.get(span.col);
      if (!write) continue;
      found.add(span.col);
      splices.push({ at: span.start, end: span.end, text: rewriteCell(xml, span, "", write, sheet) });
    }
    const missing = [...wanted.keys()]
      .filter((c) => !found.has(c) && wanted.get(c)?.value !== undefined)
      .sort((a, b) => a - b);
    if (missing.length === 0) continue;
    for (const col of missing) {
      const cellXml = rewriteCell(
        xml,
        undefined,
        addressOfCell(row.row, col),
        wanted.get(col) as CellWrite,
        sheet,
      );
      const before = spans.find((s) => s.col > col);
      if (before) splices.push({ at: before.start, end: before.start, text: cellXml });
      else if (!row.selfClosing) splices.push({ at: row.contentEnd, end: row.contentEnd, text: cellXml });
      else splices.push({ at: row.tagEnd, end: row.tagEnd, text: cellXml });
    }
    let tag = xml.slice(row.start, row.tagEnd);
    const spansText = attributeIn(tag, "spans");
    if (spansText !== undefined) tag = withAttribute(tag, "spans", widenedSpans(spansText, missing));
    if (row.selfClosing) {
      tag = `${tag.slice(0, -2).replace(/\s+$/, "")}>`;
      splices.push({ at: row.tagEnd, end: row.tagEnd, text: `</${layout.prefix}row>` });
    }
    if (tag !== xml.slice(row.start, row.tagEnd)) splices.push({ at: row.start, end: row.tagEnd, text: tag });
  }
  // Rows the sheet does not have yet, each before the first row below it.
  const newRows = [...writes.keys()].filter((r) => !rowNumbers.has(r)).sort((a, b) => a - b);
  for (const r of newRows) {
    const cols = [...(writes.get(r) as Map<number, CellWrite>).entries()]
      .filter(([, w]) => w.value !== undefined)
      .sort(([a], [b]) => a - b);
    if (cols.length === 0) continue;
    const cells = cols.map(([c, w]) => rewriteCell(xml, undefined, addressOfCell(r, c), w, sheet)).join("");
    const below = rows.find((row) => row.row > r);
    const at = below ? below.start : layout.dataEnd;
    splices.push({ at, end: at, text: `<${layout.prefix}row r="${r}">${cells}</${layout.prefix}row>` });
  }
  const dimension = dimensionSplice(xml, layout.prefix, writes);
  if (dimension) splices.push(dimension);
  // By position, an insertion before a replacement starting at the same place (a new cell before an existing
  // one); stable, so cells inserted at one place keep their column order, and the </row> closing a row that
  // was self-closing comes after the cells inserted there.
  const replaces = (s: Splice): number => (s.end > s.at ? 1 : 0);
  splices.sort((a, b) => a.at - b.at || replaces(a) - replaces(b));
  if (splices.every((s) => s.text === xml.slice(s.at, s.end))) return undefined;
  const pieces: string[] = [];
  let at = 0;
  for (const s of splices) {
    pieces.push(xml.slice(at, s.at), s.text);
    at = s.end;
  }
  pieces.push(xml.slice(at));
  return pieces;
}

/** The zip writer is handed the patched sheet's bytes in pieces of this many UTF-16 units (the last less). */
const PIECE = 64 * 1024;

/**
 * The bytes of `pieces` joined, encoded a piece of PIECE units at a time: small pieces (a sheet patched in 50,000
 * cells is 100,000 of them) are gathered, long ones cut, and a surrogate pair is never cut.
 */
function* utf8Of(pieces: readonly string[]): Generator<Uint8Array> {
  let pending = "";
  for (const piece of pieces) {
    let at = 0;
    while (pending.length + piece.length - at >= PIECE) {
      let end = at + PIECE - pending.length;
      const last = piece.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end--;
      yield bytesOf(pending + piece.slice(at, end));
      pending = "";
      at = end;
    }
    pending += piece.slice(at);
  }
  if (pending !== "") yield bytesOf(pending);
}

/** <dimension ref> widened to the cells now holding values, as Excel keeps it. */
function dimensionSplice(
  xml: string,
  prefix: string,
  writes: Map<number, Map<number, CellWrite>>,
): Splice | undefined {
  const m = patternsOf(prefix).dimension.exec(xml);
  if (!m) return undefined;
  const ref = attributeIn(m[0], "ref");
  const rect = ref === undefined ? undefined : rectOf("", ref);
  if (!rect || !cellPosition(ref?.split(":")[0] ?? "")) return undefined;
  let { top, left, bottom, right } = rect;
  for (const [row, cols] of writes) {
    for (const [col, write] of cols) {
      if (write.value === undefined) continue;
      top = Math.min(top, row);
      bottom = Math.max(bottom, row);
      left = Math.min(left, col);
      right = Math.max(right, col);
    }
  }
  const widened = refOf({ top, left, bottom, right });
  if (widened === ref) return undefined;
  return { at: m.index, end: m.index + m[0].length, text: withAttribute(m[0], "ref", widened) };
}

/** The package with `writes` in its worksheets; every other part copied byte for byte. */
export function patchPackage(
  pkg: WorkbookPackage,
  sharedStrings: readonly string[],
  writes: CellWrites,
): Patched {
  let sharedIndex: Map<string, number> | undefined;
  const shared = (s: string): number | undefined => {
    if (!sharedIndex) {
      sharedIndex = new Map();
      sharedStrings.forEach((text, i) => {
        if (!sharedIndex?.has(text)) sharedIndex?.set(text, i);
      });
    }
    return sharedIndex.get(s);
  };
  const wantsDynamic = [...writes.values()].some((rows) =>
    [...rows.values()].some((cols) => [...cols.values()].some((w) => w.newDynamicArray)),
  );
  const added = wantsDynamic ? dynamicArrayMark(pkg) : undefined;
  const replaced = new Map<string, PartContent>(added?.parts ?? []);
  const bySheet = new Map(pkg.sheets.map((s) => [sheetKey(s.name), s]));
  for (const [name, sheetWrites] of writes) {
    const part = bySheet.get(sheetKey(name))?.part;
    if (part === undefined) continue;
    const patched = patchSheet(pkg.text(part), sheetWrites, { shared, mark: added?.mark });
    if (patched) replaced.set(part, utf8Of(patched));
  }
  return {
    bytes: writeZip(pkg.archive, replaced),
    changed: [...replaced.keys()],
    kept: pkg.archive.entries.filter((e) => !replaced.has(e.name)).length,
  };
}
