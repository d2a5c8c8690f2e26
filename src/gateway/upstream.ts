// One request to the FDQ service with the client's own key: GET only, no body, no redirect followed (a
// redirect could carry the key to another origin), a timeout below Excel's 60 s, and the body read as a
// stream up to a cap. Answers the status, content type and body text, or throws a GatewayError.
import { BodyTooLarge, readBody, sizeText } from "../api/body";
import { GATEWAY_SUFFIX, GatewayError } from "./errors";

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

const tooLarge = (maxBytes: number): GatewayError =>
  new GatewayError(502, `The FDQ service's answer is larger than ${sizeText(maxBytes)}${GATEWAY_SUFFIX}`);

/** The body read as a stream by the request module's own bounded reader (one owner of the rule). */
async function readCapped(res: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  try {
    return await readBody(res, maxBytes, signal);
  } catch (e) {
    if (e instanceof BodyTooLarge) throw tooLarge(maxBytes);
    throw e;
  }
}

export async function fetchUpstream(
  url: string,
  method: "GET" | "HEAD",
  apiKey: string,
  o: UpstreamOptions,
): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    const res = await fetch(url, {
      method,
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
    const body = await readCapped(res, o.maxBodyBytes, signal);
    return {
      status: res.status,
      contentType: res.headers.get("content-type") ?? "application/json",
      body,
      retryAfter: res.headers.get("retry-after") ?? undefined,
    };
  } catch (e) {
    if (e instanceof GatewayError) throw e;
    if (signal.aborted) {
      throw new GatewayError(
        504,
        `The FDQ service did not answer within ${o.timeoutMs / 1000} s${GATEWAY_SUFFIX}`,
      );
    }
    throw new GatewayError(502, `The FDQ service could not be reached${GATEWAY_SUFFIX}`);
  }
}
