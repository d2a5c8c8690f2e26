// `fdq repair` on the package: every FDQ call Excel no longer recognises is stored again the way Excel stores a
// loaded add-in's function, _xldudf_FDQ_NAME(...) without a prefix (the rule: src/functions/formula-repair.ts),
// in cell formulas (a shared formula's master, whose text its followers share; array formulas) and defined
// names. Only the call's head changes, inside the <f> or <definedName> text as written (its other characters and
// entities kept), so every other byte of those parts stays, and every other part is copied byte for byte.
//
// An external link (xl/externalLinks/externalLinkN.xml) that the repaired prefixes ([N]!) referenced goes, with
// its relationships, its <externalReference> in workbook.xml, its content type and its relationship from
// workbook.xml, once nothing references [N] any more. A formula names an external workbook by its position in
// <externalReferences>, so a link is only removed when every link after it goes too; otherwise it is kept, and
// said. Cached values are not touched: a repaired cell shows its saved value (often #NAME?) until Excel or
// `fdq refresh` calculates it.
import { applyEdits, repairEdits, type HeadEdit } from "../../functions/formula-repair";
import { addressOfCell, columnNumber } from "../engine/references";
import { translateFormula } from "../engine/translate";
import { relationshipsPartOf, type WorkbookPackage } from "../xlsx/package";
import { attributeIn, cellParts, layoutOf, scanSheet, tagEndAt, type CellSpan } from "../xlsx/sheet-scan";
import { PackageEditor } from "../xlsx/structure";
import { escapeText, unescapeXml } from "../xlsx/xml";

export interface RepairedCell {
  readonly sheet: string;
  /** "B2". */
  readonly cell: string;
  /** The formulas as Excel would show them, with "=" (a shared formula's follower at its own position). */
  readonly before: string;
  readonly after: string;
}

export interface RepairedName {
  readonly name: string;
  /** The sheet of a sheet-scoped name. */
  readonly scope?: string;
  readonly before: string;
  readonly after: string;
}

export interface ExternalLink {
  /** "xl/externalLinks/externalLink1.xml". */
  readonly part: string;
  /** Its position as formulas write it: [1]. */
  readonly index: number;
  /** The workbook it points to, as its relationship names it ("file:///C:\...\BloombergUI.xla"), if any. */
  readonly target: string | undefined;
}

export interface RepairOutcome {
  readonly editor: PackageEditor;
  readonly cells: readonly RepairedCell[];
  readonly names: readonly RepairedName[];
  /** External links removed: only the repaired formulas referenced them. */
  readonly droppedLinks: readonly ExternalLink[];
  /** External links the repaired formulas referenced and nothing references any more, kept, and why. */
  readonly keptLinks: readonly (ExternalLink & { readonly reason: string })[];
  /** Calls left as they are ("Model!B2: [2]!_xldudf_FDQ_NOSUCH is not an FDQ function; left as it is"). */
  readonly left: readonly string[];
}

interface RawRepair {
  /** The escaped text with the heads rewritten. */
  readonly raw: string;
  readonly before: string;
  readonly after: string;
  readonly edits: readonly HeadEdit[];
  readonly unknown: readonly string[];
}

/**
 * `raw` (the escaped XML text of a formula) with its FDQ calls repaired: only the heads change, so every other
 * character keeps the escaping it had.
 */
function repairRaw(raw: string): RawRepair {
  const text = unescapeXml(raw);
  const { edits, unknown } = repairEdits(text, "file");
  if (edits.length === 0) return { raw, before: text, after: text, edits, unknown };
  // The offset in `raw` of each character of `text`: an entity is one character (two outside the BMP).
  const rawAt: number[] = [];
  for (let i = 0; i < raw.length;) {
    const semi = raw.charAt(i) === "&" ? raw.indexOf(";", i) : -1;
    const end = semi < 0 ? i + 1 : semi + 1;
    const decoded = semi < 0 ? raw.charAt(i) : unescapeXml(raw.slice(i, end));
    for (let k = 0; k < decoded.length; k++) rawAt.push(i);
    i = end;
  }
  rawAt.push(raw.length);
  const rawEdits = edits.map((e) => ({
    start: rawAt[e.start] as number,
    end: rawAt[e.end] as number,
    replacement: escapeText(e.replacement),
  }));
  return { raw: applyEdits(raw, rawEdits), before: text, after: applyEdits(text, edits), edits, unknown };
}

