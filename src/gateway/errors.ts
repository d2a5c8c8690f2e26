// The gateway's own answers: every error it makes itself is a GatewayError, written by the one error
// handler (app.ts) as {"message": ...} with " (from the FDQ gateway)" so that a user can tell it from
// the service's own answer, which the gateway relays unchanged.
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const GATEWAY_SUFFIX = " (from the FDQ gateway)";

/**
 * An answer the gateway makes itself: it carries the HTTP status and headers (Retry-After) it is answered
 * with, which is why it is a class of its own beside GatewaySetupError.
 */
export class GatewayError extends Error {
  override name = "GatewayError";

  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** Forbidden before any upstream request: the gateway never sends a request without the client's key. */
export const noKey = (): GatewayError => new GatewayError(403, `Forbidden: no API key${GATEWAY_SUFFIX}`);

/** Team mode: no token, or one the tokens file does not hold; nothing goes upstream. */
export const unknownToken = (): GatewayError =>
  new GatewayError(403, `Forbidden: unknown gateway token${GATEWAY_SUFFIX}`);

/** The longest API key the FDQ service issues (an API-gateway usage plan's key: 20 to 128 characters). */
export const MAX_KEY_CHARS = 128;

/**
 * A key or token no FDQ key could be: longer than MAX_KEY_CHARS, or with characters other than visible
 * ASCII. Refused before anything (token lookup, redaction, account, upstream) touches it.
 */
export const impossibleKey = (): GatewayError =>
  new GatewayError(
    403,
    `Forbidden: the API key is not one the FDQ service issues (1 to ${MAX_KEY_CHARS} visible ASCII characters)${GATEWAY_SUFFIX}`,
  );

/** Too many refused keys from one address: no key of it is looked at (nor sent upstream) for a while. */
export const tooManyFailedKeys = (retryAfterS: number): GatewayError =>
  new GatewayError(
    429,
    `Too Many Requests: too many refused API keys from this address; try again in ${retryAfterS} s${GATEWAY_SUFFIX}`,
    { "Retry-After": String(retryAfterS) },
  );

/** The path names no request of the FDQ service: answered here, nothing goes upstream. */
export const notARequest = (): GatewayError =>
  new GatewayError(
    404,
    `Not Found: the path is not a request of the FDQ service (see its /v1 endpoints)${GATEWAY_SUFFIX}`,
  );

/** The gateway is at a budget (memory of answers in flight, time to redact): a retry soon may pass. */
export const overBudget = (what: string, retryAfterS = 1): GatewayError =>
  new GatewayError(503, `Service Unavailable: ${what}; try again in ${retryAfterS} s${GATEWAY_SUFFIX}`, {
    "Retry-After": String(retryAfterS),
  });

/** No answer within the request's one deadline (time waiting for a slot counts). */
export const deadlinePassed = (timeoutMs: number, queued: boolean): GatewayError =>
  new GatewayError(
    504,
    `The FDQ service did not answer within ${timeoutMs / 1000} s${queued ? " (the request waited for a free upstream slot all that time)" : ""}${GATEWAY_SUFFIX}`,
  );

/**
 * The gateway cannot do what the command that started or called it asked: a flag or file (--tokens, --redis,
 * --cert/--key, team mode, the Redis secret) at start-up, or `fdq usage --reset` finding no gateway. It carries
 * the message and the option at fault (`--tokens`), which the CLI prints before it; it has no HTTP status,
 * which is why it is not a GatewayError. The one class of such problems, so that the CLI tells them apart
 * from its own failures with one `instanceof`.
 */
export class GatewaySetupError extends Error {
  override name = "GatewaySetupError";

  constructor(
    message: string,
    readonly option?: string,
  ) {
    super(message);
  }

  /** The message as the CLI prints it, after the option at fault. */
  get withOption(): string {
    return this.option === undefined ? this.message : `${this.option}: ${this.message}`;
  }
}
