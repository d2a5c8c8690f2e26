// One JSON line per request on the log (stdout by default): method, path, status, ms, cache outcome and
// units, the upstream slot it was sent in (the gateway's slot budget, the account's share and its requests
// upstream then, the wait for the slot; null when it sent nothing upstream itself), and in team mode the
// analyst (the token's name). The query is kept only for names of the spec (datapoint, year, ...); neither
// the API key nor a gateway token is ever logged. The path is redacted with the team's key, and with the
// client's key only once that key is known to be valid (a token of the tokens file, a key the service
// accepted): a redactor is never built from an unauthenticated client's input. Before that, any part of
// the path long enough to hold a key (20 characters or more: the FDQ service issues none shorter) is logged
// as its length only.
import type { MiddlewareHandler } from "hono";
import { redactKey } from "../api";
import type { GatewayEnv } from "./env";

const LOGGED_PARAMS = new Set(["datapoint", "year", "quarter", "ttm", "prior_year"]);
/** Shorter parts cannot be an FDQ key (keys have 20 to 128 characters). */
const LONG_PART = /[^/?&=]{20,}/g;
/** A logged path is cut here: a log line stays a line. */
const MAX_LOGGED_PATH = 512;

/** The request's path and the query parameters of the spec, nothing else. */
export function loggedPath(url: string): string {
  const u = new URL(url);
  const kept = new URLSearchParams();
  for (const [k, v] of u.searchParams) if (LOGGED_PARAMS.has(k)) kept.append(k, v);
  const query = kept.toString();
  return query ? `${u.pathname}?${query}` : u.pathname;
}

/** `path` with every run of 20 characters or more between separators replaced by its length. */
export function withoutLongParts(path: string): string {
  return path.replace(LONG_PART, (part) => `[${part.length} characters]`);
}

const cut = (text: string): string =>
  text.length > MAX_LOGGED_PATH ? `${text.slice(0, MAX_LOGGED_PATH)}[... ${text.length} characters]` : text;

/** The path as logged: redacted with the trusted keys, or without its long parts. */
export function logPath(
  url: string,
  trustedKey: string | undefined,
  upstreamApiKey: string | undefined,
): string {
  const path = loggedPath(url);
  const own = trustedKey === undefined ? withoutLongParts(path) : redactKey(path, trustedKey);
  return cut(upstreamApiKey === undefined ? own : redactKey(own, upstreamApiKey));
}

export function accessLog(
  write: (line: string) => void,
  upstreamApiKey?: string,
): MiddlewareHandler<GatewayEnv> {
  return async function accessLogMiddleware(c, next) {
    const start = performance.now();
    c.set("arrived", start);
    c.set("cache", "bypass");
    c.set("units", 0);
    c.set("slot", undefined);
    c.set("analyst", undefined);
    c.set("trustedKey", undefined);
    const address = c.env?.incoming?.socket?.remoteAddress ?? "unknown";
    c.set("address", address);
    c.set("party", address);
    try {
      await next();
    } finally {
      const entry = {
        time: new Date().toISOString(),
        method: c.req.method,
        ...(upstreamApiKey === undefined ? {} : { analyst: c.get("analyst") ?? null }),
        path: logPath(c.req.url, c.get("trustedKey"), upstreamApiKey),
        status: c.res.status,
        ms: Math.round(performance.now() - start),
        cache: c.get("cache"),
        units: c.get("units"),
        slot: c.get("slot") ?? null,
      };
      write(JSON.stringify(entry));
    }
  };
}
