// fdq refresh's own formula engine (docs/formula-engine.md). Chosen deliberately: HyperFormula is GPLv3 or paid
// (no fit for a closed-source product); fast-formula-parser is unmaintained and computed wrong numbers
// silently; @formulajs/formulajs (MIT, maintained) has Excel's maths for many functions but no parser,
// references or Excel's evaluation rules, so it serves the financial functions (functions/financial.ts) and the
// rest is written here, small and checked against LibreOffice.
//
// Evaluates a formula's syntax tree with Excel's semantics: errors propagate through operators; a reference
// stays a reference until read (functions that need it get it); ranges given to operators lift in array
// formulas and intersect with the formula's row or column in plain ones; names are evaluated where they are
// used (sheet scope before workbook scope); structured references resolve against the workbook's tables.
// What the engine cannot compute throws Unsupported (the formula keeps its value and is reported), never an
// Excel error that IFERROR could hide.
import { ExcelError, type Scalar } from "../model";
import { intersect, lift, operand, readRect, type Context, type Host } from "./context";
import { FUNCTIONS, VOLATILE_FUNCTIONS } from "./functions";
import type { EagerFn } from "./functions/table";
import { parseExcelFormula, type Node } from "../../formula/parser";
import { structuredRect } from "./structured";
import { tokenize } from "../../formula/lexer";
import { translateFormula } from "./translate";
import {
  Arr,
  checked,
  compare,
  DIV0,
  isError,
  Ref,
  REF,
  toNumber,
  toText,
  Unsupported,
  VALUE,
  type Value,
} from "./values";

const parsed = new Map<string, Node>();

/** A formula's tree, parsed once per distinct text (names and shared formulas repeat). */
export function treeOf(text: string): Node {
  let node = parsed.get(text);
  if (!node) {
    node = parseExcelFormula(text);
    if (parsed.size > 50_000) parsed.clear();
    parsed.set(text, node);
  }
  return node;
}

const relative = new Map<string, boolean>();

/**
 * A defined name's tree as used from the formula's cell. A file stores a name's relative references (A1, not
 * $A$1) as seen from A1 (a name meaning "the cell to the left" is stored as XFD1), and Excel moves them to the
 * cell using the name, wrapping around the grid.
 */
export function nameTree(stored: string, ctx: Context): Node {
  const text = stored.replace(/^=/, "");
  let moves = relative.get(text);
  if (moves === undefined) {
    moves = tokenize(text).some(
      (t) =>
        t.kind === "ref" &&
        /(^|[!:])[A-Za-z]|(^|[!:])\d|[A-Za-z]\d/.test(t.text.replace(/\$[A-Za-z]+|\$\d+/g, "")),
    );
    relative.set(text, moves);
  }
  return moves ? treeOf(translateFormula(text, 1, 1, ctx.row, ctx.col, true)) : treeOf(text);
}

function arithmetic(op: string, a: Scalar, b: Scalar): Scalar {
  if (op === "&") {
    const x = toText(a);
    if (isError(x)) return x;
    const y = toText(b);
    return isError(y) ? y : x + y;
  }
  if (["=", "<>", "<", ">", "<=", ">="].includes(op)) {
    if (isError(a)) return a;
    if (isError(b)) return b;
    const c = compare(a, b);
    return op === "="
      ? c === 0
      : op === "<>"
        ? c !== 0
        : op === "<"
          ? c < 0
          : op === ">"
            ? c > 0
            : op === "<="
              ? c <= 0
              : c >= 0;
  }
  const x = toNumber(a);
  if (isError(x)) return x;
  const y = toNumber(b);
  if (isError(y)) return y;
  switch (op) {
    case "+":
      return checked(x + y);
    case "-":
      return checked(x - y);
    case "*":
      return checked(x * y);
    case "/":
      return y === 0 ? DIV0() : checked(x / y);
    default:
      if (x === 0 && y < 0) return DIV0();
      if (x === 0 && y === 0) return new ExcelError("#NUM!");
      return checked(x ** y);
  }
}

