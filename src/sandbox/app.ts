// The sandbox's HTTP surface: CORS, fault injection, the API key, the quota, GET only, the refresh window,
// the /v1 routes, /__usage, and the single error handler that writes every error body as {"message": ...}.
import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { GATEWAY_MESSAGES } from "../catalog";
import { allowedOrigin, type CorsMode } from "./cors-origin";
import { DEMO_API_KEY } from "./demo";
import { ApiError } from "./errors";
import { loadMiddleware, type LoadOptions } from "./faults";
import { LIMIT_EXCEEDED, Meter, usageTag } from "./quota";
import { inRefreshWindow } from "../api";
import { coverageRoutes } from "./routes/coverage";
import { dataRoutes } from "./routes/data";
import { datapointRoutes } from "./routes/datapoint";
import { ratingsRoutes } from "./routes/ratings";
import { sectorRoutes } from "./routes/sector";
import { unitsOf, type SandboxContext } from "./routes/shared";

export interface AppOptions extends LoadOptions {
  readonly context: SandboxContext;
  readonly apiKeys?: readonly string[];
  /** Quota units per key and calendar month; undefined meters usage without a limit. */
  readonly quota?: number;
  /** Answer /v1 requests with 503 from 05:00 to 05:20 America/Chicago. */
  readonly refreshWindow?: boolean;
  /** "permissive" (default): CORS for the task pane; "off": no CORS header anywhere, preflights 403. */
  readonly cors?: CorsMode;
}

/** The sandbox's own endpoint for tests and operators (not under /v1, no key needed). */
export const USAGE_PATH = "/__usage";

const isUsagePath = (path: string): boolean => path.replace(/\/+$/, "") === USAGE_PATH;
const isApiPath = (path: string): boolean => path === "/v1" || path.startsWith("/v1/");

export function createApp(opts: AppOptions): {
  app: Hono<{ Bindings: HttpBindings }>;
  stats(): { requests: number };
  /** Quota units the key has spent this month. */
  usage(key: string): number;
} {
  let requests = 0;
  const keys = new Set([DEMO_API_KEY, ...(opts.apiKeys ?? [])]);
  const meter = new Meter(opts.quota, opts.context.now);
  const app = new Hono<{ Bindings: HttpBindings }>({ strict: false });
  app.use(async (c, next) => {
    if (!isUsagePath(c.req.path)) requests++;
    await next();
  });
  const corsOff = opts.cors === "off";
  if (corsOff)
    // A preflight never carries the key, so a gateway that requires it on every method (OPTIONS included)
    // refuses it like any keyless request: 403 Forbidden, and (like every answer here) no CORS header.
    app.use(async (c, next) => {
      if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined)
        throw new ApiError(403, GATEWAY_MESSAGES.forbidden);
      await next();
    });
  else
    app.use(
      cors({
        origin: allowedOrigin,
        allowMethods: ["GET", "OPTIONS"],
        allowHeaders: ["x-api-key", "content-type", "accept"],
        exposeHeaders: ["Retry-After"],
        maxAge: 600,
      }),
    );
  // Usage by key tag (or for one key with ?key=), never the keys themselves; no faults, no key check.
  app.get(USAGE_PATH, (c) => {
    const quota = opts.quota ?? null;
    const key = c.req.query("key");
    if (key !== undefined) return c.json({ units: meter.units(key), quota });
    const units = Object.fromEntries([...keys].map((k) => [usageTag(k), meter.units(k)]));
    return c.json({ units, quota });
  });
  app.use(loadMiddleware(opts));
  app.use(async (c, next) => {
    const key = c.req.header("x-api-key") ?? "";
    if (!keys.has(key)) throw new ApiError(403, GATEWAY_MESSAGES.forbidden);
    // A spent quota answers before any work, without Retry-After: retrying is useless until next month.
    if (meter.exhausted(key)) throw new ApiError(429, LIMIT_EXCEEDED);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      c.header("Allow", corsOff ? "GET, HEAD" : "GET, OPTIONS");
      throw new ApiError(405, "Method Not Allowed");
    }
    if (opts.refreshWindow && isApiPath(c.req.path) && inRefreshWindow(opts.context.now().getTime()))
      throw new ApiError(503, "Service Unavailable");
    await next();
    // Only successful answers cost units; errors cost nothing.
    if (c.res.status === 200) meter.charge(key, unitsOf(c.req.raw));
  });
  for (const routes of [dataRoutes, datapointRoutes, coverageRoutes, sectorRoutes, ratingsRoutes])
    app.route("/v1", routes(opts.context));
  app.notFound((c) => c.json({ message: "Not Found" }, 404));
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ message: err.message }, err.status);
    console.error("sandbox: unexpected error", err);
    return c.json({ message: "Internal Server Error" }, 500);
  });
  return { app, stats: () => ({ requests }), usage: (key) => meter.units(key) };
}
