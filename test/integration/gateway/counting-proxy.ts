// A pass-through HTTP proxy between the gateways and the sandbox that counts the upstream requests open at
// once: the sandbox counts requests but not their concurrency, and the bound is what a test must see.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface CountingProxy {
  /** The sandbox's base URL through the proxy (with /v1). */
  baseUrl: string;
  /** Most requests open at once so far. */
  peak(): number;
  close(): Promise<void>;
}

/** Forwards every request to `target` (the sandbox's origin), headers included, and relays its answer. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  let open = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    open++;
    peak = Math.max(peak, open);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && k !== "host") headers[k] = v;
    fetch(`${target}${req.url ?? "/"}`, { method: req.method ?? "GET", headers })
      .then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        open--; // the answer is complete: the upstream request is over
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
        res.end(body);
      })
      .catch(() => {
        open--;
        res.writeHead(502).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    peak: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
