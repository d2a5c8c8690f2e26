// "This gateway": when `fdq serve` (src/gateway) hosts the pane, the FDQ service is on the pane's own origin
// under /v1, so the pane offers that first and a first-time user starts on it. The gateway answers
// GET /healthz with {"ok":true}; a plain static server (the dev server, a CDN) answers something else. The
// request itself is the request module's (answersGatewayHealth): src/api is where the add-in calls fetch.
import { answersGatewayHealth, checkBaseUrl } from "../../api";

/** The label of the gateway preset, followed by its URL in parentheses. */
export const GATEWAY_PRESET_LABEL = "This gateway";

export interface GatewayDetection {
  /** The page's origin (location.origin). */
  readonly origin: string;
  /** Default: the platform's fetch, as the request module calls it. */
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

/** The gateway's base URL (`<origin>/v1`) when the page is served by `fdq serve`, else undefined. */
export async function detectGateway(input: GatewayDetection): Promise<string | undefined> {
  let baseUrl: string;
  try {
    const origin = new URL(input.origin).origin;
    if (origin === "null") return undefined;
    baseUrl = checkBaseUrl(`${origin}/v1`);
  } catch {
    // about:blank, file:, or plain http on a public host: no base URL the add-in could use.
    return undefined;
  }
  const healthy = await answersGatewayHealth(new URL(baseUrl).origin, {
    fetch: input.fetch,
    timeoutMs: input.timeoutMs ?? 5_000,
  });
  return healthy ? baseUrl : undefined;
}

/** The preset's label: "This gateway (https://fdq.example.com/v1)". */
export const gatewayPresetLabel = (baseUrl: string): string => `${GATEWAY_PRESET_LABEL} (${baseUrl})`;
