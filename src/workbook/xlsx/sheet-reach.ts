// Which worksheets `fdq refresh` must read cell by cell. The refresh gives new values to the formulas that call
// FDQ, that the file holds no result of, or that read such a cell (transitively); every other formula keeps its
// cached result (src/workbook/refresh/recalculation.ts). A sheet none of whose formulas can be one of those, and
// that none of those formulas reads, holds nothing the refresh needs: its cells are never built as objects (a
// workbook of twenty sheets of data beside one sheet of FDQ calls then costs the memory of that one sheet).
//
// Decided per sheet from the formulas' text alone, before any cell is built, and on the safe side: a formula
// reads the sheets its references name, the sheets of the defined names and tables it uses (names followed
// through names), and its own sheet; a formula that may reach any cell (INDIRECT, OFFSET, a reference across
// sheets such as Jan:Mar!A1, a sheet or table the workbook does not have, a name whose references cannot be
// named, a formula that cannot be read) reads every sheet.
//   - changed: the sheets holding a formula that calls FDQ (in its text or through a defined name), a formula
//     without a cached result, or a what-if data table (Excel recomputes those from what the refresh changes);
//     then every sheet with a formula reading a changed sheet, until none is added.
//   - read: the changed sheets, and every sheet a read sheet's formulas read, until none is added.
import { tokenize, type Token } from "../../formula/lexer";
import { engineFormula } from "../formula-text";
import { sheetKey, type DefinedName, type Table } from "../model";

/** What the reach needs of one formula cell. */
export interface FormulaSeen {
  /**
   * The formula's text as stored (a shared formula's follower may give its master's text: translating it to the
   * follower's cell moves its references, never the sheets, names and functions they name).
   */
  readonly text: string;
  /** The file holds a result of it. */
  readonly cached: boolean;
  /** `<f t="dataTable">`. */
  readonly dataTable: boolean;
}

/** The sheets a formula reads beside its own: named ones (keys), or every sheet. */
type Reads = Set<string> | "every";

interface TextReach {
  readonly reads: Reads;
  readonly callsFdq: boolean;
}

const REACHES_ANY = /INDIRECT|OFFSET/i;
const ANY_FUNCTION = new Set(["INDIRECT", "OFFSET"]);

function merge(into: Set<string>, reads: Reads): Reads {
  if (reads === "every") return "every";
  for (const key of reads) into.add(key);
  return into;
}

class ReachOfText {
  private readonly sheets: ReadonlySet<string>;
  private readonly names = new Map<string, DefinedName[]>();
  private readonly tables = new Map<string, string>();
  private readonly nameReach = new Map<string, TextReach | "in progress">();
  /** Matches a text that may use a defined name or table (absent: the workbook has none). */
  private readonly mayUseName: RegExp | undefined;

