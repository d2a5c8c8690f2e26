// The headers every answer of the gateway carries, in one named middleware over every route (the access
// log, /healthz, /usage, /v1 and the hosted add-in), so that no route can forget them:
// - X-Content-Type-Options: nosniff on every answer: a browser never guesses HTML or script from a body;
// - Strict-Transport-Security over https: browsers that met the gateway over https stay on https;
// - on hosted pages (text/html), the add-in pane's Content-Security-Policy: the very policy of the pane's
//   own <meta> (one owner: src/manifest/content-security-policy.ts), so the browser applies one policy;
// - on every other answer, a policy that runs nothing (an answer read as a page could not run a script).
// Written here rather than with hono's secure-headers middleware (hono 4.13): that middleware computes its headers
// before the route runs (its policy callbacks see the request, not the answer), so it cannot choose the policy by
// the answer's content type, which is what this middleware is for. Using it would still need this middleware for
// the Content-Security-Policy and leave it only nosniff and HSTS, while each of its other defaults would have to be
// turned off: X-Frame-Options SAMEORIGIN would stop Excel on the web from framing the pane, and its HSTS adds
// includeSubDomains, which would speak for hosts the gateway does not serve. It also sets headers in place, which
// throws on an answer whose headers are immutable (Response.redirect); no route answers one today, and this
// middleware copies such an answer rather than fail.
import type { MiddlewareHandler } from "hono";
import { TASKPANE_CSP } from "../manifest/content-security-policy";
import type { GatewayEnv } from "./env";

/**
 * The policy of the hosted pages: the task pane's own, from its one owner (src/manifest/content-security-
 * policy.json, which webpack also writes into the pane's <meta>), so that header and meta never disagree.
 */
export const HOSTED_PAGE_CSP: string = TASKPANE_CSP;

/** The policy of everything that is not a page (JSON, the manifest, scripts and styles as files). */
export const NOT_A_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";

/** One year, the usual HSTS lifetime; no includeSubDomains: the gateway speaks for its own host only. */
export const HSTS = "max-age=31536000";

export function securityHeaders(o: { https: boolean }): MiddlewareHandler<GatewayEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    let headers = c.res.headers;
    try {
      headers.set("X-Content-Type-Options", "nosniff");
    } catch {
      // An answer with immutable headers (Response.redirect): the same answer, with headers that can be set.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("X-Content-Type-Options", "nosniff");
    }
    if (o.https) headers.set("Strict-Transport-Security", HSTS);
    const page = /^text\/html\b/i.test(headers.get("content-type") ?? "");
    headers.set("Content-Security-Policy", page ? HOSTED_PAGE_CSP : NOT_A_PAGE_CSP);
  };
}
