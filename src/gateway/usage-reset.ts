// The client side of the gateway's POST /usage/reset, for `fdq usage --reset`: lifts the account's "Limit
// Exceeded" stop at the FDQ gateway of a base URL (docs/gateway.md). Here, beside the route it calls (the
// request module and the gateway are the only places that fetch).
import { GatewaySetupError } from "./errors";

/** POST /usage/reset at the gateway of `baseUrl` (its /v1 replaced): the message to print, or throws. */
export async function resetAtGateway(baseUrl: string, apiKey: string): Promise<string> {
  const url = `${baseUrl.replace(/\/v1\/?$/, "")}/usage/reset`;
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers: { "x-api-key": apiKey }, redirect: "manual" });
  } catch {
    throw new GatewaySetupError(`fdq: --reset: the FDQ gateway at ${url} could not be reached.`);
  }
  const report = (await res.json().catch(() => undefined)) as { exhausted?: unknown } | undefined;
  if (res.status !== 200 || typeof report?.exhausted !== "boolean") {
    throw new GatewaySetupError(
      `fdq: --reset: ${url} answered ${res.status}: it is not an FDQ gateway that knows this key (give --base-url https://GATEWAY/v1).`,
    );
  }
  return 'fdq: the FDQ gateway lifted the account\'s "Limit Exceeded" stop: requests are sent again.';
}