/** The bounding rectangle of two references on one sheet (A1:B2, INDEX(...):INDEX(...)). */
function rangeOf(a: Value, b: Value): Value {
  if (isError(a)) return a;
  if (isError(b)) return b;
  if (!(a instanceof Ref) || !(b instanceof Ref)) return VALUE();
  if (a.rect.sheet !== b.rect.sheet) return REF();
  return new Ref({
    sheet: a.rect.sheet,
    top: Math.min(a.rect.top, b.rect.top),
    left: Math.min(a.rect.left, b.rect.left),
    bottom: Math.max(a.rect.bottom, b.rect.bottom),
    right: Math.max(a.rect.right, b.rect.right),
  });
}

/** Sheet1:Sheet3!B2, the same cells on every sheet from one to the other. */
const acrossSheets = (text: string): Unsupported =>
  new Unsupported(`uses a reference across several sheets (${text}), which fdq refresh does not compute`);

/**
 * The cells two references share (`B2:F6 D2:D6` is D2:D6); none is #NULL!, as in Excel, which computes it
 * again when a cell of either changes: they are read then, so that the formula counts as reading them.
 */
function intersectionOf(a: Value, b: Value, ctx: Context): Value {
  if (isError(a)) return a;
  if (isError(b)) return b;
  if (!(a instanceof Ref) || !(b instanceof Ref) || a.rect.sheet !== b.rect.sheet) {
    throw new Unsupported(
      "uses the intersection operator (a space) on something other than two ranges of one sheet",
    );
  }
  const top = Math.max(a.rect.top, b.rect.top);
  const left = Math.max(a.rect.left, b.rect.left);
  const bottom = Math.min(a.rect.bottom, b.rect.bottom);
  const right = Math.min(a.rect.right, b.rect.right);
  if (top > bottom || left > right) {
    readRect(ctx, a.rect);
    readRect(ctx, b.rect);
    return new ExcelError("#NULL!");
  }
  return new Ref({ sheet: a.rect.sheet, top, left, bottom, right });
}

export class Evaluator {
  constructor(private readonly host: Host) {}

  /** A context for the formula at (sheet, row, col). */
  context(sheet: string, row: number, col: number, arrayMode: boolean): Context {
    const ctx: Context = {
      host: this.host,
      sheet,
      row,
      col,
      arrayMode,
      evaluate: (node, inner) => this.evaluate(node, inner ?? ctx),
    };
    return ctx;
  }

  /** A context like `ctx` with other LET names or array mode. */
  derive(ctx: Context, changes: { vars?: ReadonlyMap<string, Value>; arrayMode?: boolean }): Context {
    const next: Context = {
      ...ctx,
      ...changes,
      evaluate: (node, inner) => this.evaluate(node, inner ?? next),
    };
    return next;
  }

  evaluate(node: Node, ctx: Context): Value {
    switch (node.type) {
      case "literal":
        return node.value;
      case "missing":
        return null;
      case "array":
        return new Arr(node.rows.map((r) => [...r]));
      case "ref": {
        if (node.sheet?.includes(":")) throw acrossSheets(`'${node.sheet}'!...`);
        const sheet = node.sheet === undefined ? ctx.sheet : this.host.sheetName(node.sheet);
        if (sheet === undefined) return REF();
        return new Ref({ sheet, top: node.top, left: node.left, bottom: node.bottom, right: node.right });
      }
      case "external":
        throw new Unsupported(`refers to another workbook (${node.text}), which fdq cannot read`);
      case "name":
        return this.name(node.name, node.sheet, ctx);
      case "structured": {
        const rect = structuredRect(node.table, node.spec, ctx);
        return isError(rect) ? rect : new Ref(rect);
      }
      case "unary":
        return this.unary(node.op, node.operand, ctx);
      case "binary": {
        if (node.op === ":" && node.left.type === "name" && node.right.type === "ref" && node.right.sheet) {
          throw acrossSheets(`${node.left.name}:${node.right.sheet}!...`);
        }
        const left = this.evaluate(node.left, ctx);
        const right = this.evaluate(node.right, ctx);
        if (node.op === ":") return rangeOf(left, right);
        if (node.op === " ") return intersectionOf(left, right, ctx);
        if (node.op === ",")
          throw new Unsupported("uses the union operator ((A1,B2): several areas as one reference)");
        return lift([operand(left, ctx), operand(right, ctx)], (a, b) => arithmetic(node.op, a, b));
      }
      case "call":
        return this.call(node.name, node.args, ctx);
    }
  }

