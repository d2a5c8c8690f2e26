// The WorkbookModel of a package (model.ts): every worksheet's constants and formulas with their cached values,
// shared formulas translated to each follower's cell, array formulas (dynamic or legacy), what-if data tables,
// every defined name as stored, the tables with their calculated columns, the date system and the external
// workbooks. Nothing here changes the package: the patcher (patch.ts) writes the values back.
import { addressOfCell } from "../engine/references";
import { translateFormula } from "../engine/translate";
import {
  ExcelError,
  sheetKey,
  type DefinedName,
  isErrorCode,
  type FormulaCell,
  type Scalar,
  type Sheet,
  type Table,
  type WorkbookModel,
} from "../model";
import { dynamicArrayMarks } from "./metadata";
import type { SheetEntry, WorkbookPackage } from "./package";
import { cellsTheRefreshBuilds, type FormulaAt, type SheetReach, type SheetSize } from "./cell-reach";
import { sheetsTheRefreshReads } from "./sheet-reach";
import { attributeIn, cellParts, inlineText, layoutOf, scanSheet, type CellParts } from "./sheet-scan";
import { attributeOf, childNamed, childrenNamed, ownText, unescapeXstring } from "./xml";

export interface ReadWorkbook {
  readonly model: WorkbookModel;
  /** The shared string table, by index. */
  readonly sharedStrings: readonly string[];
}

/** Excel's serial day of an ISO date (t="d", written by some tools), in the workbook's date system. */
function serialOfIso(text: string, date1904: boolean): number | undefined {
  const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(ms)) return undefined;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  return (ms - epoch) / 86_400_000;
}

function sharedStringsOf(pkg: WorkbookPackage): string[] {
  const part = pkg.relationships(pkg.workbookPart).find((r) => r.type === "sharedStrings")?.part;
  if (part === undefined || !pkg.has(part)) return [];
  const xml = pkg.text(part);
  const prefix = /<([A-Za-z_][\w.-]*:)?sst[\s>]/.exec(xml)?.[1] ?? "";
  const strings: string[] = [];
  const open = `<${prefix}si`;
  const close = `</${prefix}si>`;
  for (let at = xml.indexOf(open); at >= 0; at = xml.indexOf(open, at)) {
    const tagEnd = xml.indexOf(">", at);
    if (xml[tagEnd - 1] === "/") {
      strings.push("");
      at = tagEnd;
      continue;
    }
    const end = xml.indexOf(close, tagEnd);
    if (end < 0) break;
    strings.push(inlineText(xml.slice(tagEnd + 1, end), prefix));
    at = end + close.length;
  }
  return strings;
}

interface SheetContext {
  readonly name: string;
  readonly strings: readonly string[];
  readonly dynamic: ReadonlySet<number>;
  readonly date1904: boolean;
}

/** A cell's cached value as its `t` and `<v>` (or inline string) give it; undefined when the file holds none. */
function cachedValueOf(parts: CellParts, context: SheetContext): Scalar | undefined {
  const type = attributeIn(parts.tag, "t") ?? "n";
  const v = parts.value;
  let cached: Scalar | undefined;
  if (type === "s") cached = v === undefined ? undefined : (context.strings[Number(v)] ?? "");
  else if (type === "str") cached = v === undefined ? undefined : unescapeXstring(v);
  else if (type === "inlineStr") cached = parts.inline ?? (v === undefined ? undefined : unescapeXstring(v));
  else if (type === "b") cached = v === undefined ? undefined : v.trim() === "1" || v.trim() === "true";
  else if (type === "e") {
    const code = (v ?? "").trim();
    cached = v === undefined ? undefined : new ExcelError(isErrorCode(code) ? code : "#UNKNOWN!");
  } else if (type === "d") cached = v === undefined ? undefined : serialOfIso(v.trim(), context.date1904);
  else cached = v === undefined || v.trim() === "" ? undefined : Number(v);
  if (typeof cached === "number" && Number.isNaN(cached)) cached = undefined;
  // A text the model keeps must not keep the sheet's whole text alive with it (ownText).
  return typeof cached === "string" && type !== "s" ? ownText(cached) : cached;
}

/** The cells a partial read builds (cell-reach.ts): whether the cell at row, col is built, and the sheet's extent. */
type Region = NonNullable<Sheet["partial"]>;

