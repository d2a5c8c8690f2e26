// The sandbox's HTTP surface: CORS, fault injection, the API key, GET only, the /v1 routes, and the
// single error handler that writes every error body as {"message": ...}.
import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { GATEWAY_MESSAGES } from "../catalog";
import { allowedOrigin } from "./cors-origin";
import { DEMO_API_KEY } from "./demo";
import { ApiError } from "./errors";
import { loadMiddleware, type LoadOptions } from "./faults";
import { coverageRoutes } from "./routes/coverage";
import { dataRoutes } from "./routes/data";
import { datapointRoutes } from "./routes/datapoint";
import { ratingsRoutes } from "./routes/ratings";
import { sectorRoutes } from "./routes/sector";
import type { SandboxContext } from "./routes/shared";

export interface AppOptions extends LoadOptions {
  readonly context: SandboxContext;
  readonly apiKeys?: readonly string[];
}

export function createApp(opts: AppOptions): {
  app: Hono<{ Bindings: HttpBindings }>;
  stats(): { requests: number };
} {
  let requests = 0;
  const keys = new Set([DEMO_API_KEY, ...(opts.apiKeys ?? [])]);
  const app = new Hono<{ Bindings: HttpBindings }>({ strict: false });
  app.use(async (_c, next) => {
    requests++;
    await next();
  });
  app.use(
    cors({
      origin: allowedOrigin,
      allowMethods: ["GET", "OPTIONS"],
      allowHeaders: ["x-api-key", "content-type", "accept"],
      exposeHeaders: ["Retry-After"],
      maxAge: 600,
    }),
  );
  app.use(loadMiddleware(opts));
  app.use(async (c, next) => {
    if (!keys.has(c.req.header("x-api-key") ?? "")) throw new ApiError(403, GATEWAY_MESSAGES.forbidden);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      c.header("Allow", "GET, OPTIONS");
      throw new ApiError(405, "Method Not Allowed");
    }
    await next();
  });
  for (const routes of [dataRoutes, datapointRoutes, coverageRoutes, sectorRoutes, ratingsRoutes])
    app.route("/v1", routes(opts.context));
  app.notFound((c) => c.json({ message: "Not Found" }, 404));
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ message: err.message }, err.status);
    console.error("sandbox: unexpected error", err);
    return c.json({ message: "Internal Server Error" }, 500);
  });
  return { app, stats: () => ({ requests }) };
}
