// One request to the FDQ service: GET only, no body, no redirect followed (a redirect could carry the key
// to another origin), within the request's one deadline (from its arrival at the gateway, below Excel's
// 60 s), and the body read as a stream up to a cap per body and a budget for all bodies in flight. Of the
// service's headers only two are read, and only in a form that cannot carry anything else: Content-Type
// (a JSON type, else application/json) and Retry-After (if valid by RFC 9110). Nothing else of the
// upstream's headers is relayed, kept or logged. Answers the status, content type and body text, or
// throws a GatewayError.
import { parseRetryAfter, sizeText } from "../api";
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

const tooLarge = (maxBytes: number): GatewayError =>
  new GatewayError(502, `The FDQ service's answer is larger than ${sizeText(maxBytes)}${GATEWAY_SUFFIX}`);

/**
 * The body as UTF-8 text, read as a stream: each chunk is counted against the body's cap and taken from the
 * budget before it is kept; the stream is cancelled when either is exceeded or the deadline passes.
 */
async function readBounded(res: Response, maxBytes: number, ticket: BudgetTicket): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  const body = res.body;
  if (declared > maxBytes) {
    await body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      ticket.take(value.byteLength);
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (e) {
    void reader.cancel().catch(() => undefined);
    throw e;
  }
  parts.push(decoder.decode());
  return parts.join("");
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
    const res = await fetch(url, {
      method: "GET",
      headers: { "x-api-key": apiKey, accept: "application/json" },
      redirect: "manual",
      signal,
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw new GatewayError(
        502,
        `The FDQ service answered a redirect (${res.status}), which the gateway does not follow with the key${GATEWAY_SUFFIX}`,
      );
    }
    const body = await readBounded(res, o.maxBodyBytes, call.ticket);
    return {
      status: res.status,
      contentType: jsonContentType(res.headers.get("content-type")),
      body,
      retryAfter: validRetryAfter(res.headers.get("retry-after")),
    };
  } catch (e) {
    if (signal.aborted) throw deadlinePassed(o.timeoutMs, false);
    if (e instanceof GatewayError) throw e;
    throw new GatewayError(502, `The FDQ service could not be reached${GATEWAY_SUFFIX}`);
  }
}