/**
 * A sheet's cells as the model holds them; with `region`, only the cells in it (a shared formula's master
 * outside it is still read for its followers inside).
 */
function readSheet(
  xml: string,
  context: SheetContext,
  index: number,
  formulas: FormulaCell[],
  region?: Region,
): Sheet {
  const rows = new Map<number, Map<number, Scalar | FormulaCell>>();
  const masters = new Map<string, { text: string; row: number; col: number }>();
  const layout = layoutOf(xml);
  const formulaOpen = `<${layout.prefix}f`;
  const hidden = new Set<number>();
  const rich = new Set<string>();
  scanSheet(
    xml,
    layout,
    (span) => {
      const flag = attributeIn(xml.slice(span.start, span.tagEnd), "hidden");
      if (flag === "1" || flag === "true") hidden.add(span.row);
    },
    (span) => {
      if (region && !region.has(span.row, span.col)) {
        const at = xml.indexOf(formulaOpen, span.tagEnd);
        if (at < 0 || at >= span.contentEnd) return;
        const tag = xml.slice(at, xml.indexOf(">", at));
        if (!tag.includes("shared") || !tag.includes("ref")) return;
        const parts = cellParts(xml, span, layout.prefix);
        if (parts.formulaTag === undefined || attributeIn(parts.formulaTag, "t") !== "shared") return;
        const si = attributeIn(parts.formulaTag, "si") ?? "";
        if (parts.formulaText.trim() !== "" && attributeIn(parts.formulaTag, "ref") !== undefined)
          masters.set(si, { text: parts.formulaText, row: span.row, col: span.col });
        return;
      }
      const parts = cellParts(xml, span, layout.prefix);
      const cached = cachedValueOf(parts, context);

      let row = rows.get(span.row);
      const richValue = attributeIn(parts.tag, "vm") !== undefined;
      if (parts.formulaTag === undefined) {
        if (richValue) rich.add(`${span.row}!${span.col}`);
        if (cached === undefined) return;
        if (!row) rows.set(span.row, (row = new Map()));
        row.set(span.col, cached);
        return;
      }
      const fType = attributeIn(parts.formulaTag, "t") ?? "normal";
      let formula = parts.formulaText;
      let array: FormulaCell["array"];
      let kind: FormulaCell["kind"];
      let tableRange: string | undefined;
      if (fType === "shared") {
        const si = attributeIn(parts.formulaTag, "si") ?? "";
        const master = masters.get(si);
        if (formula.trim() !== "" && attributeIn(parts.formulaTag, "ref") !== undefined) {
          masters.set(si, { text: formula, row: span.row, col: span.col });
        } else if (master) {
          formula = translateFormula(master.text, master.row, master.col, span.row, span.col);
        }
      } else if (fType === "array") {
        const cm = Number(attributeIn(parts.tag, "cm") ?? "0");
        const ref = attributeIn(parts.formulaTag, "ref") ?? "";
        array = {
          ref: ref === "" ? addressOfCell(span.row, span.col) : ref,
          dynamic: context.dynamic.has(cm),
        };
      } else if (fType === "dataTable") {
        kind = "dataTable";
        tableRange = attributeIn(parts.formulaTag, "ref");
      }
      const cell: FormulaCell = {
        sheet: context.name,
        row: span.row,
        col: span.col,
        formula: ownText(formula),
        cached,
        ...(array ? { array: { ref: ownText(array.ref), dynamic: array.dynamic } } : {}),
        ...(kind ? { kind } : {}),
        ...(tableRange ? { tableRange: ownText(tableRange) } : {}),
        ...(richValue ? { richValue: true as const } : {}),
      };
      if (!row) rows.set(span.row, (row = new Map()));
      row.set(span.col, cell);
      formulas.push(cell);
    },
  );
  return {
    name: context.name,
    index,
    rows,
    ...(hidden.size > 0 ? { hiddenRows: hidden } : {}),
    ...(rich.size > 0 ? { richValues: rich } : {}),
    ...(region ? { partial: region } : {}),
  };
}

/**
 * Visits a sheet's formula cells for the reaches (sheet-reach.ts, cell-reach.ts) without building them (a follower
 * of a shared formula gives its master's text and cell); answers the extent of the cells `readSheet` would build
 * and how many cells the sheet holds.
 */
