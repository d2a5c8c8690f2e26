// "This gateway": when `fdq serve` (src/gateway) hosts the pane, the FDQ service is on the pane's own origin
// under /v1, so the pane offers that first and a first-time user starts on it. The gateway answers
// GET /healthz with {"ok":true}; a plain static server (the dev server, a CDN) answers something else.
import { checkBaseUrl } from "../../api";

/** The label of the gateway preset, followed by its URL in parentheses. */
export const GATEWAY_PRESET_LABEL = "This gateway";

export interface GatewayDetection {
  /** The page's origin (location.origin). */
  readonly origin: string;
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
  const fetchFn = input.fetch ?? globalThis.fetch.bind(globalThis);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.timeoutMs ?? 5_000);
  try {
    const res = await fetchFn(`${new URL(baseUrl).origin}/healthz`, {
      signal: controller.signal,
      cache: "no-store",
      credentials: "omit",
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as unknown;
    return typeof body === "object" && body !== null && (body as { ok?: unknown }).ok === true
      ? baseUrl
      : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The preset's label: "This gateway (https://fdq.example.com/v1)". */
export const gatewayPresetLabel = (baseUrl: string): string => `${GATEWAY_PRESET_LABEL} (${baseUrl})`;