/** The prefixes the edits removed ("[2]!", "'C:\\x\\BloombergUI.xla'!"). */
const prefixesOf = (text: string, edits: readonly HeadEdit[]): string[] =>
  edits.flatMap((e) => {
    const head = text.slice(e.start, e.end);
    const bang = head.lastIndexOf("!");
    return bang < 0 ? [] : [head.slice(0, bang + 1)];
  });

interface SheetRepair {
  readonly xml: string;
  readonly cells: RepairedCell[];
  readonly prefixes: string[];
  readonly left: string[];
}

/** One worksheet's formulas repaired (undefined: nothing changed). */
function repairSheet(sheet: string, xml: string): SheetRepair | undefined {
  const layout = layoutOf(xml);
  const { prefix } = layout;
  const fClose = `</${prefix}f>`;
  const splices: { at: number; end: number; text: string }[] = [];
  const cells: RepairedCell[] = [];
  const prefixes: string[] = [];
  const left: string[] = [];
  /** Shared formulas by si: the master's position and its text before and after. */
  const masters = new Map<string, { row: number; col: number; before: string; after: string }>();
  const followers: { span: CellSpan; si: string }[] = [];
  scanSheet(
    xml,
    layout,
    () => undefined,
    (span) => {
      if (span.contentEnd === span.tagEnd) return;
      const inner = xml.slice(span.tagEnd, span.contentEnd);
      const parts = cellParts(xml, span, prefix);
      if (parts.formulaTag === undefined) return;
      const shared = attributeIn(parts.formulaTag, "t") === "shared";
      const si = attributeIn(parts.formulaTag, "si") ?? "";
      const fAt = inner.indexOf(parts.formulaTag);
      const textAt = span.tagEnd + fAt + parts.formulaTag.length;
      const close = parts.formulaTag.endsWith("/>") ? -1 : xml.indexOf(fClose, textAt);
      if (close < 0 || close > span.contentEnd) {
        if (shared) followers.push({ span, si });
        return;
      }
      const raw = xml.slice(textAt, close);
      if (shared && raw.trim() === "") {
        followers.push({ span, si });
        return;
      }
      const address = addressOfCell(span.row, span.col);
      const repair = repairRaw(raw);
      for (const u of repair.unknown)
        left.push(`${sheet}!${address}: ${u} is not an FDQ function; left as it is`);
      if (shared)
        masters.set(si, { row: span.row, col: span.col, before: repair.before, after: repair.after });
      if (repair.edits.length === 0) return;
      splices.push({ at: textAt, end: close, text: repair.raw });
      prefixes.push(...prefixesOf(repair.before, repair.edits));
      cells.push({ sheet, cell: address, before: `=${repair.before}`, after: `=${repair.after}` });
    },
  );
  // A follower of a repaired master is repaired with it: its formula is the master's moved to its cell.
  for (const { span, si } of followers) {
    const master = masters.get(si);
    if (!master || master.before === master.after) continue;
    const moved = (text: string): string =>
      translateFormula(text, master.row, master.col, span.row, span.col);
    cells.push({
      sheet,
      cell: addressOfCell(span.row, span.col),
      before: `=${moved(master.before)}`,
      after: `=${moved(master.after)}`,
    });
  }
  // In the sheet's order, row by row: a follower among the cells around it.
  const position = (c: RepairedCell): [number, number] => {
    const [, letters = "", digits = "0"] = /^([A-Z]+)(\d+)$/.exec(c.cell) ?? [];
    return [Number(digits), columnNumber(letters)];
  };
  cells.sort((a, b) => {
    const [ra, ca] = position(a);
    const [rb, cb] = position(b);
    return ra - rb || ca - cb;
  });
  if (splices.length === 0) return left.length > 0 ? { xml, cells, prefixes, left } : undefined;
  let out = "";
  let at = 0;
  for (const s of splices) {
    out += xml.slice(at, s.at) + s.text;
    at = s.end;
  }
  return { xml: out + xml.slice(at), cells, prefixes, left };
}

