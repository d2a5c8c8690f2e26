// Excel's calculation chain (xl/calcChain.xml) lists formula cells in the order Excel last calculated them. Excel
// repairs a file whose chain names a cell without a formula ("Removed Records: Formula from /xl/calcChain.xml"),
// so freezing a cell takes it out of the chain. An entry's sheet (`i`, a sheetId) and new-level mark (`l`)
// carry over to the entries after it, so a dropped entry hands them on. A chain left empty is removed with its
// relationship and content type, as Excel does not write an empty one and rebuilds the chain when it calculates.
// The chain as it was is kept in the frozen-formulas part (KeptCalcChain), and `fdq thaw` gives it back byte for
// byte, with its relationship and content type where they were, once every frozen formula is back and the chain
// is still as freeze left it. Otherwise (formulas still frozen, or Excel rewrote the chain since) the chain is
// left as it is: a formula missing from the chain is added when Excel next calculates (the Open XML SDK team's
// findings, dotnet/Open-XML-SDK#1491).
import type { KeptCalcChain } from "./frozen-formulas";
import { sheetKey } from "../model";
import { relationshipsPartOf } from "../xlsx/package";
import type { PackageEditor } from "../xlsx/structure";
import { attributeIn } from "../xlsx/sheet-scan";
import { withAttribute } from "../xlsx/patch";

const CALC_CHAIN_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain";

/** A short hash of a chain's text (53-bit cyrb53, hex): enough to see whether the chain changed since. */
export function chainHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/** The chain's state now: its text's hash, or "removed". */
function chainState(editor: PackageEditor, part: string): string {
  return editor.has(part) ? chainHash(editor.text(part)) : "removed";
}

/**
 * Takes `cells` out of the chain; answers what to keep for thaw (`record`, an earlier freeze's record, is carried
 * on while the chain is as that freeze left it), or undefined when the chain did not change.
 */
export function dropFromCalcChain(
  editor: PackageEditor,
  cells: readonly { sheet: string; cell: string }[],
  record?: KeptCalcChain,
): KeptCalcChain | undefined {
  const { pkg } = editor;
  const rel = pkg.relationships(pkg.workbookPart).find((r) => r.type === "calcChain");
  const earlier = record && chainState(editor, record.part) === record.after ? record : undefined;
  if (rel?.part === undefined || !editor.has(rel.part)) return earlier;
  const part = rel.part;
  const sheetIds = new Map<string, string>();
  const workbook = editor.text(pkg.workbookPart);
  for (const m of workbook.matchAll(/<(?:[\w.-]+:)?sheet\s[^>]*>/g)) {
    const name = attributeIn(m[0], "name");
    const id = attributeIn(m[0], "sheetId");
    if (name !== undefined && id !== undefined) sheetIds.set(sheetKey(name), id);
  }
  const gone = new Set(cells.map((c) => `${sheetIds.get(sheetKey(c.sheet)) ?? "?"}!${c.cell.toUpperCase()}`));
  const xml = editor.text(part);
  let sheet = "";
  let carry: { i?: string; l?: string } = {};
  let kept = 0;
  const out = xml.replace(/<(?:[\w.-]+:)?c\s[^>]*\/>/g, (entry) => {
    const i = attributeIn(entry, "i");
    if (i !== undefined) sheet = i;
    const id = `${sheet}!${(attributeIn(entry, "r") ?? "").toUpperCase()}`;
    if (gone.has(id)) {
      if (i !== undefined) carry.i = i;
      if (attributeIn(entry, "l") !== undefined) carry.l = attributeIn(entry, "l");
      return "";
    }
    kept++;
    let next = entry;
    if (carry.i !== undefined && i === undefined) next = withAttribute(next, "i", carry.i);
    if (carry.l !== undefined && attributeIn(entry, "l") === undefined)
      next = withAttribute(next, "l", carry.l);
    carry = {};
    return next;
  });
  if (out === xml) return earlier;
  const original = earlier?.original ?? xml;
  if (kept > 0) {
    editor.setText(part, out);
    return { part, original, after: chainHash(out) };
  }
  const types = editor.text("[Content_Types].xml");
  const override = new RegExp(`<Override\\s[^>]*PartName="/${part}"[^>]*/>`).exec(types);
  editor.remove(part);
  editor.removeOverride(part);
  const relsPart = relationshipsPartOf(pkg.workbookPart);
  const relsText = editor.text(relsPart);
  const target = new RegExp(`<Relationship\\s[^>]*Type="${CALC_CHAIN_REL}"[^>]*/>`).exec(relsText);
  const t = target ? attributeIn(target[0], "Target") : undefined;
  if (t !== undefined) editor.removeRelationship(pkg.workbookPart, t);
  return {
    part,
    original,
    after: "removed",
    ...(target && { rel: { element: target[0], index: target.index } }),
    ...(override && { override: { element: override[0], index: override.index } }),
  };
}

/** Gives the chain back as it was before freeze, when it is as freeze left it; answers whether it did. */
export function restoreCalcChain(editor: PackageEditor, kept: KeptCalcChain): boolean {
  const state = chainState(editor, kept.part);
  if (state !== kept.after) return false;
  if (state !== "removed") {
    editor.setText(kept.part, kept.original);
    return true;
  }
  const insert = (part: string, at: { element: string; index: number } | undefined): void => {
    if (!at || !editor.has(part)) return;
    const text = editor.text(part);
    if (text.includes(at.element) || at.index > text.length) return;
    editor.setText(part, text.slice(0, at.index) + at.element + text.slice(at.index));
  };
  editor.add(kept.part, kept.original);
  insert("[Content_Types].xml", kept.override);
  insert(relationshipsPartOf(editor.pkg.workbookPart), kept.rel);
  return true;
}
