// The one lexer of Excel formulas, as an .xlsx stores them and as a cell shows them (A1 style, "," between
// arguments, "." decimals, `_xlfn.` prefixes kept). Each token keeps its span of the source, so a formula can be
// rewritten token by token (src/workbook/engine/translate.ts) without touching its spacing, and a reader can say
// where a problem is. A formula that cannot be read throws FormulaSyntaxError (message and position).
import { ERROR_CODES } from "./excel-values";
import { FormulaSyntaxError } from "./syntax-error";

export type TokenKind =
  | "number"
  | "string"
  | "bool"
  | "error"
  /** A cell ("$A$1"), a column area ("A:C") or a row area ("1:3"), with its sheet prefix if any. */
  | "ref"
  /** A reference into another workbook ("[1]Sheet1!A1"): never read. */
  | "external"
  /** A name followed by "(": a function. */
  | "function"
  /** A defined name, LET variable or table name without brackets. */
  | "name"
  /** "Table[...]" or "[@Col]" (the bracketed part kept whole). */
  | "structured"
  | "op"
  | "("
  | ")"
  | "{"
  | "}"
  | ","
  | ";"
  | "space";

export interface Token {
  readonly kind: TokenKind;
  /** The source text of the token. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** ref / structured / name: the sheet prefix without quotes and "!" ("My Sheet"); undefined when absent. */
  readonly sheet?: string;
}