function visitFormulas(xml: string, context: SheetContext, visit: (formula: FormulaAt) => void): SheetSize {
  const layout = layoutOf(xml);
  const masters = new Map<string, { text: string; row: number; col: number }>();
  const formulaOpen = `<${layout.prefix}f`;
  let rows = 0;
  let cols = 0;
  let cells = 0;
  scanSheet(
    xml,
    layout,
    () => undefined,
    (span) => {
      cells++;
      const at = xml.indexOf(formulaOpen, span.tagEnd);
      const parts = at < 0 || at >= span.contentEnd ? undefined : cellParts(xml, span, layout.prefix);
      if (parts?.formulaTag === undefined) {
        // A value only counts where it would be built (a cell without one is not).
        if (span.row <= rows && span.col <= cols) return;
        if (cachedValueOf(parts ?? cellParts(xml, span, layout.prefix), context) === undefined) return;
        rows = Math.max(rows, span.row);
        cols = Math.max(cols, span.col);
        return;
      }
      rows = Math.max(rows, span.row);
      cols = Math.max(cols, span.col);
      const fType = attributeIn(parts.formulaTag, "t") ?? "normal";
      let text = parts.formulaText;
      let origin = { row: span.row, col: span.col };
      if (fType === "shared") {
        const si = attributeIn(parts.formulaTag, "si") ?? "";
        const master = masters.get(si);
        if (text.trim() !== "" && attributeIn(parts.formulaTag, "ref") !== undefined)
          masters.set(si, { text, row: span.row, col: span.col });
        else if (master) {
          text = master.text;
          origin = master;
        }
      }
      const tableRange = fType === "dataTable" ? attributeIn(parts.formulaTag, "ref") : undefined;
      visit({
        row: span.row,
        col: span.col,
        text,
        originRow: origin.row,
        originCol: origin.col,
        cached: cachedValueOf(parts, context) !== undefined,
        array: fType === "array",
        dataTable: fType === "dataTable",
        ...(tableRange !== undefined ? { tableRange } : {}),
      });
    },
  );
  return { rows, cols, cells };
}

function tablesOf(pkg: WorkbookPackage, sheet: string, part: string): Table[] {
  return pkg
    .relationships(part)
    .filter((r) => r.type === "table" && r.part !== undefined && pkg.has(r.part))
    .map((r) => {
      const table = pkg.xml(r.part as string);
      const columns = childrenNamed(childNamed(table, "tableColumns"), "tableColumn").map((c) => {
        const calculated = childNamed(c, "calculatedColumnFormula");
        return calculated
          ? { name: attributeOf(c, "name") ?? "", calculatedFormula: calculated.text }
          : { name: attributeOf(c, "name") ?? "" };
      });
      return {
        name: attributeOf(table, "displayName") ?? attributeOf(table, "name") ?? "",
        sheet,
        ref: attributeOf(table, "ref") ?? "",
        headerRowCount: Number(attributeOf(table, "headerRowCount") ?? "1"),
        totalsRowCount: Number(attributeOf(table, "totalsRowCount") ?? "0"),
        columns,
      };
    });
}

const isTrue = (text: string | undefined): boolean => text === "1" || text === "true";

export interface ReadOptions {
  /**
   * Build the cells of only the sheets `fdq refresh` needs (sheet-reach.ts); every other sheet is listed with
   * `unread` and no cells.
   */
  readonly refreshReach?: boolean;
  /**
   * With `refreshReach`, build only the cells it needs within those sheets (cell-reach.ts): a sheet built in part
   * holds its `partial` region.
   */
  readonly cellReach?: boolean;
}

/**
 * What `fdq refresh` builds of each worksheet (by sheetKey): the cells it needs (cell-reach.ts), or, where a formula
 * may reach any cell, the sheets it needs (sheet-reach.ts). The sheets' reach is decided first (it reads the
 * formulas' text only, cheaply): the cells of the sheets it leaves unread are not visited again.
 */
