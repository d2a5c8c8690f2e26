// What a formula's text reads, for the refresh's reach (sheet-reach.ts decides by sheet, cell-reach.ts by cell):
// the rectangles of its references (with which corners move as a shared formula's follower moves them), the
// sheets it reads whole, the defined names it uses (followed through names; a name's relative reference reads
// that reference's sheet whole), the tables it names (the whole table) and its own table ([@Col]), and whether it
// calls FDQ (in its text or through a name). A text whose reach cannot be told from it (INDIRECT, OFFSET, a 3-D
// reference, a range whose ends are computed, an unknown sheet, name or table, a text that cannot be split into
// tokens) throws ReachesAny: the caller takes the safe side.
import { tokenize, type Token } from "../../formula/lexer";
import { FUNCTION_SPECS, isFunctionName } from "../../functions/signatures";
import { columnNumber, MAX_COL, MAX_ROW, rectOf } from "../engine/references";
import { engineFormula } from "../formula-text";
import { sheetKey, type DefinedName, type Table } from "../model";

/**
 * A reference of a formula's text on a sheet (-1: the formula's own): the corners of its areas, 3 integers each
 * (row, column, and bits: 1 the row, 2 the column moves with the formula, as a shared formula's follower moves
 * it). It covers the rectangle spanning its corners.
 */
export interface RefTemplate {
  readonly sheet: number;
  readonly corners: readonly number[];
}

export interface TextReach {
  readonly refs: readonly RefTemplate[];
  /** Sheets read whole (a name's relative reference, a spill reference). */
  readonly wholeSheets: readonly number[];
  readonly callsFdq: boolean;
  /** Its sheet must be built whole (an FDQ result that may spill, a spill reference into its own sheet). */
  readonly wholeOwnSheet: boolean;
  /** [@Col]: reads the table holding the formula. */
  readonly ownTable: boolean;
}

/** A formula whose reach cannot be told: the caller falls back to the sheets' reach. */
export class ReachesAny extends Error {}

const ANY_FUNCTION = new Set(["INDIRECT", "OFFSET"]);
const END = /^(\$?)([A-Za-z]{1,3})?(\$?)(\d+)?$/;

/** One end of an area ("$A1", "B", "$3"): its row and column (undefined when the end has none) and which move. */
function endOf(text: string): { row?: number; col?: number; moves: number } {
  const m = END.exec(text);
  if (!m) throw new ReachesAny();
  const [, colFixed, letters, rowFixed, digits] = m;
  if (letters !== undefined) {
    const col = columnNumber(letters);
    const colMoves = colFixed !== "$" ? 2 : 0;
    if (digits === undefined) return { col, moves: colMoves };
    return { row: Number(digits), col, moves: colMoves | (rowFixed !== "$" ? 1 : 0) };
  }
  if (digits !== undefined)
    return { row: Number(digits), moves: colFixed !== "$" && rowFixed !== "$" ? 1 : 0 };
  throw new ReachesAny();
}

/** An area token's text without its sheet ("A1", "$A:$C", "1:3") as the corners of a template. */
function cornersOf(area: string): number[] {
  const [first = "", second] = area.split(":");
  const a = endOf(first);
  const b = second === undefined ? a : endOf(second);
  // A whole column spans every row, a whole row every column; those never move.
  const corner = (end: typeof a, edgeRow: number, edgeCol: number): number[] => [
    end.row ?? edgeRow,
    end.col ?? edgeCol,
    end.moves,
  ];
  return [...corner(a, 1, 1), ...corner(b, MAX_ROW, MAX_COL)];
}

/** The rectangle of a template's corners moved by (dr, dc), kept on the grid. */
export function rectOfCorners(
  corners: readonly number[],
  dr: number,
  dc: number,
): { top: number; left: number; bottom: number; right: number } {
  let top = MAX_ROW;
  let left = MAX_COL;
  let bottom = 1;
  let right = 1;
  for (let j = 0; j < corners.length; j += 3) {
    const moves = corners[j + 2] as number;
    const row = Math.min(MAX_ROW, Math.max(1, (corners[j] as number) + (moves & 1 ? dr : 0)));
    const col = Math.min(MAX_COL, Math.max(1, (corners[j + 1] as number) + (moves & 2 ? dc : 0)));
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
    left = Math.min(left, col);
    right = Math.max(right, col);
  }
  return { top, left, bottom, right };
}

const moves = (corners: readonly number[]): boolean => corners.some((v, j) => j % 3 === 2 && v !== 0);

const areaText = (token: Token): string => token.text.slice(token.text.lastIndexOf("!") + 1);

export class ReachOfText {
  private readonly sheets = new Map<string, number>();
  private readonly names = new Map<string, DefinedName[]>();
  private readonly tables = new Map<
    string,
    { sheet: number; rect: RefTemplate; top: number; left: number; bottom: number; right: number }
  >();
  private readonly nameReach = new Map<string, TextReach | "in progress">();

  constructor(
    sheetNames: readonly string[],
    names: readonly DefinedName[],
    readonly tableList: readonly Table[],
  ) {
    sheetNames.forEach((name, i) => this.sheets.set(sheetKey(name), i));
    for (const name of names) {
      const key = name.name.toLowerCase();
      const list = this.names.get(key);
      if (list) list.push(name);
      else this.names.set(key, [name]);
    }
    for (const table of tableList) {
      const sheet = this.sheets.get(sheetKey(table.sheet));
      const rect = rectOf(table.sheet, table.ref);
      if (sheet === undefined || !rect) continue;
      const corners = [rect.top, rect.left, 0, rect.bottom, rect.right, 0];
      this.tables.set(table.name.toLowerCase(), { ...rect, sheet, rect: { sheet, corners } });
    }
  }

