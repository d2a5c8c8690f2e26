// The gateway's own answers: every error it makes itself is a GatewayError, written by the one error
// handler (app.ts) as {"message": ...} with " (from the FDQ gateway)" so that a user can tell it from
// the service's own answer, which the gateway relays unchanged.
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const GATEWAY_SUFFIX = " (from the FDQ gateway)";

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
