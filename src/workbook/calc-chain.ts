// Excel's calculation chain (xl/calcChain.xml) lists formula cells in the order Excel last calculated them. Excel
// repairs a file whose chain names a cell without a formula ("Removed Records: Formula from /xl/calcChain.xml"),
// so freezing a cell takes it out of the chain. An entry's sheet (`i`, a sheetId) and new-level mark (`l`)
// carry over to the entries after it, so a dropped entry hands them on. A chain left empty is removed with its
// relationship and content type, as Excel does not write an empty one and rebuilds the chain when it calculates.
// Thawed formulas are not put back: only a chain naming a cell that lost its formula makes Excel repair the
// file; a formula missing from the chain is added when Excel next calculates (the Open XML SDK team's findings,
// dotnet/Open-XML-SDK#1491).
import { sheetKey } from "./model";
import type { PackageEditor } from "./xlsx/structure";
import { attributeIn } from "./xlsx/sheet-scan";
import { withAttribute } from "./xlsx/patch";

const CALC_CHAIN_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain";

export function dropFromCalcChain(
  editor: PackageEditor,
  cells: readonly { sheet: string; cell: string }[],
): void {
  const { pkg } = editor;
  const rel = pkg.relationships(pkg.workbookPart).find((r) => r.type === "calcChain");
  if (rel?.part === undefined || !editor.has(rel.part)) return;
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
  if (out === xml) return;
  if (kept > 0) {
    editor.setText(part, out);
    return;
  }
  editor.remove(part);
  editor.removeOverride(part);
  const relsText = editor.text(
    `${pkg.workbookPart.replace(/[^/]+$/, "")}_rels/${pkg.workbookPart.replace(/^.*\//, "")}.rels`,
  );
  const target = new RegExp(`<Relationship\\s[^>]*Type="${CALC_CHAIN_REL}"[^>]*/>`).exec(relsText)?.[0];
  const t = target ? attributeIn(target, "Target") : undefined;
  if (t !== undefined) editor.removeRelationship(pkg.workbookPart, t);
}
