// A worksheet's cells as spans of its XML text, for the edits that rewrite single cells and keep every other byte
// (freeze and thaw, retrofit's --apply and its restore): where each cell's element starts and ends, and the
// splice that puts new elements in their places.
import { addressOfCell } from "../engine/references";
import { sheetKey } from "../model";
import { layoutOf, scanSheet, type CellSpan } from "./sheet-scan";
import type { PackageEditor } from "./structure";

export interface SheetCellSpans {
  readonly part: string;
  readonly xml: string;
  /** The namespace prefix of the sheet's elements ("" or "x:"). */
  readonly prefix: string;
  /** Each cell's element by its address ("B2"). */
  readonly spans: Map<string, CellSpan>;
}

/** The cells of the sheet named `name` (as Excel compares names), or undefined where the package has none. */
export function sheetCellSpans(editor: PackageEditor, name: string): SheetCellSpans | undefined {
  const part = editor.pkg.sheets.find((s) => sheetKey(s.name) === sheetKey(name))?.part;
  if (part === undefined) return undefined;
  const xml = editor.text(part);
  const layout = layoutOf(xml);
  const spans = new Map<string, CellSpan>();
  scanSheet(
    xml,
    layout,
    () => undefined,
    (span) => spans.set(addressOfCell(span.row, span.col), span),
  );
  return { part, xml, prefix: layout.prefix, spans };
}

/** `xml` with each edit's span replaced by its text; the spans do not overlap. */
export function spliceCells(xml: string, edits: readonly { span: CellSpan; text: string }[]): string {
  let out = "";
  let at = 0;
  for (const { span, text } of [...edits].sort((a, b) => a.span.start - b.span.start)) {
    out += xml.slice(at, span.start) + text;
    at = span.end;
  }
  return out + xml.slice(at);
}
