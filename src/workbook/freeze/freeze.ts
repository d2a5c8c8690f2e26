// `fdq freeze` and `fdq thaw` on the package, as the refresh patches it: only the cells concerned change, the
// parts that list parts get one element more or less, every other part is copied byte for byte.
//
// Freeze: each FDQ cell (a formula calling FDQ, any form: FDQ., _xldudf_FDQ_, _xludf.FDQ.) keeps its cached
// value and loses its formula: its <f> goes, a dynamic array's cm mark goes (the cells it spilled into already
// hold values), a formula's text result (t="str", which only a formula may have) becomes an inline string.
// Dependents keep their formulas and cached values. The cell as it was stored is kept in the frozen-formulas
// part (src/workbook/freeze/frozen-parts.ts) with the formula as the task pane restores it. A shared formula is only
// frozen with its whole group (a group mixing FDQ and other cells is left, and said). The calculation chain
// (calcChain.xml) loses the frozen cells, as Excel would refuse a chain naming cells without formulas; the chain
// as it was is kept with the frozen formulas, and thaw gives it back once every formula is back.
//
// Thaw: each frozen cell gets back the <c> element it had when it is as freeze left it (so freeze then thaw
// gives back every worksheet character for character), else its formula is put back around its present value.
// The part goes when no frozen cell is left in it.
import { engineFormula } from "../formula-text";
import { mergeFrozen, withoutCells, type FrozenCell, type FrozenValue } from "./frozen-formulas";
import { readFrozenCells, readKeptChain, writeFrozenCells } from "./frozen-parts";
import { ExcelError, sheetKey, type FormulaCell, type Scalar, type WorkbookModel } from "../model";
import { addressOfCell } from "../engine/references";
import type { WorkbookPackage } from "../xlsx/package";
import { withAttribute } from "../xlsx/patch";
import { attributeIn, cellParts, parseAddress, type CellSpan } from "../xlsx/sheet-scan";
import { sheetCellSpans, spliceCells } from "../xlsx/cell-spans";
import { PackageEditor } from "../xlsx/structure";
import { escapeText } from "../xlsx/xml";
import { dropFromCalcChain, restoreCalcChain } from "./calc-chain";

export interface FreezeOutcome {
  readonly editor: PackageEditor;
  readonly frozen: FrozenCell[];
  /** Cells not frozen, and why ("Model!E2: ..."). */
  readonly skipped: string[];
}

const frozenValue = (v: Scalar | undefined): FrozenValue =>
  v === undefined || v === null ? null : v instanceof ExcelError ? { error: v.code } : v;

/** The cell's element without its formula (see the module's comment). */
export function withoutFormula(cell: string, prefix: string): string {
  const open = /^<[^>]*?(\/?)>/.exec(cell);
  if (!open) return cell;
  let tag = withAttribute(open[0], "cm", undefined);
  if (open[1] === "/") return tag;
  let inner = cell.slice(open[0].length, cell.length - `</${prefix}c>`.length);
  inner = inner.replace(new RegExp(`<${prefix}f(?=[\\s/>])[^>]*?(?:/>|>[\\s\\S]*?</${prefix}f>)`), "");
  if (attributeIn(tag, "t") === "str") {
    const v = new RegExp(`<${prefix}v(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${prefix}v>)`).exec(inner);
    const text = v?.[1] ?? "";
    const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
    if (v) {
      inner = inner.replace(v[0], `<${prefix}is><${prefix}t${space}>${text}</${prefix}t></${prefix}is>`);
      tag = withAttribute(tag, "t", "inlineStr");
    } else tag = withAttribute(tag, "t", undefined);
  }
  if (!new RegExp(`<${prefix}(?:v|is)[\\s/>]`).test(inner)) tag = withAttribute(tag, "t", undefined);
  return inner === "" ? `${tag.slice(0, -1).replace(/\s+$/, "")}/>` : `${tag}${inner}</${prefix}c>`;
}

