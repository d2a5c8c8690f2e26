// Parses one FDQ formula as typed in a cell: `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)`.
// Only what a model of literal FDQ calls needs is supported: one FDQ function with string, number
// and TRUE/FALSE literals and omitted optional arguments. Everything else is refused with a message
// that names what is not supported, so the CLI and the task pane can say why a cell is not theirs.
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

function parseArg(s: Scanner): FormulaArg {
  s.skipSpace();
  const ch = s.peek();
  if (ch === "," || ch === ")") return null;
  if (ch === '"') return parseString(s);
  if (/[0-9.]/.test(ch) || ((ch === "-" || ch === "+") && /[0-9.]/.test(s.text.charAt(s.pos + 1)))) {
    return parseNumber(s);
  }
  if (/[A-Za-z_$]/.test(ch)) {
    const at = s.pos;
    const word = s.word();
    const upper = word.toUpperCase();
    s.skipSpace();
    if ((upper === "TRUE" || upper === "FALSE") && s.peek() !== "(") return upper === "TRUE";
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

function checkArity(name: FunctionName, args: readonly FormulaArg[], at: number, s: Scanner): void {
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

/**
 * Parses `[=]FDQ.NAME(arg, ...)` (function names in any case). Throws FormulaSyntaxError naming the
 * unsupported construct; the argument count is checked against the function's signature.
 */
export function parseFormula(text: string): FdqCall {
  const s = new Scanner(text);
  s.skipSpace();
  if (s.peek() === "=") s.pos++;
  s.skipSpace();
  const { name, at } = parseFunctionName(s);
  s.skipSpace();
  if (s.peek() !== "(") s.fail(`An opening ( was expected after FDQ.${name}`);
  s.pos++;

  const args: FormulaArg[] = [];
  s.skipSpace();
  if (s.peek() === ")") {
    s.pos++;
  } else {
    for (;;) {
      args.push(parseArg(s));
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
