// The one parser of Excel formulas: a formula to its syntax tree, by precedence climbing over the lexer's tokens. Excel's precedence, highest first:
// ":" (range), " " (intersection: a space between two references), "," (union, inside parentheses), then "#"
// (spill) and "@" (implicit intersection), unary "-"/"+", "%", "^", "* /", "+ -", "&", comparisons. Unary
// minus binds tighter than "^" in Excel (-2^2 is 4). Function names lose Excel's storage prefixes (_xlfn.,
// _xlfn._xlws., _xlws.) and LET's parameters their _xlpm. fdq refresh's formula engine evaluates the tree
// (src/workbook/engine/); the FDQ-call reader (src/functions/formula.ts) reads an FDQ call from it.
import { ExcelError, type ErrorCode, type Scalar } from "./excel-values";
import { MAX_COL, MAX_ROW, columnNumber } from "./grid";
import { FormulaSyntaxError } from "./syntax-error";
import { tokenize, type Token } from "./lexer";

export type Node =
  | { readonly type: "literal"; readonly value: Scalar }
  | { readonly type: "missing" }
  | {
      readonly type: "ref";
      readonly sheet: string | undefined;
      readonly top: number;
      readonly left: number;
      readonly bottom: number;
      readonly right: number;
    }
  | { readonly type: "name"; readonly sheet: string | undefined; readonly name: string }
  | { readonly type: "structured"; readonly table: string | undefined; readonly spec: string }
  | { readonly type: "external"; readonly text: string }
  | { readonly type: "call"; readonly name: string; readonly args: readonly Node[] }
  | { readonly type: "unary"; readonly op: string; readonly operand: Node }
  | { readonly type: "binary"; readonly op: string; readonly left: Node; readonly right: Node }
  | { readonly type: "array"; readonly rows: readonly (readonly Scalar[])[] };

/**
 * Where a node is in the formula's text: text[start, end); for an operator, `op` is where the operator is. Kept
 * only for a reader that asks (the FDQ-call reader names where a problem is; the engine keeps no positions).
 */
export interface NodeSpan {
  readonly start: number;
  readonly end: number;
  readonly op?: number;
}

const PREFIXES = /^(?:_xlfn\.)?(?:_xlws\.)?/i;

/** A function's name as the function table knows it: upper case, without Excel's storage prefixes. */
export const functionName = (stored: string): string => stored.replace(PREFIXES, "").toUpperCase();

const BINARY: Record<string, number> = {
  "=": 1,
  "<>": 1,
  "<": 1,
  ">": 1,
  "<=": 1,
  ">=": 1,
  "&": 2,
  "+": 3,
  "-": 3,
  "*": 4,
  "/": 4,
  "^": 5,
};

