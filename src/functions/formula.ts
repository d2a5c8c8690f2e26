// Parses one FDQ formula as typed in a cell: `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)`.
// Only what a model of literal FDQ calls needs is supported: one FDQ function with string, number
// and TRUE/FALSE literals and omitted optional arguments. Everything else is refused with a message
// that names what is not supported, so the CLI and the task pane can say why a cell is not theirs.
// The task pane, which can read the workbook, opts in to cell and range references and finds the FDQ
// calls inside larger formulas (findFdqCalls); a range given to a scalar function is array-lifted as
// Excel does (src/functions/lifting.ts).
import {
  FUNCTION_NAMES,
  FUNCTION_SPECS,
  describeSignature,
  isFunctionName,
  type FunctionName,
} from "./signatures";

/** An argument as Excel would pass it: null when omitted (`,,`). */
export type FormulaArg = string | number | boolean | null;

export interface FdqCall {
  readonly name: FunctionName;
  readonly args: readonly FormulaArg[];
}

/**
 * A reference argument as written: one cell ("$A2", "Sheet2!A1", "'My Sheet'!$B$1") or, with `range`, a
 * rectangle of cells ("$A2:$A50", "Data!B$1:D$1"), which Excel array-lifts for a scalar function.
 */
export interface CellRef {
  readonly ref: string;
  readonly range?: true;
}

export type FormulaArgOrRef = FormulaArg | CellRef;

/** A call parsed with `references: true`: arguments may be cell or range references, which the caller resolves. */
export interface FdqCallWithRefs {
  readonly name: FunctionName;
  readonly args: readonly FormulaArgOrRef[];
}

export interface ParseOptions {
  /**
   * Accept cell and range references as `{ ref }` arguments (the task pane reads those cells); off for
   * `fdq eval`, whose lines have no workbook.
   */
  readonly references?: boolean;
  /** Parse only text[start, end), e.g. a call found by findFdqCalls; positions in messages stay the whole text's. */
  readonly span?: { readonly start: number; readonly end: number };
}

export class FormulaSyntaxError extends Error {
  /** 0-based index in the formula text where the problem was found. */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = "FormulaSyntaxError";
    this.position = position;
  }
}

const CELL_REFERENCE = /^\$?[A-Za-z]{1,3}\$?\d+(:\$?[A-Za-z]{1,3}\$?\d+)?$/;
const OPERATORS = "+-*/^&<>=%";

const WORD = /[A-Za-z0-9_.$!:]*/y;
const NUMBER = /[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/y;

/** `\s` without a regular expression call for the usual characters (parsing runs once per cell). */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code >= 128 && /\s/.test(String.fromCharCode(code));
}

class Scanner {
  pos = 0;

  constructor(readonly text: string) {}

