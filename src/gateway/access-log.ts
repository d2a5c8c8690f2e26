// One JSON line per request on the log (stdout by default): method, path, status, ms, cache outcome and
// units, and in team mode the analyst (the token's name). The query is kept only for names of the spec
// (datapoint, year, ...); neither the API key nor a gateway token is ever logged.
import type { MiddlewareHandler } from "hono";
import { redactKey } from "../api/redact";
import type { GatewayEnv } from "./env";

const LOGGED_PARAMS = new Set(["datapoint", "year", "quarter", "ttm", "prior_year"]);

/** The request's path and the query parameters of the spec, nothing else. */
export function loggedPath(url: string, apiKey: string): string {
  const u = new URL(url);
  const kept = new URLSearchParams();
  for (const [k, v] of u.searchParams) if (LOGGED_PARAMS.has(k)) kept.append(k, v);
  const query = kept.toString();
  return redactKey(query ? `${u.pathname}?${query}` : u.pathname, apiKey);
}

export function accessLog(
  write: (line: string) => void,
  upstreamApiKey?: string,
): MiddlewareHandler<GatewayEnv> {
  return async function accessLogMiddleware(c, next) {
    const start = performance.now();
    c.set("cache", "bypass");
    c.set("units", 0);
    c.set("analyst", undefined);
    try {
      await next();
    } finally {
      const entry = {
        time: new Date().toISOString(),
        method: c.req.method,
        ...(upstreamApiKey === undefined ? {} : { analyst: c.get("analyst") ?? null }),
        path: redactKey(loggedPath(c.req.url, c.req.header("x-api-key") ?? ""), upstreamApiKey ?? ""),
        status: c.res.status,
        ms: Math.round(performance.now() - start),
        cache: c.get("cache"),
        units: c.get("units"),
      };
      write(JSON.stringify(entry));
    }
  };
}