/** One end of a ref token ("$B", "$3", "C7") as row/column bounds. */
function refNode(token: Token): Node {
  const bang = token.text.lastIndexOf("!");
  const ends = token.text
    .slice(bang + 1)
    .replace(/\$/g, "")
    .split(":");
  const sheet = token.sheet;
  if (ends.length === 2 && /^[A-Za-z]+$/.test(ends[0] as string)) {
    const a = columnNumber(ends[0] as string);
    const b = columnNumber(ends[1] as string);
    return { type: "ref", sheet, top: 1, bottom: MAX_ROW, left: Math.min(a, b), right: Math.max(a, b) };
  }
  if (ends.length === 2) {
    const a = Number(ends[0]);
    const b = Number(ends[1]);
    return { type: "ref", sheet, top: Math.min(a, b), bottom: Math.max(a, b), left: 1, right: MAX_COL };
  }
  const m = /^([A-Za-z]+)(\d+)$/.exec(ends[0] as string);
  const row = Number(m?.[2]);
  const col = columnNumber(m?.[1] ?? "A");
  return { type: "ref", sheet, top: row, bottom: row, left: col, right: col };
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
    private readonly spans: Map<Node, NodeSpan> | undefined,
  ) {}

  /** Where the next token starts (the end of the text after the last). */
  private here(): number {
    return this.tokens[this.i]?.start ?? this.source.length;
  }

  /** Where the last token read ends. */
  private get lastEnd(): number {
    return this.tokens[this.i - 1]?.end ?? 0;
  }

  /** `node`, noted as starting at `start` and ending after the last token read. */
  private at<T extends Node>(node: T, start: number, op?: number): T {
    if (this.spans?.has(node) === false)
      this.spans.set(
        node,
        op === undefined ? { start, end: this.lastEnd } : { start, end: this.lastEnd, op },
      );
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new FormulaSyntaxError("The formula ends too early", this.source.length);
    return t;
  }

  private expect(kind: Token["kind"]): Token {
    const t = this.next();
    if (t.kind !== kind)
      throw new FormulaSyntaxError(`Unexpected ${JSON.stringify(t.text)}: a ${kind} was expected`, t.start);
    return t;
  }

  formula(): Node {
    const node = this.expression(0);
    const rest = this.peek();
    if (rest) throw new FormulaSyntaxError(`Unexpected ${JSON.stringify(rest.text)}`, rest.start);
    return node;
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t?.kind === "op" && t.text === text;
  }

  expression(min: number): Node {
    const start = this.here();
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t?.kind !== "op") break;
      const precedence = BINARY[t.text];
      if (precedence === undefined || precedence < min) break;
      this.i++;
      // Left-associative: the right side binds only tighter operators.
      const right = this.expression(precedence + 1);
      left = this.at({ type: "binary", op: t.text, left, right }, start, t.start);
    }
    return left;
  }

  private unary(): Node {
    const t = this.peek();
    if (t?.kind === "op" && (t.text === "-" || t.text === "+")) {
      this.i++;
      const operand = this.unary();
      return this.at({ type: "unary", op: t.text, operand }, t.start, t.start);
    }
    if (t?.kind === "op" && t.text === "@") {
      this.i++;
      return this.at({ type: "unary", op: "@", operand: this.postfix() }, t.start, t.start);
    }
    return this.postfix();
  }

  private postfix(): Node {
    const start = this.here();
    let node = this.intersection();
    for (;;) {
      const op = this.peek();
      if (op && (this.isOp("%") || this.isOp("#"))) {
        this.i++;
        node = this.at({ type: "unary", op: op.text, operand: node }, start, op.start);
      } else break;
    }
    return node;
  }

  private range(): Node {
    const start = this.here();
    let node = this.primary();
    while (this.isOp(":")) {
      const op = this.here();
      this.i++;
      const right = this.primary();
      // The second end of Sheet1!A1:B2 is on the first end's sheet.
      const end =
        right.type === "ref" && right.sheet === undefined && node.type === "ref"
          ? { ...right, sheet: node.sheet }
          : right;
      node = this.at({ type: "binary", op: ":", left: node, right: end }, start, op);
    }
    return node;
  }

  /** `B2:F6 D2:D6`: the space between two references is Excel's intersection operator. */
  private intersection(): Node {
    const start = this.here();
    let node = this.range();
    while (this.isOp(" ")) {
      const op = this.here();
      this.i++;
      node = this.at({ type: "binary", op: " ", left: node, right: this.range() }, start, op);
    }
    return node;
  }

  private primary(): Node {
    const t = this.peek();
    const node = this.primaryAt();
    return t ? this.at(node, t.start) : node;
  }

  private primaryAt(): Node {
    const t = this.next();
    switch (t.kind) {
      case "number":
        return { type: "literal", value: Number(t.text) };
      case "string":
        return { type: "literal", value: t.text.slice(1, -1).replace(/""/g, '"') };
      case "bool":
        return { type: "literal", value: t.text.toUpperCase() === "TRUE" };
      case "error":
        return {
          type: "literal",
          value: new ExcelError(t.text.slice(t.text.indexOf("#")).toUpperCase() as ErrorCode),
        };
      case "ref":
        return refNode(t);
      case "external":
        return { type: "external", text: t.text };
      case "name":
        return { type: "name", sheet: t.sheet, name: t.text.slice(t.text.lastIndexOf("!") + 1) };
      case "structured": {
        const bracket = t.text.indexOf("[");
        const table = bracket > 0 ? t.text.slice(0, bracket) : undefined;
        return { type: "structured", table, spec: t.text.slice(bracket) };
      }
      case "function":
        return this.call(t);
      case "(": {
        let inner = this.expression(0);
        // (A1:B2,D4): a comma inside parentheses is the union operator.
        while (this.peek()?.kind === ",") {
          const op = this.here();
          this.i++;
          inner = this.at({ type: "binary", op: ",", left: inner, right: this.expression(0) }, t.end, op);
        }
        this.expect(")");
        return inner;
      }
      case "{":
        return this.arrayLiteral();
      default:
        throw new FormulaSyntaxError(`Unexpected ${JSON.stringify(t.text)}`, t.start);
    }
  }

  private call(t: Token): Node {
    this.expect("(");
    const args: Node[] = [];
    if (this.peek()?.kind === ")") {
      this.i++;
      return { type: "call", name: functionName(t.text), args };
    }
    for (;;) {
      const k = this.peek()?.kind;
      if (k === undefined) throw this.unclosed();
      args.push(k === "," || k === ")" ? { type: "missing" } : this.expression(0));
      const sep = this.peek();
      if (!sep) throw this.unclosed();
      this.i++;
      if (sep.kind === ")") break;
      if (sep.kind !== ",")
        throw new FormulaSyntaxError(
          `Unexpected character ${JSON.stringify(sep.text.charAt(0))}: a , or ) was expected`,
          sep.start,
        );
    }
    return { type: "call", name: functionName(t.text), args };
  }

  private unclosed(): FormulaSyntaxError {
    return new FormulaSyntaxError(
      "The formula ends inside the argument list: a closing ) is missing",
      this.source.length,
    );
  }

  private arrayLiteral(): Node {
    const rows: Scalar[][] = [[]];
    for (;;) {
      let sign = 1;
      let t = this.next();
      while (t.kind === "op" && (t.text === "-" || t.text === "+")) {
        if (t.text === "-") sign = -sign;
        t = this.next();
      }
      const value = this.constant(t, sign);
      (rows[rows.length - 1] as Scalar[]).push(value);
      const sep = this.next();
      if (sep.kind === "}") break;
      if (sep.kind === ";") rows.push([]);
      else if (sep.kind !== ",")
        throw new FormulaSyntaxError(
          `Unexpected ${JSON.stringify(sep.text)} in an array constant`,
          sep.start,
        );
    }
    const width = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== width))
      throw new FormulaSyntaxError("An array constant's rows differ in length", 0);
    return { type: "array", rows };
  }

  private constant(t: Token, sign: number): Scalar {
    if (t.kind === "number") return sign * Number(t.text);
    if (t.kind === "string") return t.text.slice(1, -1).replace(/""/g, '"');
    if (t.kind === "bool") return t.text.toUpperCase() === "TRUE";
    if (t.kind === "error") return new ExcelError(t.text.toUpperCase() as ErrorCode);
    throw new FormulaSyntaxError(`${JSON.stringify(t.text)} cannot be in an array constant`, t.start);
  }
}

/** Tokens that end an operand the intersection operator applies to, and tokens that start one. */
const ENDS_REFERENCE = new Set<Token["kind"]>(["ref", "name", "structured", "external", ")"]);
const STARTS_REFERENCE = new Set<Token["kind"]>(["ref", "name", "structured", "external", "(", "function"]);

/**
 * The tokens without spaces, except a space between the end of one reference and the start of another, which
 * is Excel's intersection operator (`SUM(B2:F6 D2:D6)`) and becomes the operator " ".
 */
function withIntersections(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== "space") {
      out.push(t);
      continue;
    }
    const before = out[out.length - 1];
    const after = tokens[i + 1];
    if (before && after && ENDS_REFERENCE.has(before.kind) && STARTS_REFERENCE.has(after.kind)) {
      out.push({ kind: "op", text: " ", start: t.start, end: t.end });
    }
  }
  return out;
}

/**
 * The syntax tree of an Excel formula (without "="); throws FormulaSyntaxError. With `spans`, each node's place
 * in the text is noted there.
 */
export function parseExcelFormula(text: string, spans?: Map<Node, NodeSpan>): Node {
  return new Parser(withIntersections(tokenize(text)), text, spans).formula();
}
