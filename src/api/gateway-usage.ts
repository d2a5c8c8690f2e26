// The one request the command line makes to the FDQ gateway itself rather than to the service: POST /usage/reset
// with the key, which lifts the account's "Limit Exceeded" stop there once the plan was raised (docs/gateway.md).
// It lives in the request module because the request module is where fetch is called (docs/architecture.md, "Who
// calls fetch"), and it keeps the module's rules: a bounded time, a bounded body, no redirect followed with the key.
import { readBody } from "./body";

/** Long enough for a gateway on the other side of the world; the reset itself is one write. */
export const RESET_TIMEOUT_MS = 10_000;
/** The gateway answers a small JSON report; anything longer is not that answer. */
const RESET_BODY_BYTES = 64 * 1024;

export type GatewayResetOutcome =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly url: string; readonly problem: "unreachable" | "timeout" }
  | { readonly ok: false; readonly url: string; readonly problem: "not-a-gateway"; readonly status: number };

/** POST /usage/reset at the gateway of `baseUrl` (its /v1 replaced). Never throws for what the gateway answered. */
export async function resetGatewayUsage(
  baseUrl: string,
  apiKey: string,
  options: { readonly fetch?: typeof fetch; readonly timeoutMs?: number } = {},
): Promise<GatewayResetOutcome> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const url = `${baseUrl.replace(/\/v1\/?$/, "")}/usage/reset`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? RESET_TIMEOUT_MS);
  try {
    let res: Response;
    try {
      res = await fetchFn(url, {
        method: "POST",
        headers: { "x-api-key": apiKey },
        redirect: "manual",
        signal: controller.signal,
      });
    } catch {
      return { ok: false, url, problem: controller.signal.aborted ? "timeout" : "unreachable" };
    }
    let report: { exhausted?: unknown } | undefined;
    try {
      report = JSON.parse(await readBody(res, RESET_BODY_BYTES, controller.signal)) as typeof report;
    } catch {
      report = undefined;
    }
    if (res.status !== 200 || typeof report?.exhausted !== "boolean") {
      return { ok: false, url, problem: "not-a-gateway", status: res.status };
    }
    return { ok: true, url };
  } finally {
    clearTimeout(timer);
  }
}
