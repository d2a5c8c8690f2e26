// Excel formulas to a syntax tree, by precedence climbing over tokens.ts. Excel's precedence, highest first:
// ":" (range), " " (intersection: a space between two references), "," (union, inside parentheses), then "#"
// (spill) and "@" (implicit intersection), unary "-"/"+", "%", "^", "* /", "+ -", "&", comparisons. Unary
// minus binds tighter than "^" in Excel (-2^2 is 4). Function names lose Excel's storage prefixes (_xlfn.,
// _xlfn._xlws., _xlws.) and LET's parameters their _xlpm.
import { ExcelError, type ErrorCode, type Scalar } from "../model";
import { MAX_COL, MAX_ROW, columnNumber } from "./references";
import { FormulaSyntaxError } from "../../functions/formula";
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
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new FormulaSyntaxError("the formula ends too early", this.source.length);
    return t;
  }

  private expect(kind: Token["kind"]): Token {
    const t = this.next();
    if (t.kind !== kind) throw new FormulaSyntaxError(`expected "${kind}", found "${t.text}"`, t.start);
    return t;
  }

  parseFormula(): Node {
    const node = this.expression(0);
    const rest = this.peek();
    if (rest) throw new FormulaSyntaxError(`unexpected "${rest.text}"`, rest.start);
    return node;
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t?.kind === "op" && t.text === text;
  }

  expression(min: number): Node {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t?.kind !== "op") break;
      const precedence = BINARY[t.text];
      if (precedence === undefined || precedence < min) break;
      this.i++;
      // Left-associative: the right side binds only tighter operators.
      const right = this.expression(precedence + 1);
      left = { type: "binary", op: t.text, left, right };
    }
    return left;
  }

  private unary(): Node {
    const t = this.peek();
    if (t?.kind === "op" && (t.text === "-" || t.text === "+")) {
      this.i++;
      const operand = this.unary();
      return { type: "unary", op: t.text, operand };
    }
    if (t?.kind === "op" && t.text === "@") {
      this.i++;
      return { type: "unary", op: "@", operand: this.postfix() };
    }
    return this.postfix();
  }

  private postfix(): Node {
    let node = this.intersection();
    for (;;) {
      if (this.isOp("%")) {
        this.i++;
        node = { type: "unary", op: "%", operand: node };
      } else if (this.isOp("#")) {
        this.i++;
        node = { type: "unary", op: "#", operand: node };
      } else break;
    }
    return node;
  }

  private range(): Node {
    let node = this.primary();
    while (this.isOp(":")) {
      this.i++;
      const right = this.primary();
      // The second end of Sheet1!A1:B2 is on the first end's sheet.
      const end =
        right.type === "ref" && right.sheet === undefined && node.type === "ref"
          ? { ...right, sheet: node.sheet }
          : right;
      node = { type: "binary", op: ":", left: node, right: end };
    }
    return node;
  }

  /** `B2:F6 D2:D6`: the space between two references is Excel's intersection operator. */
  private intersection(): Node {
    let node = this.range();
    while (this.isOp(" ")) {
      this.i++;
      node = { type: "binary", op: " ", left: node, right: this.range() };
    }
    return node;
  }

  private primary(): Node {
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
          this.i++;
          inner = { type: "binary", op: ",", left: inner, right: this.expression(0) };
        }
        this.expect(")");
        return inner;
      }
      case "{":
        return this.arrayLiteral();
      default:
        throw new FormulaSyntaxError(`unexpected "${t.text}"`, t.start);
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
      args.push(k === "," || k === ")" ? { type: "missing" } : this.expression(0));
      const sep = this.next();
      if (sep.kind === ")") break;
      if (sep.kind !== ",")
        throw new FormulaSyntaxError(`expected "," or ")", found "${sep.text}"`, sep.start);
    }
    return { type: "call", name: functionName(t.text), args };
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
        throw new FormulaSyntaxError(`unexpected "${sep.text}" in an array`, sep.start);
    }
    const width = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== width))
      throw new FormulaSyntaxError("an array's rows differ in length", 0);
    return { type: "array", rows };
  }

  private constant(t: Token, sign: number): Scalar {
    if (t.kind === "number") return sign * Number(t.text);
    if (t.kind === "string") return t.text.slice(1, -1).replace(/""/g, '"');
    if (t.kind === "bool") return t.text.toUpperCase() === "TRUE";
    if (t.kind === "error") return new ExcelError(t.text.toUpperCase() as ErrorCode);
    throw new FormulaSyntaxError(`"${t.text}" cannot be in an array constant`, t.start);
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
  tokens.forEach((t, i) => {
    if (t.kind !== "space") {
      out.push(t);
      return;
    }
    const before = out[out.length - 1];
    const after = tokens[i + 1];
    if (before && after && ENDS_REFERENCE.has(before.kind) && STARTS_REFERENCE.has(after.kind)) {
      out.push({ kind: "op", text: " ", start: t.start, end: t.end });
    }
  });
  return out;
}

/** The syntax tree of a formula (without "="); throws FormulaSyntaxError. */
export function parseFormula(text: string): Node {
  return new Parser(withIntersections(tokenize(text)), text).parseFormula();
}
