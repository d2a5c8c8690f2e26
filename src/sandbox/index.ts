// startSandbox: the FDQ sandbox on a local port, for tests, benchmarks, demos and `npm run sandbox`.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { createApp } from "./app";
import { answerClientErrors, MAX_HEADER_BYTES } from "./client-errors";
import { CORS_MODES, type CorsMode } from "./cors-origin";
import { DEMO_API_KEY } from "./demo";
import type { EndpointNames } from "./endpoint-groups";
import type { FaultOptions } from "./faults";
import { parseRestatement } from "./restate";
import { NO_DATA_ANSWERS, type NoDataAnswer } from "./routes/shared";
import { universeFor } from "./universe";

export { DEMO_API_KEY, DEFAULT_SANDBOX_PORT } from "./demo";
export type { CorsMode } from "./cors-origin";
export type { EndpointNames } from "./endpoint-groups";
export type { FaultOptions } from "./faults";
export type { NoDataAnswer } from "./routes/shared";

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
  /**
   * Quota units per API key and calendar month (UTC), metered by the vendor's rule (production-service.md, fact 11): 1 per
   * single-datapoint answer, 1 per record of an all-datapoints answer, 1 per other successful call; errors
   * are free. A key that has reached it gets 429 {"message":"Limit Exceeded"} (no Retry-After). Usage is
   * metered (`usage()`, GET /__usage) with or without a quota.
   */
  quota?: number;
  /** Answer every /v1 request with 503 {"message":"Service Unavailable"} from 05:00 to 05:20 America/Chicago. */
  refreshWindow?: boolean;
  /** YYYY-MM-DD: from that UTC day of the clock on, the fiscal years before that day's year are restated. */
  restate?: string;
  /** `endpoints` of /v1/datapoint records: dataset paths ("paths", default) or production's group names. */
  endpointNames?: EndpointNames;
  /**
   * "permissive" (default): Access-Control-Allow-Origin on every answer (errors included) and 204 to preflights.
   * "off": as a service with no CORS support (production-service.md, fact 17): no CORS header on any answer, and a preflight
   * (OPTIONS with Access-Control-Request-Method) answers 403 {"message":"Forbidden"}; plain GETs work as before.
   */
  cors?: CorsMode;
  /**
   * How a period without data answers: "error" (default) 400 DataNotFound; "empty" 200 with no records;
   * "not-found" 404 {"message":"Not Found"}. The spec does not show it; a client must survive each.
   */
  noData?: NoDataAnswer;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:PORT/v1 (includes /v1). */
  baseUrl: string;
  port: number;
  demoKey: string;
  stats(): { requests: number };
  /** Quota units spent this month by the key (default: the demo key). */
  usage(key?: string): number;
  close(): Promise<void>;
}

/** How long an idle kept-alive connection stays open (advertised in the Keep-Alive header). */
const SERVER_KEEP_ALIVE_MS = 65_000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? "127.0.0.1";
  const seed = opts.seed ?? 1;
  if (opts.quota !== undefined && !(opts.quota >= 0))
    throw new Error(`quota must be >= 0, got ${opts.quota}`);
  if (opts.endpointNames !== undefined && !["paths", "groups"].includes(opts.endpointNames))
    throw new Error(`endpointNames must be "paths" or "groups", got "${String(opts.endpointNames)}"`);
  if (opts.cors !== undefined && !CORS_MODES.includes(opts.cors))
    throw new Error(`cors must be "permissive" or "off", got "${String(opts.cors)}"`);
  const cors = opts.cors ?? "permissive";
  if (opts.noData !== undefined && !NO_DATA_ANSWERS.includes(opts.noData))
    throw new Error(`noData must be "error", "empty" or "not-found", got "${String(opts.noData)}"`);
  const { app, stats, usage } = createApp({
    context: {
      universe: universeFor(seed),
      seed,
      now: opts.now ?? (() => new Date()),
      bodyAsObject: opts.bodyAsObject ?? false,
      endpointNames: opts.endpointNames ?? "paths",
      ...(opts.restate !== undefined ? { restatement: parseRestatement(opts.restate) } : {}),
      ...(opts.noData !== undefined ? { noData: opts.noData } : {}),
    },
    seed,
    ...(opts.quota !== undefined ? { quota: opts.quota } : {}),
    refreshWindow: opts.refreshWindow ?? false,
    cors,
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
  answerClientErrors(server, cors);
  // Node's default (5 s) races undici, which reuses an idle socket until 1 s before the advertised timeout: on a
  // busy machine a request was written to a socket the server was closing (ECONNRESET). At 65 s a test run's
  // sockets are reused long before either side closes them; close() still ends every connection at once.
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
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
    usage: (key = DEMO_API_KEY) => usage(key),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
