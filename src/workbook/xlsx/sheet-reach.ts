// Which worksheets `fdq refresh` must read cell by cell. The refresh gives new values to the formulas that call
// FDQ, that the file holds no result of, or that read such a cell (transitively); every other formula keeps its
// cached result (src/workbook/refresh/recalculation.ts). A sheet none of whose formulas can be one of those, and
// that none of those formulas reads, holds nothing the refresh needs: its cells are never built as objects (a
// workbook of twenty sheets of data beside one sheet of FDQ calls then costs the memory of that one sheet).
//
// Decided per sheet from the formulas' text alone, before any cell is built, and on the safe side: a formula
// reads the sheets of what formula-reach.ts finds in its text, and its own sheet; a formula whose reach cannot be
// told from its text (INDIRECT, OFFSET, a 3-D reference, an unknown sheet, name or table, a text that cannot be
// read) reads every sheet, and counts as calling FDQ if it may use a defined name that mentions FDQ.
//   - changed: the sheets holding a formula that calls FDQ (in its text or through a defined name), a formula
//     without a cached result, or a what-if data table (Excel recomputes those from what the refresh changes);
//     then every sheet with a formula reading a changed sheet, until none is added.
//   - read: the changed sheets, and every sheet a read sheet's formulas read, until none is added.
import { engineFormula } from "../formula-text";
import { sheetKey, type DefinedName, type Table } from "../model";
import { ReachesAny, ReachOfText } from "./formula-reach";

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

interface SheetsOfText {
  readonly reads: Reads;
  readonly callsFdq: boolean;
}

const REACHES_ANY = /INDIRECT|OFFSET/i;

function merge(into: Set<string>, reads: Reads): Reads {
  if (reads === "every") return "every";
  for (const key of reads) into.add(key);
  return into;
}

/** The sheets a formula's text reads, from what formula-reach.ts finds in it. */
class SheetsRead {
  private readonly reach: ReachOfText;
  private readonly keys: readonly string[];
  /** Matches a text that may use a defined name or table (absent: the workbook has none). */
  private readonly mayUseName: RegExp | undefined;
  /** A defined name's text mentions FDQ: a formula using names whose reach cannot be told may call it. */
  private readonly namesMayCallFdq: boolean;

  constructor(sheetNames: readonly string[], names: readonly DefinedName[], tables: readonly Table[]) {
    this.reach = new ReachOfText(sheetNames, names, tables);
    this.keys = sheetNames.map(sheetKey);
    const words = [...names.map((n) => n.name), ...tables.map((t) => t.name)];
    this.mayUseName =
      words.length === 0
        ? undefined
        : new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "i");
    this.namesMayCallFdq = names.some((n) => /fdq/i.test(n.text));
  }

  of(text: string): SheetsOfText {
    const textCallsFdq = /fdq/i.test(text) && engineFormula(text).callsFdq;
    const mayUseName = this.mayUseName?.test(text) ?? false;
    // Most formulas name no other sheet, name and table: they read their own sheet only, told without tokens.
    if (!text.includes("!") && !text.includes("[") && !REACHES_ANY.test(text) && !mayUseName)
      return { reads: new Set(), callsFdq: textCallsFdq };
    try {
      const found = this.reach.of(text);
      const reads = new Set<string>();
      for (const ref of found.refs) if (ref.sheet >= 0) reads.add(this.keys[ref.sheet] as string);
      for (const sheet of found.wholeSheets) if (sheet >= 0) reads.add(this.keys[sheet] as string);
      return { reads, callsFdq: found.callsFdq };
    } catch (err) {
      if (!(err instanceof ReachesAny)) throw err;
      return { reads: "every", callsFdq: textCallsFdq || (mayUseName && this.namesMayCallFdq) };
    }
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
  const reach = new SheetsRead(sheetNames, names, tables);
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
