// fdq retrofit --apply: each linked constant becomes its FDQ formula, stored as Excel stores an add-in's
// function (_xldudf_FDQ_DATAPOINT), with the value it shows now as its cached value and its style kept; the
// cell's element as it was is kept (kept-constants.ts) for fdq thaw. Only those cells change in their
// worksheets; the kept constants add one custom XML part; every other part is copied byte for byte.
//
// fdq thaw gives each constant back: a cell still holding what retrofit wrote, or its formula with a newer
// value, gets its original element back; a cell changed since (another formula, a typed value) is left and said.
import { sheetKey } from "../model";
import type { WorkbookPackage } from "../xlsx/package";
import { withAttribute } from "../xlsx/patch";
import { cellParts, type CellSpan } from "../xlsx/sheet-scan";
import { sheetCellSpans, spliceCells } from "../xlsx/cell-spans";
import { PackageEditor } from "../xlsx/structure";
import { escapeText } from "../xlsx/xml";
import { readKept, writeKept, type KeptConstant } from "./kept-constants";
import { storedFormulaOf, type RetrofitRow } from "./retrofit";

/** The number as a cell stores it: the shortest text that reads back as the same double. */
const numberText = (n: number): string => String(n);

/** The cell's element with `formula` and `value` in place of its constant (style and other attributes kept). */
export function formulaCell(original: string, prefix: string, formula: string, value: number): string {
  const open = /^<[^>]*?(\/?)>/.exec(original);
  const tag = withAttribute((open?.[0] ?? "<c>").replace(/\s*\/>$/, ">"), "t", undefined);
  return `${tag}<${prefix}f>${escapeText(formula)}</${prefix}f><${prefix}v>${numberText(value)}</${prefix}v></${prefix}c>`;
}

export interface ApplyOutcome {
  readonly editor: PackageEditor;
  readonly written: KeptConstant[];
  readonly skipped: string[];
}

/** Writes the linked rows' formulas over their constants. */
export function applyRetrofit(pkg: WorkbookPackage, rows: readonly RetrofitRow[]): ApplyOutcome {
  const editor = new PackageEditor(pkg);
  const written: KeptConstant[] = [];
  const skipped: string[] = [];
  const bySheet = new Map<string, RetrofitRow[]>();
  for (const row of rows) {
    if (row.status !== "linked" || !row.link) continue;
    const list = bySheet.get(sheetKey(row.sheet));
    if (list) list.push(row);
    else bySheet.set(sheetKey(row.sheet), [row]);
  }
  for (const list of bySheet.values()) {
    const sheet = (list[0] as RetrofitRow).sheet;
    const found = sheetCellSpans(editor, sheet);
    if (!found) continue;
    const edits: { span: CellSpan; text: string }[] = [];
    for (const row of list) {
      const span = found.spans.get(row.cell);
      const link = row.link;
      if (!span || !link) continue;
      const original = found.xml.slice(span.start, span.end);
      if (cellParts(found.xml, span, found.prefix).formulaTag !== undefined) {
        skipped.push(`${sheet}!${row.cell}: holds a formula; left as it is`);
        continue;
      }
      const text = formulaCell(
        original,
        found.prefix,
        storedFormulaOf(link.call, link.match),
        link.match.expected,
      );
      edits.push({ span, text });
      written.push({ sheet, cell: row.cell, original, written: text });
    }
    if (edits.length > 0) editor.setText(found.part, spliceCells(found.xml, edits));
  }
  if (written.length > 0) {
    const kept = readKept(editor).filter(
      (k) => !written.some((w) => sheetKey(w.sheet) === sheetKey(k.sheet) && w.cell === k.cell),
    );
    writeKept(editor, [...kept, ...written]);
  }
  return { editor, written, skipped };
}

/** The formula text of a cell's element as stored (escaped), if it has one. */
const formulaIn = (element: string, prefix: string): string | undefined =>
  new RegExp(`<${prefix}f(?:\\s[^>]*)?>([\\s\\S]*?)</${prefix}f>`).exec(element)?.[1];

export interface RestoreOutcome {
  readonly restored: KeptConstant[];
  readonly skipped: string[];
}

/** fdq thaw: the kept constants (of `sheet`, or all) back in their cells, on `editor`. */
export function restoreConstants(
  editor: PackageEditor,
  options: { sheet?: string | undefined } = {},
): RestoreOutcome {
  const all = readKept(editor);
  const chosen = all.filter(
    (k) => options.sheet === undefined || sheetKey(k.sheet) === sheetKey(options.sheet),
  );
  const restored: KeptConstant[] = [];
  const skipped: string[] = [];
  const sheets = new Map<string, KeptConstant[]>();
  for (const k of chosen) sheets.set(sheetKey(k.sheet), [...(sheets.get(sheetKey(k.sheet)) ?? []), k]);
  for (const list of sheets.values()) {
    const sheet = (list[0] as KeptConstant).sheet;
    const found = sheetCellSpans(editor, sheet);
    if (!found) {
      for (const k of list)
        skipped.push(
          `${k.sheet}!${k.cell}: the workbook has no sheet "${k.sheet}" any more; its constant is kept`,
        );
      continue;
    }
    const edits: { span: CellSpan; text: string }[] = [];
    for (const k of list) {
      const span = found.spans.get(k.cell);
      if (!span) {
        skipped.push(`${k.sheet}!${k.cell}: the cell is gone; its constant is kept`);
        continue;
      }
      const current = found.xml.slice(span.start, span.end);
      const wrote = formulaIn(k.written, found.prefix);
      const now = formulaIn(current, found.prefix);
      if (current !== k.written && (wrote === undefined || now !== wrote)) {
        skipped.push(
          `${k.sheet}!${k.cell}: changed since fdq retrofit (it no longer holds the FDQ formula retrofit wrote); left as it is`,
        );
        continue;
      }
      edits.push({ span, text: k.original });
      restored.push(k);
    }
    if (edits.length > 0) editor.setText(found.part, spliceCells(found.xml, edits));
  }
  if (restored.length > 0)
    writeKept(
      editor,
      all.filter((k) => !restored.includes(k)),
    );
  return { restored, skipped };
}
