// A hostile FDQ service on 127.0.0.1 (a free port), as an attacker or a broken proxy would behave: each
// request path is answered by the test's script, which can redirect anywhere, echo the key, answer for
// something else, or send bodies that are huge (streamed, never held in memory here either) or slow.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

export type Reply =
  | { status?: number; headers?: Record<string, string>; body: string }
  /** `chunk` written `times` times, waiting for the socket to drain: a body of any size, never held. */
  | { status?: number; headers?: Record<string, string>; repeat: { chunk: string; times: number } }
  /** `chunks` one at a time, `everyMs` apart: a body that trickles in. */
  | { status?: number; headers?: Record<string, string>; trickle: { chunks: string[]; everyMs: number } };

export interface Seen {
  path: string;
  /** The x-api-key header the request carried. */
  key: string | undefined;
}

export interface HostileServer {
  /** "http://127.0.0.1:PORT" (https for a TLS server). */
  origin: string;
  /** origin + "/v1": the base URL the client is given. */
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** The service's envelope around `results` (wire-notes 1: the body is a JSON string). */
export const envelope = (results: unknown): string =>
  JSON.stringify({ statusCode: 200, headers: {}, body: JSON.stringify({ results }) });

/** A datapoint record of the sandbox's shape. */
export function record(fields: Partial<Record<string, string | number>> = {}): Record<string, unknown> {
  return {
    ticker: "AAPL",
    year: 2023,
    period: 5,
    periodtype: "ANNUAL",
    periodstring: "ANNUAL",
    datapoint: "ROIC",
    datavalue: "0.12000000000000000",
    filingtype: "10-K",
    ...fields,
  };
}

async function send(res: http.ServerResponse, reply: Reply): Promise<void> {
  res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
  if ("body" in reply) {
    res.end(reply.body);
  } else if ("repeat" in reply) {
    const chunk = Buffer.from(reply.repeat.chunk);
    for (let i = 0; i < reply.repeat.times && !res.destroyed; i++) {
      if (!res.write(chunk)) {
        // The client stopped reading (it cancelled the body): stop writing when the socket closes.
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.on("drain", done);
          res.on("close", done);
        });
      }
    }
    res.end();
  } else {
    for (const chunk of reply.trickle.chunks) {
      if (res.destroyed) return;
      res.write(chunk);
      // The wait ends early when the client goes: a pending minute-long timer would keep jest's worker alive.
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          res.off("close", done);
          resolve();
        };
        const timer = setTimeout(done, reply.trickle.everyMs);
        res.on("close", done);
      });
    }
    res.end();
  }
}

/**
 * Starts a server answering each request with `script(path with query, server)`; with `tls` (PEM
 * certificate and key) it speaks https.
 */
export async function startHostile(
  script: (path: string, server: HostileServer) => Reply,
  tls?: { cert: string; key: string },
): Promise<HostileServer> {
  const sockets = new Set<import("node:net").Socket>();
  const server: HostileServer = { origin: "", baseUrl: "", seen: [], close: async () => undefined };
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = req.url ?? "";
    server.seen.push({ path, key: req.headers["x-api-key"] as string | undefined });
    let reply: Reply;
    try {
      reply = script(path, server);
    } catch (e) {
      reply = { status: 500, body: JSON.stringify({ message: `script failed: ${String(e)}` }) };
    }
    send(res, reply).catch(() => res.destroy());
  };
  const listener = tls ? https.createServer(tls, handler) : http.createServer(handler);
  listener.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  server.origin = `${tls ? "https" : "http"}://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  server.baseUrl = `${server.origin}/v1`;
  server.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      listener.close(() => resolve());
    });
  return server;
}
