// Reads every cell a formula refers to, without computing it: for a formula the engine cannot compute, this
// says whether it reads anything that changed (then it is reported) or not (then its cached value stands).
// INDIRECT and OFFSET may reach any cell: a formula using them cannot be cleared this way.
import type { Context } from "./context";
import { readRect } from "./context";
import type { Node } from "./parser";
import { nameTree } from "./evaluator";
import { structuredRect } from "./structured";
import { isError, Unsupported } from "./values";

const VOLATILE = new Set(["INDIRECT", "OFFSET"]);

export function scanReferences(node: Node, ctx: Context, depth = 0): void {
  if (depth > 50) throw new Unsupported("volatile: names nest too deep to follow");
  switch (node.type) {
    case "ref": {
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
