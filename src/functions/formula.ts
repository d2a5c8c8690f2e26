// The FDQ-call reader: one FDQ call as typed in a cell, `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)`,
// read from the syntax tree of the one Excel formula parser (src/formula/parser.ts), whose lexer and
// FormulaSyntaxError it shares with fdq refresh's formula engine. Only what a model of literal FDQ calls needs is
// accepted: one FDQ function with string, number and TRUE/FALSE literals and omitted optional arguments.
// Everything else is refused with a message that names what is not supported and where, so the CLI and the task
// pane can say why a cell is not theirs. The task pane, which can read the workbook, opts in to cell and range
// references and finds the FDQ calls inside larger formulas (findFdqCalls); a range given to a scalar function is
// array-lifted as Excel does (src/functions/lifting.ts).
import {
  FUNCTION_NAMES,
  FUNCTION_SPECS,
  describeSignature,
  isFunctionName,
  type FunctionName,
} from "./signatures";
import { afterQuoted } from "../formula/lexer";
import { fdqCallHeads } from "./formula-repair";
import { parseExcelFormula, type Node, type NodeSpan } from "../formula/parser";
import { FormulaSyntaxError } from "../formula/syntax-error";

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

export interface ReadOptions {
  /**
   * Accept cell and range references as `{ ref }` arguments (the task pane reads those cells); off for
   * `fdq eval`, whose lines have no workbook.
   */
  readonly references?: boolean;
  /** Parse only text[start, end), e.g. a call found by findFdqCalls; positions in messages stay the whole text's. */
  readonly span?: { readonly start: number; readonly end: number };
}

const CELL_REFERENCE = /^\$?[A-Za-z]{1,3}\$?\d+(:\$?[A-Za-z]{1,3}\$?\d+)?$/;
/** The operators an analyst may try in an argument or after the call; refused by name. */
const OPERATORS = "+-*/^&<>=%";
/** The function's name as the reader names it in a message: letters, digits and `_.$!:`, as typed. */
const WORD = /[A-Za-z0-9_.$!:]*/y;

/** `\s` without a regular expression call for the usual characters (reading runs once per cell). */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code >= 128 && /\s/.test(String.fromCharCode(code));
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Refuses the call: `message`, at the 0-based index `at` of the whole text. */
function fail(message: string, at: number): never {
  throw new FormulaSyntaxError(`${message} (at character ${at + 1})`, at);
}

const SINGLE_CELL = /^\$?[A-Za-z]{1,3}\$?\d+$/;
const UNQUOTED_SHEET = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const WHOLE_LINE = /^\$?([A-Za-z]{1,3}|\d+):\$?([A-Za-z]{1,3}|\d+)$/;

/** A reference or name where a literal was expected (`fdq eval`, whose lines have no workbook). */
function refuseWord(word: string, at: number): never {
  if (CELL_REFERENCE.test(word) || word.includes("!")) {
    fail(`Cell references are not supported: ${word}; use a literal value`, at);
  }
  fail(`Names are not supported: ${word}; use a literal value, TRUE or FALSE`, at);
}

/**
 * `text` (written at `at`) as a cell or range reference. A whole column or row (B:B, 1:1) is refused: it would
 * lift a call for each of a million cells, and the pane could not read them in one pass.
 */
function cellReference(text: string, at: number): CellRef {
  const quotedSheet = text.startsWith("'");
  const bang = text.lastIndexOf("!");
  const cell = text.slice(bang + 1);
  const sheetOk = bang < 0 || quotedSheet || UNQUOTED_SHEET.test(text.slice(0, bang));
  if (sheetOk && WHOLE_LINE.test(cell)) {
    fail(`Whole columns and rows are not supported: ${text}; give the cells, e.g. A2:A100`, at);
  }
  const [from = "", to, ...more] = cell.split(":");
  if (sheetOk && more.length > 0) {
    fail(`Not a range: ${text}; write a range as two cells joined by one colon, e.g. A2:A10`, at);
  }
  if (sheetOk && SINGLE_CELL.test(from)) {
    if (to === undefined) return { ref: text };
    if (SINGLE_CELL.test(to)) return { ref: text, range: true };
  }
  if (quotedSheet) fail(`A cell such as A1 was expected after ${text.slice(0, bang + 1)}`, at);
  return refuseWord(text, at);
}