/** workbook.xml with its defined names repaired. */
function repairNames(
  xml: string,
  sheetNames: readonly string[],
): { xml: string; names: RepairedName[]; prefixes: string[]; left: string[] } {
  const names: RepairedName[] = [];
  const prefixes: string[] = [];
  const left: string[] = [];
  const open = /<([A-Za-z_][\w.-]*:)?definedName[\s>]/g;
  let out = "";
  let at = 0;
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    const tagEnd = tagEndAt(xml, m.index);
    const tag = xml.slice(m.index, tagEnd);
    if (tag.endsWith("/>")) continue;
    const close = xml.indexOf(`</${m[1] ?? ""}definedName>`, tagEnd);
    if (close < 0) break;
    const name = attributeIn(tag, "name") ?? "";
    const local = attributeIn(tag, "localSheetId");
    const scope = local === undefined ? undefined : sheetNames[Number(local)];
    const repair = repairRaw(xml.slice(tagEnd, close));
    for (const u of repair.unknown) left.push(`the name ${name}: ${u} is not an FDQ function; left as it is`);
    open.lastIndex = close;
    if (repair.edits.length === 0) continue;
    out += xml.slice(at, tagEnd) + repair.raw;
    at = close;
    prefixes.push(...prefixesOf(repair.before, repair.edits));
    names.push({
      name,
      ...(scope !== undefined ? { scope } : {}),
      before: `=${repair.before}`,
      after: `=${repair.after}`,
    });
  }
  return { xml: out + xml.slice(at), names, prefixes, left };
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The package's external links in the order of workbook.xml's <externalReferences>, with their r:id. */
function externalLinks(
  pkg: WorkbookPackage,
  workbookXml: string,
): { links: (ExternalLink & { id: string })[]; count: number } {
  const refs =
    /<(?:[A-Za-z_][\w.-]*:)?externalReferences[\s>][\s\S]*?<\/(?:[A-Za-z_][\w.-]*:)?externalReferences>/.exec(
      workbookXml,
    );
  if (!refs) return { links: [], count: 0 };
  const rels = new Map(pkg.relationships(pkg.workbookPart).map((r) => [r.id, r]));
  const ids = [...refs[0].matchAll(/<(?:[A-Za-z_][\w.-]*:)?externalReference\s[^>]*>/g)].map((m) =>
    unescapeXml(/\s(?:[A-Za-z_][\w.-]*:)?id\s*=\s*"([^"]*)"/.exec(m[0])?.[1] ?? ""),
  );
  const links = ids.flatMap((id, i) => {
    const part = rels.get(id)?.part;
    if (part === undefined) return [];
    const target = pkg.has(relationshipsPartOf(part))
      ? /\sTarget="([^"]*)"/.exec(pkg.text(relationshipsPartOf(part)))?.[1]
      : undefined;
    return [{ part, index: i + 1, target: target === undefined ? undefined : unescapeXml(target), id }];
  });
  return { links, count: ids.length };
}

/** The parts whose text may reference an external workbook by its index: everything but these. */
const NEVER_REFERENCES =
  /^(?:\[Content_Types\]\.xml|.*\.rels|docProps\/.*|customXml\/.*|xl\/externalLinks\/.*|xl\/sharedStrings\.xml|xl\/styles\.xml|xl\/theme\/.*|xl\/comments\d*\.xml|xl\/threadedComments\/.*|xl\/persons\/.*)$/;

/** Whether any part that can hold a formula still names external workbook `index` ([2]) or `file` (by its name). */
function stillReferenced(editor: PackageEditor, index: number, file: string | undefined): boolean {
  const byIndex = new RegExp(`\\[${index}\\]`);
  const byFile = file ? new RegExp(escapeRegExp(file), "i") : undefined;
  for (const entry of editor.pkg.archive.entries) {
    const part = entry.name;
    if (NEVER_REFERENCES.test(part) || !editor.has(part) || !/\.(xml|vml)$/i.test(part)) continue;
    const text = editor.text(part);
    if (byIndex.test(text) || (byFile && byFile.test(text))) return true;
  }
  return false;
}

/** The file name at the end of a path or URL ("file:///C:\x\BloombergUI.xla" -> "BloombergUI.xla"). */
const fileNameOf = (path: string): string =>
  path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);

