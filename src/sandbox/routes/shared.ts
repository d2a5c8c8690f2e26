// What every route needs: the sandbox state and the production envelope.
import type { Context } from "hono";
import type { EndpointNames } from "../endpoint-groups";
import type { Restatement } from "../restate";
import type { Universe } from "../universe";

export interface SandboxContext {
  readonly universe: Universe;
  readonly seed: number;
  readonly now: () => Date;
  /** Serve `body` as an object instead of the production JSON-encoded string. */
  readonly bodyAsObject: boolean;
  /** `endpoints` of /v1/datapoint records: dataset paths (default) or production's group names. */
  readonly endpointNames?: EndpointNames;
  /** Restated closed years from a day on (--restate). */
  readonly restatement?: Restatement;
  /** How a period without data answers (--no-data): see NoDataAnswer. */
  readonly noData?: NoDataAnswer;
}

/**
 * How the data endpoints answer a period without data (the spec does not show it): `error` (default) 400
 * DataNotFound; `empty` 200 with no records (costing nothing); `not-found` 404 {"message":"Not Found"}.
 */
export type NoDataAnswer = "error" | "empty" | "not-found";
export const NO_DATA_ANSWERS: readonly NoDataAnswer[] = ["error", "empty", "not-found"];

/** Quota units of each answered request, keyed by the request (read by the meter in app.ts). */
const UNITS = new WeakMap<Request, number>();

/** Units the 200 answer to this request costs (1 unless a route said otherwise). */
export const unitsOf = (request: Request): number => UNITS.get(request) ?? 1;

/**
 * `{statusCode: 200, headers, body}` where body is `{results}` JSON-encoded as a string (production-service.md, fact 2).
 * `units`: what the answer costs under the quota (1 unit per call unless given).
 */
export function envelope(c: Context, ctx: SandboxContext, results: unknown, units = 1): Response {
  UNITS.set(c.req.raw, units);
  const body = ctx.bodyAsObject ? { results } : JSON.stringify({ results });
  return c.json({ statusCode: 200, headers: { "Content-Type": "application/json" }, body });
}
