// Shared formulas: an .xlsx stores the formula once, on its first cell (`<f t="shared" ref=... si=...>`), and
// every other cell of the group uses it moved to its own position, the way Excel moves a formula copied from
// one cell to another: relative rows and columns shift, `$`-fixed ones stay, names and structured references
// stay, and a reference moved off the grid becomes #REF!.
import { columnLetters, columnNumber, MAX_COL, MAX_ROW } from "./references";
import { tokenize } from "../../formula/lexer";

const PART = /(\$?)([A-Za-z]{1,3})?(\$?)(\d+)?/y;

/** Wrapping around the grid, as Excel moves a defined name's relative references. */
let wrapping = false;
const wrap = (n: number, max: number): number => ((((n - 1) % max) + max) % max) + 1;

function shiftColumn(fixed: boolean, letters: string, by: number): string | undefined {
  if (fixed) return `$${letters.toUpperCase()}`;
  let col = columnNumber(letters) + by;
  if (wrapping) col = wrap(col, MAX_COL);
  return col >= 1 && col <= MAX_COL ? columnLetters(col) : undefined;
}

function shiftRow(fixed: boolean, digits: string, by: number): string | undefined {
  if (fixed) return `$${digits}`;
  let row = Number(digits) + by;
  if (wrapping) row = wrap(row, MAX_ROW);
  return row >= 1 && row <= MAX_ROW ? String(row) : undefined;
}

/** One end of a reference ("$A1", "B", "$3") moved by (dr, dc); undefined when it leaves the grid. */
function shiftEnd(end: string, dr: number, dc: number): string | undefined {
  PART.lastIndex = 0;
  const m = PART.exec(end);
  if (!m || m[0].length !== end.length) return end;
  const [, colFixed, letters, rowFixed, digits] = m;
  let out = "";
  if (letters !== undefined) {
    const col = shiftColumn(colFixed === "$", letters, dc);
    if (col === undefined) return undefined;
    out += col;
  } else if (colFixed === "$" && digits !== undefined) {
    // "$3" of a row area: the $ belongs to the row.
    const row = shiftRow(true, digits, dr);
    return row;
  }
  if (digits !== undefined) {
    const row = shiftRow((letters !== undefined ? rowFixed : colFixed) === "$", digits, dr);
    if (row === undefined) return undefined;
    out += row;
  }
  return out;
}

/**
 * `text` (a formula without "=", written for the cell at fromRow/fromCol) as it reads at toRow/toCol.
 * Text outside references (strings, spacing, names, functions) is kept as it is.
 */
export function translateFormula(
  text: string,
  fromRow: number,
  fromCol: number,
  toRow: number,
  toCol: number,
  /** Wrap around the grid instead of giving #REF! (how Excel reads a defined name's relative references). */
  wrapAround = false,
): string {
  const dr = toRow - fromRow;
  const dc = toCol - fromCol;
  if (dr === 0 && dc === 0) return text;
  wrapping = wrapAround;
  let out = "";
  let last = 0;
  for (const token of tokenize(text)) {
    if (token.kind !== "ref") continue;
    const bang = token.text.lastIndexOf("!");
    const prefix = token.text.slice(0, bang + 1);
    const ends = token.text.slice(bang + 1).split(":");
    const moved = ends.map((end) => shiftEnd(end, dr, dc));
    out += text.slice(last, token.start);
    out += moved.some((m) => m === undefined) ? `${prefix}#REF!` : `${prefix}${moved.join(":")}`;
    last = token.end;
  }
  return out + text.slice(last);
}