  constructor(sheetNames: readonly string[], names: readonly DefinedName[], tables: readonly Table[]) {
    this.sheets = new Set(sheetNames.map(sheetKey));
    for (const name of names) {
      const key = name.name.toLowerCase();
      const list = this.names.get(key);
      if (list) list.push(name);
      else this.names.set(key, [name]);
    }
    for (const table of tables) this.tables.set(table.name.toLowerCase(), sheetKey(table.sheet));
    const words = [...this.names.keys(), ...this.tables.keys()];
    this.mayUseName =
      words.length === 0
        ? undefined
        : new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "i");
  }

  /** A formula's text on its sheet (`inName`: a defined name's text, whose unqualified cells are relative). */
  of(text: string, inName = false): TextReach {
    const callsFdq = /fdq/i.test(text) && engineFormula(text).callsFdq;
    const plain =
      !text.includes("!") &&
      !text.includes("[") &&
      !REACHES_ANY.test(text) &&
      !(this.mayUseName?.test(text) ?? false);
    if (plain && !inName) return { reads: new Set(), callsFdq };
    let tokens: Token[];
    try {
      tokens = tokenize(text).filter((t) => t.kind !== "space");
    } catch {
      return { reads: "every", callsFdq };
    }
    const reads = new Set<string>();
    let every = false;
    let fdq = callsFdq;
    const take = (reach: TextReach): void => {
      every ||= merge(reads, reach.reads) === "every";
      fdq ||= reach.callsFdq;
    };
    for (let i = 0; i < tokens.length && !every; i++) {
      const t = tokens[i] as Token;
      const previous = tokens[i - 1];
      if (t.kind === "function") {
        every = ANY_FUNCTION.has(t.text.replace(/^_xlfn\./i, "").toUpperCase());
      } else if (t.kind === "ref" || (t.kind === "name" && t.sheet !== undefined)) {
        if (t.sheet === undefined) {
          // A cell without a sheet in a name's text is read on whichever sheet uses the name.
          every = inName;
          continue;
        }
        const key = sheetKey(t.sheet);
        // Jan:Mar!A1 (a 3-D reference) reads the sheets between two others.
        const across = t.sheet.includes(":") || (previous?.kind === "op" && previous.text === ":");
        if (across || !this.sheets.has(key)) every = true;
        else reads.add(key);
        if (t.kind === "name") {
          const name = this.ofName(t.text.slice(t.text.lastIndexOf("!") + 1));
          if (name) take(name);
        }
      } else if (t.kind === "name") {
        const name = this.ofName(t.text);
        if (name) take(name);
        else {
          const table = this.tables.get(t.text.toLowerCase());
          if (table !== undefined) reads.add(table);
          // Otherwise a LET or LAMBDA variable, or a name the workbook does not define (#NAME?): nothing read.
        }
      } else if (t.kind === "structured") {
        const tableName = t.text.slice(0, t.text.indexOf("[")).toLowerCase();
        if (tableName === "") continue; // [@Col]: the formula's own table
        const table = this.tables.get(tableName);
        if (table === undefined) every = true;
        else reads.add(table);
      }
    }
    return { reads: every ? "every" : reads, callsFdq: fdq };
  }

  /** Every definition of a name (any scope: the safe side), followed through the names it uses. */
  private ofName(name: string): TextReach | undefined {
    const key = name.toLowerCase();
    const definitions = this.names.get(key);
    if (!definitions) return undefined;
    const known = this.nameReach.get(key);
    if (known === "in progress") return { reads: "every", callsFdq: false };
    if (known) return known;
    this.nameReach.set(key, "in progress");
    let reads: Reads = new Set<string>();
    let callsFdq = false;
    for (const definition of definitions) {
      const reach = this.of(definition.text, true);
      reads = reads === "every" ? reads : merge(reads, reach.reads);
      callsFdq ||= reach.callsFdq;
      if (definition.scope !== undefined && reads !== "every") {
        const scope = sheetKey(definition.scope);
        if (this.sheets.has(scope)) reads.add(scope);
      }
    }
    const reach = { reads, callsFdq };
    this.nameReach.set(key, reach);
    return reach;
  }
}

/**
 * The keys (sheetKey) of the worksheets the refresh must read. `sheetNames`: the worksheets, in workbook order;
 * `formulasOf` visits one sheet's formula cells (called once per sheet).
 */
export function sheetsTheRefreshReads(
  sheetNames: readonly string[],
  names: readonly DefinedName[],
  tables: readonly Table[],
  formulasOf: (sheet: string, visit: (formula: FormulaSeen) => void) => void,
): Set<string> {
  const reach = new ReachOfText(sheetNames, names, tables);
  const reads = new Map<string, Reads>();
  const changed = new Set<string>();
  for (const name of sheetNames) {
    const key = sheetKey(name);
    let sheetReads: Reads = new Set<string>();
    let seed = false;
    formulasOf(name, (formula) => {
      if (sheetReads === "every" && seed) return;
      const text = reach.of(formula.text);
      sheetReads = sheetReads === "every" ? sheetReads : merge(sheetReads, text.reads);
      seed ||= text.callsFdq || !formula.cached || formula.dataTable;
    });
    reads.set(key, sheetReads);
    if (seed) changed.add(key);
  }
  const readsAny = (from: Reads, keys: ReadonlySet<string>): boolean =>
    from === "every" ? keys.size > 0 : [...from].some((k) => keys.has(k));
  for (let grown = true; grown;) {
    grown = false;
    for (const [key, from] of reads) {
      if (!changed.has(key) && readsAny(from, changed)) {
        changed.add(key);
        grown = true;
      }
    }
  }
  const read = new Set(changed);
  const pending = [...changed];
  while (pending.length > 0) {
    const from = reads.get(pending.pop() as string);
    if (from === "every") return new Set(reads.keys());
    for (const key of from ?? []) {
      if (read.has(key)) continue;
      read.add(key);
      pending.push(key);
    }
  }
  return read;
}
