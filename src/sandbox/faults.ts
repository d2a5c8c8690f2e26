// Fault injection and a server-side concurrency cap, off by default: added latency, 429 (with
// Retry-After) and 503 answers, dropped connections and malformed 200 bodies. The cap is the request
// module's Limiter (p-queue): excess requests wait in arrival order, as they would in front of a busy service.
import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import { Limiter, sleep } from "../api";
import { GATEWAY_MESSAGES } from "../catalog";
import { Rng } from "./prng";

export interface FaultOptions {
  /** Share of requests answered 429 {"message":"Too Many Requests"} with Retry-After. */
  rate429?: number;
  /** Share of requests answered 503 {"message":"Service Unavailable"}. */
  rate503?: number;
  /** Share of requests whose connection is destroyed without an answer. */
  dropRate?: number;
  /** Share of 200 answers whose body is cut in half or replaced by text that is not JSON. */
  malformedRate?: number;
  /** Retry-After seconds of the 429 answers (default 1). */
  retryAfterSeconds?: number;
}

export interface LoadOptions {
  readonly latencyMs?: number;
  /** At most this many requests are handled at once; the others wait in arrival order. */
  readonly maxConcurrent?: number;
  readonly faults?: FaultOptions;
  readonly seed: number;
}

export function loadMiddleware(opts: LoadOptions): MiddlewareHandler<{ Bindings: HttpBindings }> {
  const gate = opts.maxConcurrent && opts.maxConcurrent > 0 ? new Limiter(opts.maxConcurrent) : undefined;
  const faults = opts.faults ?? {};
  // Faults are drawn in arrival order from the seed: the same run meets the same faults.
  const rng = new Rng(opts.seed, "faults");
  let malformedCount = 0;
  const handle: MiddlewareHandler<{ Bindings: HttpBindings }> = async (c, next) => {
    if (opts.latencyMs && opts.latencyMs > 0) await sleep(opts.latencyMs);
    const draw = rng.next();
    let edge = faults.dropRate ?? 0;
    if (draw < edge) {
      c.env.incoming.socket.destroy();
      // Nothing reaches the client: the socket is gone before any byte of this answer is written.
      return c.body(null, 500);
    }
    if (draw < (edge += faults.rate429 ?? 0)) {
      c.header("Retry-After", String(faults.retryAfterSeconds ?? 1));
      return c.json({ message: GATEWAY_MESSAGES.throttled }, 429);
    }
    if (draw < edge + (faults.rate503 ?? 0)) return c.json({ message: "Service Unavailable" }, 503);
    await next();
    if (c.res.status === 200 && rng.next() < (faults.malformedRate ?? 0)) {
      const text = await c.res.text();
      const bad =
        ++malformedCount % 2 ? text.slice(0, Math.floor(text.length / 2)) : `<html>${text.length}</html>`;
      c.res = new Response(bad, { status: 200, headers: { "Content-Type": "application/json" } });
    }
  };
  return gate ? (c, next) => gate.run(() => handle(c, next)) : handle;
}
