// One request to the FDQ service: GET only, no body, under the upstream policy the add-in's client applies
// too (src/api/upstream-policy.ts: a same-origin redirect followed at most three times, never one to another
// origin, the body read as a stream up to 4 MB), within the request's one deadline (from its arrival at the
// gateway, below Excel's 60 s), each chunk also taken from a budget for all bodies in flight. Of the
// service's headers only Location (by the policy) and two more are read, these two only in a form that
// cannot carry anything else: Content-Type (a JSON type, else application/json) and Retry-After (if valid
// by RFC 9110). Nothing else of the upstream's headers is relayed, kept or logged. Answers the status, content type and body text, or
// throws a GatewayError.
import {
  BodyTooLarge,
  fetchUnderPolicy,
  parseRetryAfter,
  readBody,
  RedirectRefused,
  redactKey,
  UPSTREAM_POLICY,
} from "../api";
import type { BudgetTicket } from "./body-budget";
import { deadlinePassed, GATEWAY_SUFFIX, GatewayError } from "./errors";

export interface UpstreamAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly retryAfter: string | undefined;
}

export interface UpstreamOptions {
  timeoutMs: number;
  maxBodyBytes: number;
}

/** What the request's fetch is given beyond the options: its deadline and its share of the body budget. */
export interface UpstreamCall {
  /** performance.now() time by which the answer must be read. */
  deadline: number;
  ticket: BudgetTicket;
}

const JSON_TYPES = new Set(["application/json", "application/json; charset=utf-8"]);

/**
 * The Content-Type the gateway serves for an upstream body: the upstream's if it is application/json
 * (with or without charset=utf-8, in canonical form), else application/json. Never the upstream's text
 * as is: it could carry the key, or make a browser read the body as a page on the add-in's origin.
 */
export function jsonContentType(raw: string | null | undefined): string {
  const canonical = (raw ?? "")
    .toLowerCase()
    .replace(/\s*;\s*/g, "; ")
    .replace(/"/g, "")
    .trim();
  return JSON_TYPES.has(canonical) ? canonical : "application/json";
}

/** Retry-After as is when RFC 9110 allows it (delay-seconds or an HTTP-date), else undefined. */
export function validRetryAfter(raw: string | null | undefined): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  return parseRetryAfter(raw, 0) === undefined ? undefined : raw.trim();
}

export async function fetchUpstream(
  url: string,
  apiKey: string,
  o: UpstreamOptions,
  call: UpstreamCall,
): Promise<UpstreamAnswer> {
  const left = call.deadline - performance.now();
  if (left <= 0) throw deadlinePassed(o.timeoutMs, true);
  const signal = AbortSignal.timeout(Math.ceil(left)); // a whole number of ms, or it throws
  try {
    const res = await fetchUnderPolicy(url, {
      fetch,
      headers: { "x-api-key": apiKey, accept: "application/json" },
      signal,
      maxRedirects: UPSTREAM_POLICY.maxRedirects,
    });
    const body = await readBody(res, o.maxBodyBytes, signal, (bytes) => call.ticket.take(bytes));
    return {
      status: res.status,
      contentType: jsonContentType(res.headers.get("content-type")),
      body,
      retryAfter: validRetryAfter(res.headers.get("retry-after")),
    };
  } catch (e) {
    if (signal.aborted) throw deadlinePassed(o.timeoutMs, false);
    if (e instanceof GatewayError) throw e;
    // The policy's own words, as the add-in's client says them (a redirect's origin without the key).
    if (e instanceof RedirectRefused || e instanceof BodyTooLarge) {
      const detail = e instanceof BodyTooLarge ? `an answer ${e.message}` : redactKey(e.message, apiKey);
      throw new GatewayError(502, `The FDQ service answered ${detail}${GATEWAY_SUFFIX}`);
    }
    throw new GatewayError(502, `The FDQ service could not be reached${GATEWAY_SUFFIX}`);
  }
}