/** Whether a node is a reference as written: a cell, an area, or a range of them (A1:B2, Sheet!A1:B2). */
const isReference = (node: Node): boolean =>
  node.type === "ref" ||
  node.type === "name" ||
  (node.type === "binary" && node.op === ":" && isReference(node.left) && isReference(node.right));

/** One call's tree and where each of its nodes is in the whole text. */
class CallTree {
  constructor(
    readonly text: string,
    private readonly spans: ReadonlyMap<Node, NodeSpan>,
    /** Where the parsed text starts in the whole text. */
    private readonly offset: number,
    readonly references: boolean,
  ) {}

  span(node: Node): NodeSpan {
    const span = this.spans.get(node);
    if (!span) throw new Error(`the parser noted no place for a ${node.type} node`);
    return {
      start: this.offset + span.start,
      end: this.offset + span.end,
      op: this.offset + (span.op ?? span.start),
    };
  }

  written(node: Node): string {
    const { start, end } = this.span(node);
    return this.text.slice(start, end);
  }

  /** An operator where a , or ) was expected: named when an analyst would write it in an argument. */
  refuseOperator(at: number, after: string): never {
    const p = skipSpace(this.text, at);
    const ch = this.text.charAt(p);
    if (OPERATORS.includes(ch)) fail(`Operators are not supported: ${ch}; ${after}`, p);
    return fail(`Unexpected character ${JSON.stringify(ch)}: a , or ) was expected`, p);
  }