  /** The text matched by a sticky pattern at the current position, which moves past it (or undefined). */
  private take(pattern: RegExp): string | undefined {
    const start = this.pos;
    pattern.lastIndex = start;
    if (!pattern.test(this.text)) return undefined;
    this.pos = pattern.lastIndex;
    return this.text.slice(start, this.pos);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  peek(): string {
    return this.text.charAt(this.pos);
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  fail(message: string, at = this.pos): never {
    throw new FormulaSyntaxError(`${message} (at character ${at + 1})`, at);
  }

  /** A run of letters, digits, `_`, `.`, `$`, `!` and `:` (enough to recognise names and references). */
  word(): string {
    return this.take(WORD) ?? "";
  }

  number(): string | undefined {
    return this.take(NUMBER);
  }
}

function parseString(s: Scanner): string {
  const start = s.pos;
  let from = start + 1; // after the opening quote
  let value = "";
  for (;;) {
    const quote = s.text.indexOf('"', from);
    if (quote < 0) s.fail('Unterminated text: a closing " is missing', start);
    value += s.text.slice(from, quote);
    // Excel writes a quote inside text as two quotes.
    if (s.text.charAt(quote + 1) !== '"') {
      s.pos = quote + 1;
      return value;
    }
    value += '"';
    from = quote + 2;
  }
}

function parseNumber(s: Scanner): number {
  const text = s.number();
  if (text === undefined) s.fail("A number was expected");
  return Number(text);
}

function refuseWord(s: Scanner, word: string, at: number): never {
  s.skipSpace();
  if (s.peek() === "(") s.fail(`Nested functions are not supported: ${word}(...); use a literal value`, at);
  if (CELL_REFERENCE.test(word) || word.includes("!")) {
    s.fail(`Cell references are not supported: ${word}; use a literal value`, at);
  }
  s.fail(`Names are not supported: ${word}; use a literal value, TRUE or FALSE`, at);
}

const SINGLE_CELL = /^\$?[A-Za-z]{1,3}\$?\d+$/;
const UNQUOTED_SHEET = /^[A-Za-z_][A-Za-z0-9_.]*$/;

const WHOLE_LINE = /^\$?([A-Za-z]{1,3}|\d+):\$?([A-Za-z]{1,3}|\d+)$/;

/**
 * `text` (read from `at`) as a cell or range reference. A whole column or row (B:B, 1:1) is refused: it
 * would lift a call for each of a million cells, and the pane could not read them in one pass.
 */
function cellReference(s: Scanner, text: string, at: number, quotedSheet: boolean): CellRef {
  const bang = text.lastIndexOf("!");
  const cell = text.slice(bang + 1);
  const sheetOk = bang < 0 || quotedSheet || UNQUOTED_SHEET.test(text.slice(0, bang));
  if (sheetOk && WHOLE_LINE.test(cell)) {
    s.fail(`Whole columns and rows are not supported: ${text}; give the cells, e.g. A2:A100`, at);
  }
  const [from = "", to, ...more] = cell.split(":");
  if (sheetOk && more.length > 0) {
    s.fail(`Not a range: ${text}; write a range as two cells joined by one colon, e.g. A2:A10`, at);
  }
  if (sheetOk && SINGLE_CELL.test(from)) {
    if (to === undefined) return { ref: text };
    if (SINGLE_CELL.test(to)) return { ref: text, range: true };
  }
  if (quotedSheet) s.fail(`A cell such as A1 was expected after ${text.slice(0, bang + 1)}`, at);
  return refuseWord(s, text, at);
}

/** `'My Sheet'!A1` (a quote inside the name written twice, as Excel does). */
function quotedSheetReference(s: Scanner): CellRef {
  const at = s.pos;
  let from = at + 1;
  for (;;) {
    const quote = s.text.indexOf("'", from);
    if (quote < 0) s.fail("Unterminated sheet name: a closing ' is missing", at);
    from = quote + (s.text.charAt(quote + 1) === "'" ? 2 : 1);
    if (from === quote + 1) break;
  }
  if (s.text.charAt(from) !== "!") s.fail("A ! and a cell were expected after the sheet name", from);
  s.pos = from + 1;
  s.word();
  return cellReference(s, s.text.slice(at, s.pos), at, true);
}

/** A digit or "." (a character code test: parsing runs once per cell). */
function startsNumber(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return (code >= 48 && code <= 57) || code === 46;
}

function parseArg(s: Scanner, references: boolean): FormulaArgOrRef {
  s.skipSpace();
  const ch = s.peek();
  if (ch === "," || ch === ")") return null;
  if (ch === '"') return parseString(s);
  if (startsNumber(ch) || ((ch === "-" || ch === "+") && startsNumber(s.text.charAt(s.pos + 1)))) {
    return parseNumber(s);
  }
  if (references && ch === "'") return quotedSheetReference(s);
  if (/[A-Za-z_$]/.test(ch)) {
    const at = s.pos;
    const word = s.word();
    const upper = word.toUpperCase();
    s.skipSpace();
    if ((upper === "TRUE" || upper === "FALSE") && s.peek() !== "(") return upper === "TRUE";
    if (references && s.peek() !== "(") return cellReference(s, word, at, false);
    return refuseWord(s, word, at);
  }
  if (ch === "{") s.fail("Array constants are not supported; use one value per argument");
  if (ch === "" || ch === undefined)
    s.fail("The formula ends inside the argument list: a closing ) is missing");
  return s.fail(`Unexpected character ${JSON.stringify(ch)}`);
}

function afterArg(s: Scanner): "," | ")" {
  s.skipSpace();
  const ch = s.peek();
  if (ch === "," || ch === ")") {
    s.pos++;
    return ch;
  }
  if (s.atEnd()) s.fail("The formula ends inside the argument list: a closing ) is missing");
  if (OPERATORS.includes(ch)) s.fail(`Operators are not supported: ${ch}; give each argument as one literal`);
  return s.fail(`Unexpected character ${JSON.stringify(ch)}: a , or ) was expected`);
}

const REQUIRED_COUNTS = new Map(
  FUNCTION_NAMES.map((name) => [name, FUNCTION_SPECS[name].parameters.filter((p) => !p.optional).length]),
);

function checkArity(name: FunctionName, args: readonly unknown[], at: number, s: Scanner): void {
  const spec = FUNCTION_SPECS[name];
  const requiredCount = REQUIRED_COUNTS.get(name) ?? 0;
  if (args.length > spec.parameters.length) {
    s.fail(
      `FDQ.${name} takes at most ${spec.parameters.length} arguments, ${args.length} given: ${describeSignature(spec)}`,
      at,
    );
  }
  if (args.length < requiredCount) {
    s.fail(
      `FDQ.${name} needs at least ${requiredCount} arguments, ${args.length} given: ${describeSignature(spec)}`,
      at,
    );
  }
}

const KNOWN_FUNCTIONS = `the FDQ functions are ${FUNCTION_NAMES.map((n) => `FDQ.${n}`).join(", ")}`;

function parseFunctionName(s: Scanner): { name: FunctionName; at: number } {
  const at = s.pos;
  const word = s.word();
  if (word === "") s.fail("An FDQ function was expected, e.g. FDQ.DATAPOINT(...)");
  const upper = word.toUpperCase();
  if (!upper.startsWith("FDQ.")) {
    s.skipSpace();
    if (s.peek() === "(") s.fail(`Only FDQ functions are supported, not ${word}; ${KNOWN_FUNCTIONS}`, at);
    s.fail(`An FDQ function was expected, not ${word}; ${KNOWN_FUNCTIONS}`, at);
  }
  const bare = upper.slice(4);
  if (!isFunctionName(bare)) s.fail(`Unknown function ${word}; ${KNOWN_FUNCTIONS}`, at);
  return { name: bare, at };
}

const NO_OPTIONS: ParseOptions = {};

/**
 * Parses `[=]FDQ.NAME(arg, ...)` (function names in any case). Throws FormulaSyntaxError naming the
 * unsupported construct; the argument count is checked against the function's signature. With
 * `references: true`, cell and range references are arguments too (`{ ref }`, `{ ref, range: true }`).
 */
export function parseFormula(text: string): FdqCall;
export function parseFormula(text: string, options: ParseOptions & { references: true }): FdqCallWithRefs;
export function parseFormula(text: string, options?: ParseOptions): FdqCall | FdqCallWithRefs;
export function parseFormula(text: string, options: ParseOptions = NO_OPTIONS): FdqCall | FdqCallWithRefs {
  const references = options.references === true;
  const s = new Scanner(options.span ? text.slice(0, options.span.end) : text);
  s.pos = options.span?.start ?? 0;
  s.skipSpace();
  if (s.peek() === "=") s.pos++;
  s.skipSpace();
  const { name, at } = parseFunctionName(s);
  s.skipSpace();
  if (s.peek() !== "(") s.fail(`An opening ( was expected after FDQ.${name}`);
  s.pos++;

  const args: FormulaArgOrRef[] = [];
  s.skipSpace();
  if (s.peek() === ")") {
    s.pos++;
  } else {
    for (;;) {
      args.push(parseArg(s, references));
      if (afterArg(s) === ")") break;
    }
  }
  s.skipSpace();
  if (!s.atEnd()) {
    const ch = s.peek();
    if (OPERATORS.includes(ch))
      s.fail(`Operators are not supported: ${ch}; a formula is one FDQ function call`);
    s.fail(`Unexpected text after the closing ): ${JSON.stringify(s.text.slice(s.pos))}`);
  }
  checkArity(name, args, at, s);
  return { name, args };
}

/** Writes a call back as a formula (`=FDQ.NAME(...)`), quoting text the way Excel does. */
export function formatFormula(call: FdqCall): string {
  const args = call.args.map((a) => {
    if (a === null) return "";
    if (typeof a === "string") return `"${a.replace(/"/g, '""')}"`;
    if (typeof a === "boolean") return a ? "TRUE" : "FALSE";
    return String(a);
  });
  while (args.length > 0 && args[args.length - 1] === "") args.pop();
  return `=FDQ.${call.name}(${args.join(",")})`;
}

/** Where one FDQ call sits in a formula: text[start, end) is `FDQ.NAME(...)`. */
export interface CallSpan {
  readonly start: number;
  readonly end: number;
}

const FDQ_CALL_START = /FDQ\.[A-Za-z]+\s*\(/iy;
const NAME_CHAR = /[A-Za-z0-9_.]/;

/** The index after a "text" or 'sheet name' that starts at `at` (its quote doubled inside); the end if unclosed. */
export function afterQuoted(text: string, at: number): number {
  const quote = text.charAt(at);
  for (let from = at + 1; ;) {
    const close = text.indexOf(quote, from);
    if (close < 0) return text.length;
    if (text.charAt(close + 1) !== quote) return close + 1;
    from = close + 2;
  }
}

/** The index after the `)` that closes the list opened just before `from`; the end if it is missing. */
function afterClosingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length;) {
    const ch = text.charAt(i);
    if (ch === '"' || ch === "'") {
      i = afterQuoted(text, i);
      continue;
    }
    if (ch === "(") depth++;
    if (ch === ")" && --depth === 0) return i + 1;
    i++;
  }
  return text.length;
}

/**
 * The FDQ calls of a larger formula (`=IFERROR(FDQ.DATAPOINT(...),0)`, `=FDQ.SERIES(...)/1e6`), found
 * outside text and quoted sheet names; a call without its closing `)` runs to the end (parsing it says
 * what is missing). A call inside another FDQ call's arguments belongs to that call, whose parser refuses it.
 */
export function findFdqCalls(text: string): CallSpan[] {
  const spans: CallSpan[] = [];
  for (let i = 0; i < text.length;) {
    const ch = text.charAt(i);
    if (ch === '"' || ch === "'") {
      i = afterQuoted(text, i);
      continue;
    }
    FDQ_CALL_START.lastIndex = i;
    if ((ch === "F" || ch === "f") && !NAME_CHAR.test(text.charAt(i - 1)) && FDQ_CALL_START.test(text)) {
      const end = afterClosingParen(text, FDQ_CALL_START.lastIndex);
      spans.push({ start: i, end });
      i = end;
      continue;
    }
    i++;
  }
  return spans;
}