  /** The rectangle of the table holding the cell, if any. */
  tableAt(
    sheet: number,
    row: number,
    col: number,
  ): { top: number; left: number; bottom: number; right: number } | undefined {
    for (const t of this.tables.values()) {
      if (t.sheet === sheet && row >= t.top && row <= t.bottom && col >= t.left && col <= t.right) return t;
    }
    return undefined;
  }

  private sheetOf(name: string): number {
    if (name.includes(":")) throw new ReachesAny(); // Jan:Mar!A1, a 3-D reference
    const sheet = this.sheets.get(sheetKey(name));
    if (sheet === undefined) throw new ReachesAny();
    return sheet;
  }

  /** A formula's text (`inName`: a defined name's, whose relative references read their sheet whole). */
  of(stored: string, inName = false): TextReach {
    const { text, callsFdq } = engineFormula(stored);
    let tokens: Token[];
    try {
      tokens = tokenize(text).filter((t) => t.kind !== "space");
    } catch {
      throw new ReachesAny();
    }
    const refs: RefTemplate[] = [];
    const wholeSheets: number[] = [];
    let fdq = callsFdq;
    let wholeOwnSheet = false;
    let ownTable = false;
    let mayBeArray = false;
    let spillingFdq = false;
    const take = (reach: TextReach): void => {
      refs.push(...reach.refs);
      wholeSheets.push(...reach.wholeSheets);
      fdq ||= reach.callsFdq;
    };
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      const next = tokens[i + 1];
      if (t.kind === "function") {
        const fn = t.text.replace(/^_xlfn\./i, "").toUpperCase();
        if (ANY_FUNCTION.has(fn)) throw new ReachesAny();
        if (fn.startsWith("FDQ.")) {
          const name = fn.slice(4);
          if (!isFunctionName(name) || FUNCTION_SPECS[name].result !== "scalar") spillingFdq = true;
        } else mayBeArray = true;
      } else if (t.kind === "op" && t.text === ":") {
        // A range between two references is read below; any other (INDEX(...):B9) may cover any cell.
        const before = tokens[i - 1];
        if (before?.kind !== "ref" || next?.kind !== "ref") throw new ReachesAny();
        mayBeArray = true;
      } else if (t.kind === "ref") {
        const sheet = t.sheet === undefined ? -1 : this.sheetOf(t.sheet);
        const corners = cornersOf(areaText(t));
        // A1:B9:C3 spans every area of the chain.
        while (tokens[i + 1]?.kind === "op" && tokens[i + 1]?.text === ":" && tokens[i + 2]?.kind === "ref") {
          const end = tokens[i + 2] as Token;
          if (end.sheet !== undefined && this.sheetOf(end.sheet) !== sheet) throw new ReachesAny();
          corners.push(...cornersOf(areaText(end)));
          i += 2;
        }
        const box = rectOfCorners(corners, 0, 0);
        if (box.bottom > box.top || box.right > box.left) mayBeArray = true;
        if (tokens[i + 1]?.kind === "op" && tokens[i + 1]?.text === "#") {
          // A1#: the array anchored there, as large as its spill: that sheet is read whole.
          if (sheet === -1) wholeOwnSheet = true;
          else wholeSheets.push(sheet);
          mayBeArray = true;
        }
        if (inName && sheet === -1) throw new ReachesAny();
        if (inName && moves(corners)) wholeSheets.push(sheet);
        else refs.push({ sheet, corners });
      } else if (t.kind === "name") {
        mayBeArray = true;
        if (t.sheet !== undefined) this.sheetOf(t.sheet);
        const bare = t.text.slice(t.text.lastIndexOf("!") + 1);
        const name = this.ofName(bare);
        if (name) take(name);
        else if (t.sheet === undefined) {
          const table = this.tables.get(bare.toLowerCase());
          if (table) refs.push(table.rect);
          // Otherwise a LET or LAMBDA variable, or a name the workbook does not define (#NAME?): nothing read.
        } else throw new ReachesAny();
      } else if (t.kind === "structured") {
        mayBeArray = true;
        const tableName = t.text.slice(0, t.text.indexOf("[")).toLowerCase();
        if (tableName === "") {
          if (inName) throw new ReachesAny();
          ownTable = true;
          continue;
        }
        const table = this.tables.get(tableName);
        if (!table) throw new ReachesAny();
        refs.push(table.rect);
      } else if (t.kind === "{") mayBeArray = true;
    }
    return {
      refs,
      wholeSheets,
      callsFdq: fdq,
      wholeOwnSheet: wholeOwnSheet || (callsFdq && (spillingFdq || mayBeArray)),
      ownTable,
    };
  }

  /** Every definition of a name (any scope: the safe side), followed through the names it uses. */
  private ofName(name: string): TextReach | undefined {
    const key = name.toLowerCase();
    const definitions = this.names.get(key);
    if (!definitions) return undefined;
    const known = this.nameReach.get(key);
    if (known === "in progress") throw new ReachesAny();
    if (known) return known;
    this.nameReach.set(key, "in progress");
    const refs: RefTemplate[] = [];
    const wholeSheets: number[] = [];
    let callsFdq = false;
    for (const definition of definitions) {
      const reach = this.of(definition.text, true);
      refs.push(...reach.refs);
      wholeSheets.push(...reach.wholeSheets);
      callsFdq ||= reach.callsFdq;
    }
    const reach: TextReach = { refs, wholeSheets, callsFdq, wholeOwnSheet: false, ownTable: false };
    this.nameReach.set(key, reach);
    return reach;
  }
}