  /** One argument's value, or the first thing in it (left to right) that is not supported. */
  argument(node: Node): FormulaArgOrRef {
    switch (node.type) {
      case "missing":
        return null;
      case "literal": {
        const { value } = node;
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
          return value;
        return fail(`Unexpected character "#"`, this.span(node).start);
      }
      case "unary": {
        const { start, op } = this.span(node);
        if (op === start) {
          // A sign is part of a number written right after it (-1.5); any other prefix is not a literal.
          const operand = node.operand;
          if (
            (node.op === "-" || node.op === "+") &&
            operand.type === "literal" &&
            typeof operand.value === "number" &&
            this.span(operand).start === start + 1
          ) {
            return node.op === "-" ? -operand.value : operand.value;
          }
          return fail(`Unexpected character ${JSON.stringify(node.op)}`, start);
        }
        this.argument(node.operand);
        return this.refuseOperator(op as number, "give each argument as one literal");
      }
      case "binary": {
        if (node.op === ":" && isReference(node)) return this.reference(node);
        this.argument(node.left);
        // A range with a computed end (A1:INDEX(...)): what its end is made of is named first.
        if (node.op === ":") this.argument(node.right);
        return this.refuseOperator(this.span(node).op as number, "give each argument as one literal");
      }
      case "ref":
      case "name":
        return this.reference(node);
      case "structured":
        return refuseWord(this.written(node), this.span(node).start);
      case "call": {
        const written = /^[^\s(]*/.exec(this.written(node))?.[0] ?? "";
        return fail(
          `Nested functions are not supported: ${written}(...); use a literal value`,
          this.span(node).start,
        );
      }
      case "array":
        return fail("Array constants are not supported; use one value per argument", this.span(node).start);
      case "external":
        return fail(`Unexpected character "["`, this.span(node).start);
    }
  }

  private reference(node: Node): CellRef {
    // Excel writes a range without spaces around its colon (A1 : B2 is A1:B2).
    const text = this.written(node).replace(/\s*:\s*/g, ":");
    const { start } = this.span(node);
    if (!this.references) {
      if (text.startsWith("'")) fail(`Unexpected character "'"`, start);
      return refuseWord(text, start);
    }
    return cellReference(text, start);
  }
}

const REQUIRED_COUNTS = new Map(
  FUNCTION_NAMES.map((name) => [name, FUNCTION_SPECS[name].parameters.filter((p) => !p.optional).length]),
);

function checkArity(name: FunctionName, args: readonly unknown[], at: number): void {
  const spec = FUNCTION_SPECS[name];
  const requiredCount = REQUIRED_COUNTS.get(name) ?? 0;
  if (args.length > spec.parameters.length) {
    fail(
      `FDQ.${name} takes at most ${spec.parameters.length} arguments, ${args.length} given: ${describeSignature(spec)}`,
      at,
    );
  }
  if (args.length < requiredCount) {
    fail(
      `FDQ.${name} needs at least ${requiredCount} arguments, ${args.length} given: ${describeSignature(spec)}`,
      at,
    );
  }
}

const KNOWN_FUNCTIONS = `the FDQ functions are ${FUNCTION_NAMES.map((n) => `FDQ.${n}`).join(", ")}`;

/** The FDQ function named at `at` (before the formula is parsed: a call of another function is refused by name). */
function functionNameAt(text: string, at: number): FunctionName {
  WORD.lastIndex = at;
  const word = WORD.exec(text)?.[0] ?? "";
  if (word === "") fail("An FDQ function was expected, e.g. FDQ.DATAPOINT(...)", at);
  const upper = word.toUpperCase();
  if (!upper.startsWith("FDQ.")) {
    if (text.charAt(skipSpace(text, at + word.length)) === "(")
      fail(`Only FDQ functions are supported, not ${word}; ${KNOWN_FUNCTIONS}`, at);
    fail(`An FDQ function was expected, not ${word}; ${KNOWN_FUNCTIONS}`, at);
  }
  const bare = upper.slice(4);
  if (!isFunctionName(bare)) fail(`Unknown function ${word}; ${KNOWN_FUNCTIONS}`, at);
  const open = skipSpace(text, at + word.length);
  if (text.charAt(open) !== "(") fail(`An opening ( was expected after FDQ.${bare}`, open);
  return bare;
}

/** The argument nodes of a call, each checked not to start with "(" (a parenthesised argument is no literal). */
function checkUnparenthesised(tree: CallTree, call: Extract<Node, { type: "call" }>): void {
  let cursor = tree.text.indexOf("(", tree.span(call).start) + 1;
  for (const arg of call.args) {
    const at = skipSpace(tree.text, cursor);
    if (arg.type !== "missing") {
      if (tree.text.charAt(at) === "(") fail(`Unexpected character "("`, at);
      cursor = tree.span(arg).end;
    }
    cursor = skipSpace(tree.text, cursor) + 1; // past the , or )
  }
}

const NO_OPTIONS: ReadOptions = {};

/**
 * Reads `[=]FDQ.NAME(arg, ...)` (function names in any case). Throws FormulaSyntaxError naming the unsupported
 * construct and where it is ("(at character N)", 1-based); the argument count is checked against the function's
 * signature. With `references: true`, cell and range references are arguments too (`{ ref }`, `{ ref, range:
 * true }`).
 */
export function readFdqCall(text: string): FdqCall;
export function readFdqCall(text: string, options: ReadOptions & { references: true }): FdqCallWithRefs;
export function readFdqCall(text: string, options?: ReadOptions): FdqCall | FdqCallWithRefs;
export function readFdqCall(text: string, options: ReadOptions = NO_OPTIONS): FdqCall | FdqCallWithRefs {
  const whole = options.span ? text.slice(0, options.span.end) : text;
  let at = skipSpace(whole, options.span?.start ?? 0);
  if (whole.charAt(at) === "=") at = skipSpace(whole, at + 1);
  const name = functionNameAt(whole, at);
  const args = literalArguments(whole, at + name.length + 4);
  if (args) {
    checkArity(name, args, at);
    return { name, args };
  }
  return parsedCall(whole, at, name, options.references === true);
}

/** The parse of `[=]FDQ.NAME(...)` that readFdqCall's literal shortcut skips; exported for its tests. */
export function readFdqCallParsed(
  text: string,
  options: ReadOptions = NO_OPTIONS,
): FdqCall | FdqCallWithRefs {
  const whole = options.span ? text.slice(0, options.span.end) : text;
  let at = skipSpace(whole, options.span?.start ?? 0);
  if (whole.charAt(at) === "=") at = skipSpace(whole, at + 1);
  return parsedCall(whole, at, functionNameAt(whole, at), options.references === true);
}

/** The number as the lexer reads it (src/formula/lexer.ts NUMBER), at a digit or ".". */
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;

const COMMA = 44;
const CLOSE = 41;

/**
 * The arguments of the usual cell, `FDQ.NAME(` directly followed by literals (text, a number with or without
 * its sign, TRUE or FALSE, or nothing) separated by commas, without a space, and `)` ending the text: the
 * values the Excel parser's tree gives for them, read in one pass. `open` is where the `(` should be.
 * Undefined for anything else (a space, an operator, a reference, a nested call, a missing `)`...): the
 * parser then reads the call and says what is wrong.
 */
function literalArguments(text: string, open: number): FormulaArg[] | undefined {
  if (text.charCodeAt(open) !== 40) return undefined;
  const args: FormulaArg[] = [];
  let i = open + 1;
  if (text.charCodeAt(i) === CLOSE) return i + 1 === text.length ? args : undefined;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === 34) {
      // "text", its quotes doubled inside.
      let close = text.indexOf('"', i + 1);
      let doubled = false;
      while (close >= 0 && text.charCodeAt(close + 1) === 34) {
        doubled = true;
        close = text.indexOf('"', close + 2);
      }
      if (close < 0) return undefined;
      const inner = text.slice(i + 1, close);
      args.push(doubled ? inner.replace(/""/g, '"') : inner);
      i = close + 1;
    } else if (code === COMMA || code === CLOSE) {
      args.push(null);
    } else {
      // A sign counts only right before the number's digits (-1.5), as in CallTree.argument.
      const sign = code === 45 ? -1 : code === 43 ? 1 : 0;
      const from = sign === 0 ? i : i + 1;
      const first = text.charCodeAt(from);
      if ((first >= 48 && first <= 57) || first === 46) {
        NUMBER.lastIndex = from;
        const number = NUMBER.exec(text);
        if (!number) return undefined;
        const value = Number(number[0]);
        args.push(sign === -1 ? -value : value);
        i = from + number[0].length;
      } else if (sign !== 0) {
        return undefined;
      } else {
        const word = text.slice(i, i + 5).toUpperCase();
        if (word.startsWith("TRUE") && isEnd(text.charCodeAt(i + 4))) {
          args.push(true);
          i += 4;
        } else if (word === "FALSE" && isEnd(text.charCodeAt(i + 5))) {
          args.push(false);
          i += 5;
        } else return undefined;
      }
    }
    const next = text.charCodeAt(i);
    if (next === CLOSE) return i + 1 === text.length ? args : undefined;
    if (next !== COMMA) return undefined;
    i++;
  }
}

