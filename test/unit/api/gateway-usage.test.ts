// resetGatewayUsage: `fdq usage --reset`'s one POST to an FDQ gateway, under the request module's rules (a bounded
// time and body, no redirect followed with the key).
import { resetGatewayUsage } from "../../../src/api/gateway-usage";

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("resetGatewayUsage", () => {
  it("POSTs /usage/reset beside /v1 with the key, never following a redirect, and says the stop was lifted", async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const fetch = (async (url: string, init?: RequestInit) => {
      seen.push({ url, init });
      return json({ exhausted: false });
    }) as typeof globalThis.fetch;
    const outcome = await resetGatewayUsage("https://gw.test/v1", "KEY-1", { fetch });
    expect(outcome).toEqual({ ok: true, url: "https://gw.test/usage/reset" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.init).toMatchObject({
      method: "POST",
      headers: { "x-api-key": "KEY-1" },
      redirect: "manual",
    });
  });

  it("calls an answer that is not the gateway's report, or one over 64 KB, not-a-gateway with its status", async () => {
    const other = (async () => json({ message: "Forbidden" }, 403)) as typeof globalThis.fetch;
    expect(await resetGatewayUsage("https://x.test/v1", "K", { fetch: other })).toEqual({
      ok: false,
      url: "https://x.test/usage/reset",
      problem: "not-a-gateway",
      status: 403,
    });
    const huge = (async () =>
      new Response(`{"exhausted":false,"pad":"${"x".repeat(70_000)}"}`, {
        status: 200,
      })) as typeof globalThis.fetch;
    expect(await resetGatewayUsage("https://x.test", "K", { fetch: huge })).toMatchObject({
      ok: false,
      problem: "not-a-gateway",
      status: 200,
    });
  });

  it("gives up at its timeout, and tells a refused connection from a silent one", async () => {
    const silent = ((_url: string, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      )) as typeof globalThis.fetch;
    expect(await resetGatewayUsage("https://x.test", "K", { fetch: silent, timeoutMs: 20 })).toMatchObject({
      ok: false,
      problem: "timeout",
    });
    const refused = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof globalThis.fetch;
    expect(await resetGatewayUsage("https://x.test", "K", { fetch: refused })).toMatchObject({
      ok: false,
      problem: "unreachable",
    });
  });
});
