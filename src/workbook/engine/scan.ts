// Reads every cell a formula refers to, without computing it: for a formula the engine cannot compute, this
// says whether it reads anything that changed (then it is reported) or not (then its cached value stands).
// INDIRECT and OFFSET may reach any cell, and a range whose ends are computed (INDEX(...):B9) any range: a
// formula using them cannot be cleared this way.
import type { Context } from "./context";
import { readRect } from "./context";
import { parseExcelFormula, type Node } from "../../formula/parser";
import { nameTree } from "./evaluator";
import { VOLATILE_FUNCTIONS } from "./functions";
import { structuredRect } from "./structured";
import { tokenize } from "../../formula/lexer";
import { isError, Ref, Unsupported } from "./values";

const VOLATILE = new Set(["INDIRECT", "OFFSET"]);

export function scanReferences(node: Node, ctx: Context, depth = 0): void {
  if (depth > 50) throw new Unsupported("volatile: names nest too deep to follow");
  switch (node.type) {
    case "ref": {
      if (node.sheet?.includes(":")) throw new Unsupported("volatile: a reference across sheets");
      const sheet = node.sheet === undefined ? ctx.sheet : ctx.host.sheetName(node.sheet);
      if (sheet !== undefined)
        readRect(ctx, { sheet, top: node.top, left: node.left, bottom: node.bottom, right: node.right });
      return;
    }
    case "name": {
      if (node.sheet === undefined && ctx.vars?.has(node.name.replace(/^_xlpm\./i, "").toLowerCase())) return;
      const scope = node.sheet === undefined ? ctx.sheet : ctx.host.sheetName(node.sheet);
      const text = scope === undefined ? undefined : ctx.host.name(node.name, scope);
      if (text !== undefined) scanReferences(nameTree(text, ctx), ctx, depth + 1);
      else if (ctx.host.table(node.name))
        scanReferences({ type: "structured", table: node.name, spec: "[#All]" }, ctx, depth);
      return;
    }
    case "structured": {
      const rect = structuredRect(node.table, node.spec, ctx);
      if (!isError(rect)) readRect(ctx, rect);
      return;
    }
    case "unary":
      scanReferences(node.operand, ctx, depth);
      return;
    case "binary":
      if (node.op === ":") {
        // A1:B9 reads every cell between its ends, not only the ends.
        scanRange(node, ctx, depth);
        return;
      }
      scanReferences(node.left, ctx, depth);
      scanReferences(node.right, ctx, depth);
      return;
    case "call":
      if (VOLATILE.has(node.name))
        throw new Unsupported(`volatile: ${node.name} may read any cell`, node.name);
      for (const arg of node.args) scanReferences(arg, ctx, depth);
      return;
    default:
      return;
  }
}

function scanRange(node: Extract<Node, { type: "binary" }>, ctx: Context, depth: number): void {
  const plain = (n: Node): boolean =>
    n.type === "ref" || (n.type === "binary" && n.op === ":" && plain(n.left) && plain(n.right));
  if (!plain(node.left) || !plain(node.right)) {
    scanReferences(node.left, ctx, depth);
    scanReferences(node.right, ctx, depth);
    throw new Unsupported("volatile: a range whose ends are computed may cover any cell");
  }
  let range;
  try {
    range = ctx.evaluate(node);
  } catch (err) {
    // A range the evaluator cannot read (across sheets) may cover any cell.
    if (err instanceof Unsupported) throw new Unsupported(`volatile: ${err.message}`, err.fn);
    throw err;
  }
  if (range instanceof Ref) readRect(ctx, range.rect);
}

/**
 * Reads what a formula the parser cannot read refers to, token by token (a range's two ends and every cell
 * between). A formula that cannot even be split into tokens may read anything.
 */
export function scanText(text: string, ctx: Context): void {
  let tokens;
  try {
    tokens = tokenize(text).filter((t) => t.kind !== "space");
  } catch {
    throw new Unsupported("volatile: a formula that cannot be read may read any cell");
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === "function" && VOLATILE.has(t.text.replace(/^_xlfn\./i, "").toUpperCase()))
      throw new Unsupported(`volatile: ${t.text} may read any cell`, t.text.toUpperCase());
    if (t.kind !== "ref" && t.kind !== "name" && t.kind !== "structured") continue;
    let source = t.text;
    const op = tokens[i + 1];
    const end = tokens[i + 2];
    if (t.kind === "ref" && op?.kind === "op" && op.text === ":" && end?.kind === "ref") {
      source = `${t.text}:${end.text}`;
      i += 2;
    }
    let node: Node;
    try {
      node = parseExcelFormula(source);
    } catch {
      continue;
    }
    scanReferences(node, ctx);
  }
}

/** The first volatile function a formula calls (directly or through the defined names it uses), if any. */
export function volatileCall(node: Node, ctx: Context, depth = 0): string | undefined {
  if (depth > 50) return undefined;
  switch (node.type) {
    case "call":
      if (VOLATILE_FUNCTIONS.has(node.name)) return node.name;
      for (const arg of node.args) {
        const fn = volatileCall(arg, ctx, depth);
        if (fn !== undefined) return fn;
      }
      return undefined;
    case "unary":
      return volatileCall(node.operand, ctx, depth);
    case "binary":
      return volatileCall(node.left, ctx, depth) ?? volatileCall(node.right, ctx, depth);
    case "name": {
      const scope = node.sheet === undefined ? ctx.sheet : ctx.host.sheetName(node.sheet);
      const text = scope === undefined ? undefined : ctx.host.name(node.name, scope);
      if (text === undefined) return undefined;
      try {
        return volatileCall(nameTree(text, ctx), ctx, depth + 1);
      } catch {
        return undefined;
      }
    }
    default:
      return undefined;
  }
}
