// startSandbox: the FDQ sandbox on a local port, for tests, benchmarks, demos and `npm run sandbox`.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { createApp } from "./app";
import { answerClientErrors, MAX_HEADER_BYTES } from "./client-errors";
import { DEMO_API_KEY } from "./demo";
import type { FaultOptions } from "./faults";
import { universeFor } from "./universe";

export { DEMO_API_KEY, DEFAULT_SANDBOX_PORT } from "./demo";
export type { FaultOptions } from "./faults";

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Keys accepted besides the demo key. */
  apiKeys?: string[];
  /** Serve `body` as an object; default false: a JSON-encoded string as in production. */
  bodyAsObject?: boolean;
  /** Seed of the synthetic data (default 1): same seed, same answers. */
  seed?: number;
  /** The clock: decides which periods exist and the day of (SP) prices. */
  now?: () => Date;
  latencyMs?: number;
  /** Server-side concurrency cap; excess requests wait. */
  maxConcurrent?: number;
  faults?: FaultOptions;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:PORT/v1 (includes /v1). */
  baseUrl: string;
  port: number;
  demoKey: string;
  stats(): { requests: number };
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? "127.0.0.1";
  const seed = opts.seed ?? 1;
  const { app, stats } = createApp({
    context: {
      universe: universeFor(seed),
      seed,
      now: opts.now ?? (() => new Date()),
      bodyAsObject: opts.bodyAsObject ?? false,
    },
    seed,
    ...(opts.apiKeys ? { apiKeys: opts.apiKeys } : {}),
    ...(opts.latencyMs !== undefined ? { latencyMs: opts.latencyMs } : {}),
    ...(opts.maxConcurrent !== undefined ? { maxConcurrent: opts.maxConcurrent } : {}),
    ...(opts.faults ? { faults: opts.faults } : {}),
  });
  // createAdaptorServer builds a node:http server unless told otherwise.
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: host,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
  }) as Server;
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    demoKey: DEMO_API_KEY,
    stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