/** A `,` or `)`: where a literal argument ends. */
const isEnd = (code: number): boolean => code === COMMA || code === CLOSE;

/** The call read from the Excel parser's tree, or the first thing in it that is not supported. */
function parsedCall(
  whole: string,
  at: number,
  name: FunctionName,
  references: boolean,
): FdqCall | FdqCallWithRefs {
  const spans = new Map<Node, NodeSpan>();
  let root: Node;
  try {
    root = parseExcelFormula(whole.slice(at), spans);
  } catch (err) {
    if (err instanceof FormulaSyntaxError) fail(err.message, at + err.position);
    throw err;
  }
  const tree = new CallTree(whole, spans, at, references);
  // The call is the leftmost operand of whatever follows it (=FDQ.RATING("A")*2 is (FDQ.RATING("A"))*2).
  const after: Node[] = [];
  let call = root;
  while (call.type === "binary" || (call.type === "unary" && tree.span(call).op !== tree.span(call).start)) {
    after.push(call);
    call = call.type === "binary" ? call.left : call.operand;
  }
  if (call.type !== "call") return fail(`Unexpected text ${JSON.stringify(tree.written(call))}`, at);
  checkUnparenthesised(tree, call);
  const args: FormulaArgOrRef[] = [];
  for (const arg of call.args) args.push(tree.argument(arg));
  const next = after.at(-1);
  if (next) {
    const { op } = tree.span(next);
    const p = skipSpace(whole, op as number);
    if (OPERATORS.includes(whole.charAt(p)))
      fail(`Operators are not supported: ${whole.charAt(p)}; a formula is one FDQ function call`, p);
    fail(`Unexpected text after the closing ): ${JSON.stringify(whole.slice(p))}`, p);
  }
  checkArity(name, args, at);
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
 * The FDQ calls of a larger formula (`=IFERROR(FDQ.DATAPOINT(...),0)`, `=FDQ.SERIES(...)/1e6`) that Excel calls:
 * the heads of the one rule of a call's forms (fdqCallHeads, src/functions/formula-repair.ts) written
 * `FDQ.NAME(` in any case, found outside text and quoted sheet names; a call without its closing `)` runs to the
 * end (reading it says what is missing). A call inside another FDQ call's arguments belongs to that call, whose
 * reader refuses it.
 */
export function findFdqCalls(text: string): CallSpan[] {
  const spans: CallSpan[] = [];
  let after = 0;
  for (const head of fdqCallHeads(text)) {
    if (head.start < after || head.prefix !== "" || !/^FDQ\./i.test(head.head)) continue;
    after = afterClosingParen(text, text.indexOf("(", head.end) + 1);
    spans.push({ start: head.start, end: after });
  }
  return spans;
}