  private unary(op: string, inner: Node, ctx: Context): Value {
    const v = this.evaluate(inner, ctx);
    if (op === "@") {
      if (v instanceof Ref) return intersect(v, ctx);
      return v instanceof Arr ? (v.rows[0]?.[0] ?? null) : v;
    }
    if (op === "#") {
      if (isError(v)) return v;
      if (!(v instanceof Ref)) return REF();
      const rect = this.host.spill(v.rect.sheet, v.rect.top, v.rect.left);
      return isError(rect) ? rect : new Ref(rect);
    }
    return lift([operand(v, ctx)], (a) => {
      if (op === "+") return a;
      const n = toNumber(a);
      if (isError(n)) return n;
      return op === "-" ? -n : n / 100;
    });
  }

  private name(name: string, sheet: string | undefined, ctx: Context): Value {
    const key = name.replace(/^_xlpm\./i, "").toLowerCase();
    const local = sheet === undefined ? ctx.vars?.get(key) : undefined;
    if (local !== undefined) return local;
    const scope = sheet === undefined ? ctx.sheet : this.host.sheetName(sheet);
    if (scope === undefined) return REF();
    const text = this.host.name(name, scope);
    if (text !== undefined) {
      // A name is evaluated where it is used; its own LET names do not leak into it.
      const inner = this.derive(ctx, { vars: new Map() });
      return this.evaluate(nameTree(text, ctx), inner);
    }
    const table = this.host.table(name);
    if (table) {
      const rect = structuredRect(table.name, "[#Data]", ctx);
      return isError(rect) ? rect : new Ref(rect);
    }
    throw new Unsupported(`uses the name ${name}, which is not defined in the workbook`);
  }

  private call(name: string, args: readonly Node[], ctx: Context): Value {
    if (name.startsWith("FDQ.")) {
      const values = args.map((a) => (a.type === "missing" ? undefined : this.evaluate(a, ctx)));
      return this.host.fdq(name.slice(4), values, ctx);
    }
    const fn = FUNCTIONS[name];
    if (!fn && VOLATILE_FUNCTIONS.has(name)) {
      throw new Unsupported(
        `uses ${name}, which Excel computes again whenever it calculates (fdq refresh does not)`,
        name,
      );
    }
    if (VOLATILE_FUNCTIONS.has(name)) this.host.volatile?.(name);
    if (!fn) {
      // Its arguments are still read: whether the formula reads a cell that changed decides whether it matters.
      for (const a of args) this.evaluate(a, ctx);
      throw new Unsupported(`uses ${name}, which fdq refresh does not compute`, name);
    }
    if (args.length < fn.min || args.length > fn.max) {
      throw new Unsupported(`calls ${name} with ${args.length} argument(s)`, name);
    }
    if ("lazy" in fn) return fn.lazy(args, ctx);
    return this.eager(fn, args, ctx);
  }

  private eager(fn: EagerFn, args: readonly Node[], ctx: Context): Value {
    const arrays = fn.arrays;
    const inArray = ctx.arrayMode || arrays === undefined ? ctx : this.derive(ctx, { arrayMode: true });
    const values = args.map((a, i) => {
      if (a.type === "missing") return undefined;
      const asArray = arrays === true || (Array.isArray(arrays) && arrays.includes(i));
      return this.evaluate(a, asArray ? inArray : ctx);
    });
    return fn.call(values, ctx);
  }
}