function refreshReach(
  worksheets: readonly SheetEntry[],
  names: readonly DefinedName[],
  tables: readonly Table[],
  withSheet: <T>(entry: SheetEntry, use: (xml: string) => T, keep?: boolean) => T,
  contextOf: (name: string) => SheetContext,
  byCell: boolean,
): Map<string, SheetReach> {
  const byName = new Map(worksheets.map((entry) => [entry.name, entry]));
  const sheetNames = worksheets.map((entry) => entry.name);
  const visit = (name: string, seen: (formula: FormulaAt) => void, keep = false): SheetSize => {
    const entry = byName.get(name) as SheetEntry;
    return withSheet(entry, (xml) => visitFormulas(xml, contextOf(entry.name), seen), keep);
  };
  // A workbook of one worksheet reads it: there is no other sheet to leave unread.
  const sheetsRead =
    worksheets.length > 1
      ? sheetsTheRefreshReads(sheetNames, names, tables, (name, seen) => void visit(name, seen))
      : new Set(sheetNames.map(sheetKey));
  const cells = byCell
    ? cellsTheRefreshBuilds(sheetNames, names, tables, (name, seen) =>
        sheetsRead.has(sheetKey(name)) ? visit(name, seen, true) : { rows: 0, cols: 0, cells: 0 },
      )
    : undefined;
  if (cells) return cells;
  return new Map(
    sheetNames.map((name) => [sheetKey(name), sheetsRead.has(sheetKey(name)) ? "whole" : "unread"]),
  );
}

/** Reads the model of an opened package. */
export function readWorkbook(pkg: WorkbookPackage, options: ReadOptions = {}): ReadWorkbook {
  const workbookPr = childNamed(pkg.workbook, "workbookPr");
  const date1904 = isTrue(workbookPr ? attributeOf(workbookPr, "date1904") : undefined);
  const strings = sharedStringsOf(pkg);
  const dynamic = dynamicArrayMarks(pkg);
  const names: DefinedName[] = childrenNamed(childNamed(pkg.workbook, "definedNames"), "definedName").map(
    (n) => {
      const local = attributeOf(n, "localSheetId");
      const scope = local === undefined ? undefined : pkg.sheets[Number(local)]?.name;
      const name: DefinedName = {
        name: attributeOf(n, "name") ?? "",
        text: n.text,
        hidden: isTrue(attributeOf(n, "hidden")),
        ...(scope !== undefined ? { scope } : {}),
      };
      return name;
    },
  );
  const worksheets = pkg.sheets.filter((entry) => entry.part !== undefined);
  const tables = worksheets.flatMap((entry) => tablesOf(pkg, entry.name, entry.part as string));
  const contextOf = (name: string): SheetContext => ({ name, strings, dynamic, date1904 });
  /** The sheet's text given to `use`; a sheet fdq cannot read is named in the error. */
  // The text of the last sheet the cell reach visited, kept for the first sheet built when it is that one (a
  // workbook of one sheet, or the FDQ sheet after sheets left unread): not inflated and decoded a second time.
  let kept: { entry: SheetEntry; xml: string } | undefined;
  const withSheet = <T>(entry: SheetEntry, use: (xml: string) => T, keep = false): T => {
    try {
      const xml = kept?.entry === entry ? kept.xml : pkg.text(entry.part as string);
      kept = keep ? { entry, xml } : undefined;
      return use(xml);
    } catch (err) {
      throw new Error(`sheet "${entry.name}" (${entry.part}) cannot be read: ${(err as Error).message}`, {
        cause: err,
      });
    }
  };
  const reach = options.refreshReach
    ? refreshReach(worksheets, names, tables, withSheet, contextOf, options.cellReach === true)
    : undefined;
  const sheets: Sheet[] = [];
  const formulas: FormulaCell[] = [];
  for (const entry of worksheets) {
    const cells = reach?.get(sheetKey(entry.name)) ?? "whole";
    if (cells === "unread") {
      sheets.push({ name: entry.name, index: entry.index, rows: new Map(), unread: true });
      continue;
    }
    const region = cells === "whole" ? undefined : cells;
    sheets.push(
      withSheet(entry, (xml) => readSheet(xml, contextOf(entry.name), entry.index, formulas, region)),
    );
  }
  kept = undefined;
  const externalBooks = childrenNamed(
    childNamed(pkg.workbook, "externalReferences"),
    "externalReference",
  ).length;
  return { model: { sheets, formulas, names, tables, date1904, externalBooks }, sharedStrings: strings };
}
