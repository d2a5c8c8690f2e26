// "Test connection": one metadata request with the entered key, and a no-cors probe to tell a CORS block
// from an unreachable service (a browser fetch fails with the same TypeError for both).
import {
  checkBaseUrl,
  FdqClient,
  NetworkError,
  probeReachable,
  TimeoutError,
  UnauthorizedError,
} from "../../api";
import { EXCEL_HINTS } from "../../host/excel-hints";
import { messageOf } from "./message";

export type ConnectionKind =
  "connected" | "key-refused" | "unreachable" | "cors" | "not-https" | "service-error";

export interface ConnectionOutcome {
  readonly kind: ConnectionKind;
  readonly message: string;
}

export interface ConnectionTestInput {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

/** A datapoint every deployment has; its metadata is the smallest authenticated answer. */
const PROBE_DATAPOINT = "ROIC";

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}

export async function testConnection(input: ConnectionTestInput): Promise<ConnectionOutcome> {
  const baseUrl = input.baseUrl.trim().replace(/\/+$/, "");
  const origin = originOf(baseUrl);
  try {
    checkBaseUrl(baseUrl);
  } catch (err) {
    return { kind: "not-https", message: `Not https: ${messageOf(err)}` };
  }
  // A throwaway client: no shared cache, no retries, so the answer is this request's own.
  const client = new FdqClient({
    baseUrl,
    apiKey: input.apiKey,
    // Undefined: the request module's client and probe call the platform's fetch themselves.
    fetch: input.fetch,
    retry: { attempts: 1 },
    timeoutMs: input.timeoutMs ?? 10_000,
    hints: EXCEL_HINTS,
  });
  try {
    await client.datapointInfo(PROBE_DATAPOINT);
    return { kind: "connected", message: `Connected: ${origin} accepted the key.` };
  } catch (err) {
    if (err instanceof UnauthorizedError) {
      return {
        kind: "key-refused",
        message: `Key refused: ${origin} answered ${err.status ?? 403} (${err.message}). Check the API key.`,
      };
    }
    if (err instanceof NetworkError) {
      const url = `${baseUrl}/datapoint/${PROBE_DATAPOINT}`;
      if (await probeReachable(url, input.fetch)) {
        return {
          kind: "cors",
          message: `Blocked by CORS: ${origin} answers, but not with CORS headers that allow this add-in, so the browser withholds the answer. The service or a proxy in front of it must allow this origin and the x-api-key header.`,
        };
      }
      return {
        kind: "unreachable",
        message: `Service unreachable: no answer from ${origin}. Check the base URL, the network, and that the service is running.`,
      };
    }
    if (err instanceof TimeoutError) {
      return { kind: "unreachable", message: `Service unreachable: ${origin} did not answer in time.` };
    }
    return { kind: "service-error", message: `The service answered with an error: ${messageOf(err)}` };
  }
}