/** The external links a prefix named: "[2]!" names link 2; a path names the links to a file of that name. */
function linksNamed(prefix: string, links: readonly ExternalLink[]): ExternalLink[] {
  const index = /^\[(\d+)\]!$/.exec(prefix);
  if (index) return links.filter((l) => l.index === Number(index[1]));
  const file = fileNameOf(prefix.replace(/^'|'!$|!$/g, "").replace(/''/g, "'")).toLowerCase();
  return links.filter((l) => l.target !== undefined && fileNameOf(l.target).toLowerCase() === file);
}

/** Removes the external link from the package: its parts, reference, content type and relationship. */
function dropLink(editor: PackageEditor, link: ExternalLink & { id: string }): void {
  const { pkg } = editor;
  editor.remove(link.part);
  if (editor.has(relationshipsPartOf(link.part))) editor.remove(relationshipsPartOf(link.part));
  editor.removeOverride(link.part);
  const relsPart = relationshipsPartOf(pkg.workbookPart);
  const rel = new RegExp(`<Relationship\\s(?:[^>]*\\s)?Id="${escapeRegExp(link.id)}"[^>]*/>`);
  editor.setText(relsPart, editor.text(relsPart).replace(rel, ""));
  const reference = new RegExp(
    `<(?:[A-Za-z_][\\w.-]*:)?externalReference\\s(?:[^>]*\\s)?(?:[A-Za-z_][\\w.-]*:)?id="${escapeRegExp(link.id)}"[^>]*/>`,
  );
  const workbook = editor
    .text(pkg.workbookPart)
    .replace(reference, "")
    .replace(/<([A-Za-z_][\w.-]*:)?externalReferences\s*>\s*<\/\1?externalReferences>/, "")
    .replace(/<([A-Za-z_][\w.-]*:)?externalReferences\s*\/>/, "");
  editor.setText(pkg.workbookPart, workbook);
}

/** Repairs every FDQ call Excel no longer recognises (see the module's comment); the editor holds the result. */
export function repairPackage(pkg: WorkbookPackage): RepairOutcome {
  const editor = new PackageEditor(pkg);
  const cells: RepairedCell[] = [];
  const prefixes: string[] = [];
  const left: string[] = [];
  for (const entry of pkg.sheets) {
    if (entry.part === undefined) continue;
    const xml = pkg.text(entry.part);
    // Every form names FDQ: a sheet without the word has nothing to repair, and is not scanned.
    if (!/fdq/i.test(xml)) continue;
    const repaired = repairSheet(entry.name, xml);
    if (!repaired) continue;
    editor.setText(entry.part, repaired.xml);
    cells.push(...repaired.cells);
    prefixes.push(...repaired.prefixes);
    left.push(...repaired.left);
  }
  const names = repairNames(
    pkg.text(pkg.workbookPart),
    pkg.sheets.map((s) => s.name),
  );
  editor.setText(pkg.workbookPart, names.xml);
  prefixes.push(...names.prefixes);
  left.push(...names.left);

  // The links the repaired prefixes named that nothing references any more, dropped from the last one back.
  const { links, count } = externalLinks(pkg, pkg.text(pkg.workbookPart));
  const named = new Set(prefixes.flatMap((p) => linksNamed(p, links)).map((l) => l.index));
  const unreferenced = links.filter(
    (l) => named.has(l.index) && !stillReferenced(editor, l.index, l.target && fileNameOf(l.target)),
  );
  const droppable = new Set<number>();
  for (let i = count; i >= 1 && unreferenced.some((l) => l.index === i); i--) droppable.add(i);
  const droppedLinks: ExternalLink[] = [];
  const keptLinks: (ExternalLink & { reason: string })[] = [];
  for (const link of unreferenced) {
    const { id: _id, ...outcome } = link;
    if (droppable.has(link.index)) {
      dropLink(editor, link);
      droppedLinks.push(outcome);
    } else {
      keptLinks.push({
        ...outcome,
        reason:
          "nothing references it any more, but removing it would renumber the external workbooks after it " +
          "in every formula; remove it in Excel with Data > Edit Links",
      });
    }
  }
  return { editor, cells, names: names.names, droppedLinks, keptLinks, left };
}
