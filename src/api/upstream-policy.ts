// The one upstream fetch policy: how the add-in's client (transport.ts) and the gateway
// (src/gateway/upstream.ts) fetch from the FDQ service. One policy, because both send the same key to the same
// service, and a gateway that read more or followed more than its clients would only relay what they refuse:
// - Redirects: fetch never follows one itself (`redirect: "manual"`): it would resend x-api-key to wherever
//   the Location points. A redirect to the same origin is followed with the key, at most `maxRedirects`
//   times (a path moved behind the service's load balancer); one to another origin (https to http
//   included), a browser's opaque redirect, an unreadable Location or one hop too many is refused, naming at
//   most the target's origin, never the key.
// - Bodies: read as a stream and cut at `maxBodyBytes`, chunk by chunk (body.ts), so a hostile or broken
//   server's 50 MB body costs at most the bound in memory.
// - Time: `timeoutMs` per request, the body's arrival included.

export interface UpstreamPolicy {
  /** One request's time, from sending it to its body's last byte. */
  readonly timeoutMs: number;
  /** The longest body read; a longer one is cancelled unread. */
  readonly maxBodyBytes: number;
  /** Same-origin redirects followed for one request, at most. */
  readonly maxRedirects: number;
}

/** The policy's defaults, in one object: the client's DEFAULTS and the gateway's GATEWAY_DEFAULTS read them. */
export const UPSTREAM_POLICY = {
  /** Below the 60 s after which some Excel platforms fail a fetch. */
  timeoutMs: 30_000,
  /**
   * The largest answers are the coverage lists (the sandbox's 2,700 stocks are 0.4 MB; 6,450 mutual funds
   * about 1 MB): 4 MB leaves room for four times that. The gateway reads no more than its clients would.
   */
  maxBodyBytes: 4 * 1024 * 1024,
  /** A moved path takes one hop; three allow for a chain, a loop is cut after them. */
  maxRedirects: 3,
} as const satisfies UpstreamPolicy;

/** A redirect the policy does not follow; the message names at most the target's origin. */
export class RedirectRefused extends Error {}

/**
 * Where a redirect answer points, when the policy follows it (`hop` redirects already followed); undefined
 * for an answer that is no redirect. Throws RedirectRefused for a redirect that is not followed.
 */
export function redirectTarget(
  response: Response,
  from: string,
  hop: number,
  maxRedirects: number,
): string | undefined {
  if (response.type === "opaqueredirect") {
    // A browser hides the target of a redirect: it cannot be known to be the same origin.
    throw new RedirectRefused("a redirect, which is not followed with the API key");
  }
  if (response.status < 300 || response.status > 399 || response.status === 304) return undefined;
  const location = response.headers.get("location");
  if (!location) return undefined;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new RedirectRefused("a redirect to an unreadable location");
  }
  if (next.origin !== new URL(from).origin) {
    throw new RedirectRefused(`a redirect to ${next.origin}, another origin, where the API key is not sent`);
  }
  if (hop >= maxRedirects) throw new RedirectRefused(`more than ${maxRedirects} redirects`);
  return next.href;
}

export interface PolicyFetch {
  fetch: typeof fetch;
  headers: Record<string, string>;
  signal: AbortSignal;
  maxRedirects: number;
  /** Raced with each fetch: settles the call when a fetch does not honour the abort (some webviews). */
  until?: Promise<never>;
  /** Told of each redirect followed, before its request is sent. */
  onRedirect?: (target: string) => void;
}

/**
 * GETs `url` under the policy: same-origin redirects followed (each body cancelled unread), anything else a
 * RedirectRefused. Answers the final response, its body unread (body.ts readBody reads it within the bound).
 */
export async function fetchUnderPolicy(url: string, o: PolicyFetch): Promise<Response> {
  const send = o.fetch; // called unbound: a browser's fetch refuses another `this`
  let target = url;
  for (let hop = 0; ; hop++) {
    const fetched = send(target, {
      method: "GET",
      headers: o.headers,
      signal: o.signal,
      redirect: "manual",
    });
    const response = await (o.until ? Promise.race([fetched, o.until]) : fetched);
    let next: string | undefined;
    try {
      next = redirectTarget(response, target, hop, o.maxRedirects);
    } catch (refused) {
      await cancel(response);
      throw refused;
    }
    if (next === undefined) return response;
    // A redirect's body is never read: the connection is let go.
    await cancel(response);
    target = next;
    o.onRedirect?.(target);
  }
}

async function cancel(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