/** The frozen cell with its formula back around its present value (when it changed since the freeze). */
function withFormula(current: string, frozen: FrozenCell, prefix: string): string {
  const stored = frozen.stored ?? "";
  const storedF = new RegExp(`<${prefix}f(?=[\\s/>])[^>]*?(?:/>|>[\\s\\S]*?</${prefix}f>)`).exec(stored)?.[0];
  const f = storedF ?? `<${prefix}f>${escapeText(frozen.formula.replace(/^=/, ""))}</${prefix}f>`;
  const cm = /^<[^>]*>/.exec(stored)?.[0];
  const open = /^<[^>]*?(\/?)>/.exec(current);
  if (!open) return current;
  let tag = open[1] === "/" ? `${open[0].slice(0, -2).replace(/\s+$/, "")}>` : open[0];
  const mark = cm ? attributeIn(cm, "cm") : undefined;
  if (mark !== undefined) tag = withAttribute(tag, "cm", mark);
  let inner = open[1] === "/" ? "" : current.slice(open[0].length, current.length - `</${prefix}c>`.length);
  if (attributeIn(tag, "t") === "inlineStr") {
    const is = new RegExp(
      `<${prefix}is(?:\\s[^>]*)?>[\\s\\S]*?<${prefix}t(?:\\s[^>]*)?>([\\s\\S]*?)</${prefix}t>[\\s\\S]*?</${prefix}is>`,
    ).exec(inner);
    if (is) inner = inner.replace(is[0], `<${prefix}v>${is[1] ?? ""}</${prefix}v>`);
    tag = withAttribute(tag, "t", "str");
  }
  return `${tag}${f}${inner}</${prefix}c>`;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const fdqCells = (model: WorkbookModel, sheet: string | undefined): FormulaCell[] =>
  model.formulas.filter(
    (c) =>
      c.kind !== "dataTable" &&
      engineFormula(c.formula).callsFdq &&
      (sheet === undefined || sheetKey(c.sheet) === sheetKey(sheet)),
  );

/** Freezes the FDQ cells (of `sheet`, or all); the editor holds the result. */
export function freezePackage(
  pkg: WorkbookPackage,
  model: WorkbookModel,
  options: {
    sheet?: string | undefined;
    now: Date;
    /** Only these FDQ cells ("B2"); default all (of `sheet`). */
    only?: (sheet: string, cell: string) => boolean;
  },
): FreezeOutcome {
  const editor = new PackageEditor(pkg);
  const frozen: FrozenCell[] = [];
  const skipped: string[] = [];
  const bySheet = new Map<string, FormulaCell[]>();
  for (const cell of fdqCells(model, options.sheet)) {
    if (options.only && !options.only(cell.sheet, addressOfCell(cell.row, cell.col))) continue;
    pushTo(bySheet, cell.sheet, cell);
  }
  const removedFromChain: { sheet: string; cell: string }[] = [];
  for (const [sheet, cells] of bySheet) {
    const found = sheetCellSpans(editor, sheet);
    if (!found) continue;
    const { xml, prefix, spans } = found;
    const wanted = new Set(cells.map((c) => addressOfCell(c.row, c.col)));
    // Shared-formula groups: frozen whole or not at all.
    const groups = new Map<string, string[]>();
    for (const [address, span] of spans) {
      const parts = cellParts(xml, span, prefix);
      if (parts.formulaTag === undefined || attributeIn(parts.formulaTag, "t") !== "shared") continue;
      const si = attributeIn(parts.formulaTag, "si") ?? "";
      pushTo(groups, si, address);
    }
    const mixed = new Set<string>();
    for (const members of groups.values()) {
      if (members.some((a) => wanted.has(a)) && !members.every((a) => wanted.has(a))) {
        for (const a of members) mixed.add(a);
      }
    }
    const edits: { span: CellSpan; text: string }[] = [];
    for (const cell of cells) {
      const address = addressOfCell(cell.row, cell.col);
      const span = spans.get(address);
      if (!span) continue;
      if (mixed.has(address)) {
        skipped.push(`${sheet}!${address}: shares its formula with cells that do not call FDQ; not frozen`);
        continue;
      }
      const stored = xml.slice(span.start, span.end);
      const ref = cell.array?.ref;
      const spill =
        ref !== undefined && ref.includes(":") && parseAddress(ref.split(":")[1] ?? "") ? ref : undefined;
      edits.push({ span, text: withoutFormula(stored, prefix) });
      frozen.push({
        sheet: cell.sheet,
        cell: address,
        formula: `=${cell.formula}`,
        value: frozenValue(cell.cached),
        ...(spill ? { spill } : {}),
        frozenAt: options.now.toISOString(),
        stored,
      });
      removedFromChain.push({ sheet: cell.sheet, cell: address });
    }
    if (edits.length > 0) editor.setText(found.part, spliceCells(xml, edits));
  }
  if (frozen.length > 0) {
    const chain = dropFromCalcChain(editor, removedFromChain, readKeptChain(editor));
    writeFrozenCells(editor, mergeFrozen(readFrozenCells(editor), frozen), chain);
  }
  return { editor, frozen, skipped };
}

export interface ThawOutcome {
  readonly editor: PackageEditor;
  readonly restored: FrozenCell[];
  readonly skipped: string[];
}

/** Puts the frozen formulas (of `sheet`, or all) back. */
export function thawPackage(pkg: WorkbookPackage, options: { sheet?: string | undefined }): ThawOutcome {
  const editor = new PackageEditor(pkg);
  const all = readFrozenCells(editor);
  const chosen = all.filter(
    (c) => options.sheet === undefined || sheetKey(c.sheet) === sheetKey(options.sheet),
  );
  const restored: FrozenCell[] = [];
  const skipped: string[] = [];
  const bySheet = new Map<string, FrozenCell[]>();
  for (const c of chosen) pushTo(bySheet, sheetKey(c.sheet), c);
  for (const cells of bySheet.values()) {
    const sheet = (cells[0] as FrozenCell).sheet;
    const found = sheetCellSpans(editor, sheet);
    if (!found) {
      for (const c of cells)
        skipped.push(`${c.sheet}!${c.cell}: the workbook has no sheet "${c.sheet}" any more; kept frozen`);
      continue;
    }
    const edits: { span: CellSpan; text: string }[] = [];
    for (const c of cells) {
      const span = found.spans.get(c.cell);
      if (!span) {
        skipped.push(`${c.sheet}!${c.cell}: the cell is gone; kept frozen`);
        continue;
      }
      const current = found.xml.slice(span.start, span.end);
      if (current.includes(`<${found.prefix}f`)) {
        skipped.push(`${c.sheet}!${c.cell}: holds a formula again; its frozen formula is dropped`);
        restored.push(c);
        continue;
      }
      if (c.spill && c.stored === undefined) {
        skipped.push(
          `${c.sheet}!${c.cell}: a spilling formula frozen in Excel; restore it with the add-in's Restore formulas`,
        );
        continue;
      }
      const exact = c.stored !== undefined && withoutFormula(c.stored, found.prefix) === current;
      edits.push({ span, text: exact ? (c.stored as string) : withFormula(current, c, found.prefix) });
      restored.push(c);
    }
    if (edits.length > 0) editor.setText(found.part, spliceCells(found.xml, edits));
  }
  if (restored.length > 0) {
    const chain = readKeptChain(editor);
    const left = withoutCells(all, restored);
    writeFrozenCells(editor, left, chain);
    // Every formula back: the calculation chain as it was before the freeze (calc-chain.ts).
    if (chain && left.length === 0) restoreCalcChain(editor, chain);
  }
  return { editor, restored, skipped };
}
