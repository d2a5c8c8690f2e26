// What every route needs: the sandbox state and the production envelope.
import type { Context } from "hono";
import type { Universe } from "../universe";

export interface SandboxContext {
  readonly universe: Universe;
  readonly seed: number;
  readonly now: () => Date;
  /** Serve `body` as an object instead of the production JSON-encoded string. */
  readonly bodyAsObject: boolean;
}

/** `{statusCode: 200, headers, body}` where body is `{results}` JSON-encoded as a string (wire-notes 2). */
export function envelope(c: Context, ctx: SandboxContext, results: unknown): Response {
  const body = ctx.bodyAsObject ? { results } : JSON.stringify({ results });
  return c.json({ statusCode: 200, headers: { "Content-Type": "application/json" }, body });
}