const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
/** A sheet prefix: Sheet1! or 'My Sheet'! (quotes doubled inside). */
const SHEET = /(?:'((?:[^']|'')+)'|([A-Za-z_\u00C0-\uFFFF][\w.\u00C0-\uFFFF]*))!/y;
/** A cell (A1), a column area (A:C) or a row area (1:3), with $ where fixed; Jan:Mar! starts a 3-D reference. */
const AREA =
  /\$?[A-Za-z]{1,3}\$?\d+(?![\w.(\u00C0-\uFFFF[])|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![\w.(\u00C0-\uFFFF!])|\$?\d+:\$?\d+(?![\w.(])/y;
const NAME = /[A-Za-z_\\\u00C0-\uFFFF][\w.\\?\u00C0-\uFFFF]*/y;
const OPERATORS = ["<>", "<=", ">=", "+", "-", "*", "/", "^", "&", "=", "<", ">", "%", ":", "@", "#"];

/**
 * The index after a "text" or 'sheet name' that starts at `at` (its quote doubled inside, as Excel writes it), or
 * -1 when it is not closed.
 */
function closeOfQuoted(text: string, at: number): number {
  const quote = text.charAt(at);
  for (let from = at + 1; ;) {
    const close = text.indexOf(quote, from);
    if (close < 0) return -1;
    if (text.charAt(close + 1) !== quote) return close + 1;
    from = close + 2;
  }
}

/** The index after a "text" or 'sheet name' that starts at `at`; the end of the text if it is not closed. */
export function afterQuoted(text: string, at: number): number {
  const end = closeOfQuoted(text, at);
  return end < 0 ? text.length : end;
}

function at(pattern: RegExp, text: string, i: number): RegExpExecArray | null {
  pattern.lastIndex = i;
  return pattern.exec(text);
}

/** Index after the bracketed part starting at `i` ("[" ... matching "]"), with Excel's ' escapes. */
function afterBrackets(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const ch = text.charAt(j);
    if (ch === "'") {
      j++;
      continue;
    }
    if (ch === "[") depth++;
    else if (ch === "]" && --depth === 0) return j + 1;
  }
  throw new FormulaSyntaxError("A structured reference's [ is not closed", i);
}

/** After a `[n]` external book index, the rest of the reference: Sheet!A1, Sheet!Name or !Name. */
const EXTERNAL_TAIL = /(?:'(?:[^']|'')+'|[^!'"(),;\s]*)!\$?[A-Za-z_][\w.]*\$?\d*(?::\$?[A-Za-z]+\$?\d*)?/y;

/** The characters that are each a token of their own kind. */
const PUNCTUATION = "(){},;";

/** The first of `candidates` written at `i` in `text`, if any (a loop: the lexer runs once per formula). */
function startingAt(
  candidates: readonly string[],
  text: string,
  i: number,
  upper = false,
): string | undefined {
  for (const c of candidates) {
    const written = text.slice(i, i + c.length);
    if ((upper ? written.toUpperCase() : written) === c) return c;
  }
  return undefined;
}

class Tokens {
  readonly list: Token[] = [];
  constructor(private readonly text: string) {}

  push(kind: TokenKind, start: number, end: number, sheet?: string): void {
    const text = this.text.slice(start, end);
    this.list.push(sheet === undefined ? { kind, text, start, end } : { kind, text, start, end, sheet });
  }
}

export function tokenize(source: string): Token[] {
  const text = source;
  const tokens = new Tokens(text);
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    const code = text.charCodeAt(i);
    if (PUNCTUATION.includes(ch)) {
      tokens.push(ch as TokenKind, i, i + 1);
      i++;
      continue;
    }
    if (code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(ch))) {
      let j = i + 1;
      while (j < text.length && /\s/.test(text.charAt(j))) j++;
      tokens.push("space", i, j);
      i = j;
      continue;
    }
    if (ch === '"') {
      const end = closeOfQuoted(text, i);
      if (end < 0) throw new FormulaSyntaxError('Unterminated text: a closing " is missing', i);
      tokens.push("string", i, end);
      i = end;
      continue;
    }
    if (ch === "#") {
      const error = startingAt(ERROR_CODES, text, i, true);
      if (error) {
        tokens.push("error", i, i + error.length);
        i += error.length;
        continue;
      }
    }
    if (ch === "[") {
      // An external book ([1]Sheet!A1) or a table's own structured reference ([@Col] inside the table).
      const close = text.indexOf("]", i);
      if (/^\[\d+\]$/.test(text.slice(i, close + 1))) {
        const tail = at(EXTERNAL_TAIL, text, close + 1);
        if (tail) {
          tokens.push("external", i, close + 1 + tail[0].length);
          i = close + 1 + tail[0].length;
          continue;
        }
      }
      const end = afterBrackets(text, i);
      tokens.push("structured", i, end);
      i = end;
      continue;
    }
    if (ch === "'" && text.indexOf("[", i) === i + 1) {
      // '[Book.xlsx]Sheet'!A1 or '[1]Sheet'!A1: another workbook.
      const sheet = at(SHEET, text, i);
      if (sheet) {
        const tail = at(/\$?[A-Za-z_][\w.]*\$?\d*(?::\$?[A-Za-z]+\$?\d*)?/y, text, i + sheet[0].length);
        const end = i + sheet[0].length + (tail?.[0].length ?? 0);
        tokens.push("external", i, end);
        i = end;
        continue;
      }
    }
    if (ch === "'" && closeOfQuoted(text, i) < 0)
      throw new FormulaSyntaxError("Unterminated sheet name: a closing ' is missing", i);
    // References, with or without a sheet prefix.
    const nameStart = ch === "'" || ch === "_" || /[A-Za-z\u00C0-\uFFFF]/.test(ch);
    const prefix = nameStart ? at(SHEET, text, i) : null;
    const sheetName = prefix
      ? prefix[1] !== undefined
        ? prefix[1].replace(/''/g, "'")
        : prefix[2]
      : undefined;
    if (ch === "'" && !prefix)
      throw new FormulaSyntaxError("A ! and a cell were expected after the sheet name", afterQuoted(text, i));
    const j = prefix ? i + prefix[0].length : i;
    if (prefix || /[$A-Za-z0-9]/.test(ch)) {
      const area = at(AREA, text, j);
      if (area) {
        tokens.push("ref", i, j + area[0].length, sheetName);
        i = j + area[0].length;
        continue;
      }
    }
    if (prefix) {
      // Sheet!Name (a sheet-scoped name) or Sheet!#REF!.
      const name = at(NAME, text, j);
      if (name) {
        tokens.push("name", i, j + name[0].length, sheetName);
        i = j + name[0].length;
        continue;
      }
      if (text.slice(j, j + 5).toUpperCase() === "#REF!") {
        tokens.push("error", i, j + 5);
        i = j + 5;
        continue;
      }
      throw new FormulaSyntaxError(`Nothing after ${prefix[0]}`, j);
    }
    const number = (code >= 48 && code <= 57) || ch === "." ? at(NUMBER, text, i) : null;
    if (number) {
      tokens.push("number", i, i + number[0].length);
      i += number[0].length;
      continue;
    }
    const name = at(NAME, text, i);
    if (name) {
      const end = i + name[0].length;
      const upper = name[0].toUpperCase();
      let k = end;
      while (k < text.length && text.charAt(k) === " ") k++;
      if (text.charAt(end) === "[") {
        const close = afterBrackets(text, end);
        tokens.push("structured", i, close);
        i = close;
      } else if (text.charAt(k) === "(") {
        tokens.push("function", i, end);
        i = end;
      } else if (upper === "TRUE" || upper === "FALSE") {
        tokens.push("bool", i, end);
        i = end;
      } else {
        tokens.push("name", i, end);
        i = end;
      }
      continue;
    }
    const op = startingAt(OPERATORS, text, i);
    if (op) {
      tokens.push("op", i, i + op.length);
      i += op.length;
      continue;
    }
    throw new FormulaSyntaxError(`Unexpected character ${JSON.stringify(ch)}`, i);
  }
  return tokens.list;
}
