// startGateway: `fdq serve`, the FDQ gateway of a team: the built add-in and the FDQ service on one origin,
// the client's own key passed through or (team mode, tokensFile) the gateway's own key behind each
// analyst's gateway token, one refresh day's answers shared by everyone of an account, the account's
// ledger, and a stop after "Limit Exceeded". The embedded store (memory + files) by default; with a Redis
// URL the answers, in-flight locks, upstream slots and ledgers are shared by every instance on that Redis
// (falling back to this instance's own while it is unreachable), names and values there keyed and sealed
// with FDQ_GATEWAY_REDIS_SECRET. With a certificate and key it speaks https. It holds against a hostile
// client and a hostile upstream: impossible keys refused first, refused keys rate-limited per address,
// accounts bounded, one budget of upstream slots shared fairly between accounts and their analysts with
// one deadline per request, bodies in flight under one memory budget, only allowlisted upstream headers
// (docs/gateway.md).
import type { Server as HttpServer } from "node:http";
import https, { type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import {
  checkBaseUrl,
  DEFAULT_PRICING,
  DEFAULTS,
  type PricingOptions,
  type RefreshDayBoundary,
  RefreshDayClock,
  UPSTREAM_POLICY,
} from "../api";
import { FileStorage } from "../api/node";
import { Accounts } from "./accounts";
import { BodyBudget } from "./body-budget";
import { FailedKeys, type FailedKeysOptions } from "./failed-keys";
import { checkRedisSecret, RedisKeyParts, REDIS_SECRET_ENV } from "./redis-keys";
import { isBuilt, NOT_BUILT } from "./addin";
import { createGatewayApp } from "./app";
import { localFlights } from "./flights";
import { RedisFlights } from "./redis-flights";
import { RedisLink, redisWhere } from "./redis-link";
import { RedisAnswerStore } from "./redis-store";
import { Wakeups } from "./redis-wakeups";
import { EmbeddedStore } from "./store";
import { FairSlots, type SlotFigures } from "./fair-slots";
import { GatewaySetupError } from "./errors";
import { readTlsFiles } from "./tls";
import { GatewayTokens } from "./tokens";

export { isBuilt, NOT_BUILT, rewriteManifest } from "./addin";
export { hashToken, tokenLine } from "./tokens";
export { redisWhere } from "./redis-link";
export { REDIS_SECRET_ENV } from "./redis-keys";
export { GatewaySetupError } from "./errors";
export { HOSTED_PAGE_CSP } from "./security-headers";

/** Team mode asked for without the gateway's key (the server does not start). */
export const NO_UPSTREAM_KEY =
  "team mode (--tokens or FDQ_GATEWAY_TOKENS) needs the FDQ API key of the team in FDQ_UPSTREAM_API_KEY " +
  "in the gateway's environment; it is not set";

export const GATEWAY_DEFAULTS = {
  host: "127.0.0.1",
  port: 8080,
  /** Upstream requests open at once per account: the browsers' six connections per host. */
  concurrency: DEFAULTS.concurrency,
  /**
   * Upstream requests open at once for the whole gateway (per instance with Redis): ten accounts at their
   * six at once, and a bound on the sockets and timers a crowd of accounts can make the gateway hold.
   */
  upstreamSlots: 64,
  /** The upstream policy the add-in's client applies too (src/api/upstream-policy.ts): 30 s, 4 MB a body. */
  timeoutMs: UPSTREAM_POLICY.timeoutMs,
  maxBodyBytes: UPSTREAM_POLICY.maxBodyBytes,
  /** All upstream bodies in flight together, each charged 3 times its size (body-budget.ts). */
  maxInFlightBodyBytes: 128 * 1024 * 1024,
  maxMemoryBytes: 256 * 1024 * 1024,
  /** Team mode: redacting the team's key from one body; a longer one is not served (503). */
  redactionBudgetMs: 500,
} as const;

/** dist/ at the repository's root, where `npm run build` writes the add-in. */
export const DEFAULT_DIST_DIR = path.resolve(__dirname, "../../dist");

export interface GatewayOptions {
  /** The FDQ base URL including /v1: https, or http for localhost only. */
  upstream: string;
  /** 0 picks a free port (default 8080). */
  port?: number;
  host?: string;
  /** The URL clients reach the gateway at (default http://HOST:PORT); the manifest names it. */
  publicUrl?: string;
  /**
   * Team mode: the tokens file (`name:sha256hex` a line, re-read when it changes). Analysts present their
   * gateway token in x-api-key and `upstreamApiKey` goes upstream. Undefined: pass-through keys.
   */
  tokensFile?: string | undefined;
  /** Team mode: the FDQ API key of the team (FDQ_UPSTREAM_API_KEY); required with `tokensFile`. */
  upstreamApiKey?: string | undefined;
  /** Directory of the persisted answers and ledgers; undefined: memory only. */
  store?: string | undefined;
  /**
   * redis://HOST:PORT: the day's answers, in-flight locks, upstream slots and ledgers shared by every
   * instance on it. Undefined: this instance alone.
   */
  redis?: string | undefined;
  /** With `redis`: the secret every instance shares (default: FDQ_GATEWAY_REDIS_SECRET); 32+ characters. */
  redisSecret?: string | undefined;
  /** PEM certificate (chain) and private key files: https instead of http. Both or neither. */
  certFile?: string | undefined;
  keyFile?: string | undefined;
  distDir?: string;
  /** Upstream requests open at once per account (default 6; across instances with Redis). */
  concurrency?: number;
  /** Upstream requests open at once for this instance, all accounts together (default 64). */
  upstreamSlots?: number;
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxMemoryBytes?: number;
  /** Memory of all upstream bodies in flight together (default 128 MiB); over it, 503 with Retry-After. */
  maxInFlightBodyBytes?: number;
  redactionBudgetMs?: number;
  /** Accounts (keys the service accepted) kept at once (default 10,000). */
  maxAccounts?: number;
  /** Refused keys allowed per client address and window (default 20 a minute). */
  failedKeys?: FailedKeysOptions;
  refreshDay?: RefreshDayBoundary;
  pricing?: PricingOptions;
  now?: () => number;
  /** Access-log lines (default: stdout). */
  log?: (line: string) => void;
  /** Warnings and the start-up notes (default: stderr). */
  onWarning?: (message: string) => void;
}

export interface GatewayStats {
  /** Accounts (keys the service accepted) kept in memory. */
  accounts: number;
  /** Bytes of upstream bodies being read or answered now, and the most at once since the start. */
  bodyBytesInFlight: number;
  peakBodyBytesInFlight: number;
  /** The upstream slots now (what /healthz shows). */
  slots: SlotFigures;
}

export interface RunningGateway {
  /** Where the gateway listens, e.g. http://127.0.0.1:PORT (https:// with a certificate). */
  url: string;
  /** The URL the manifest names (--public-url, or `url`). */
  publicUrl: string;
  port: number;
  /** What the gateway holds now, for operators and tests: accounts kept, body bytes in flight and their peak, the upstream slots. */
  stats(): GatewayStats;
  /** Refuses new connections, lets the requests in flight finish, saves the ledgers and answers. */
  close(): Promise<void>;
}

/** Whether `host` is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Team mode on the network over plain http: the analysts' tokens travel in clear text. */
export const beyondLoopbackWithoutTls = (host: string): string =>
  `fdq serve: WARNING: team mode listens on ${host}, beyond this machine, over plain http: the analysts' ` +
  "gateway tokens and the answers cross the network unencrypted. Give --cert and --key (https), or put " +
  "a TLS proxy in front and listen on 127.0.0.1 (docs/gateway.md).";

/** A count of upstream slots, checked: a whole number of 1 or more. */
function slotCount(option: string, n: number): number {
  if (!Number.isInteger(n) || n < 1)
    throw new GatewaySetupError(`${option} must be a whole number of 1 or more (got ${n})`);
  return n;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const upstream = checkBaseUrl(options.upstream);
  const host = options.host ?? GATEWAY_DEFAULTS.host;
  const now = options.now ?? Date.now;
  const onWarning = options.onWarning ?? ((m: string) => process.stderr.write(`${m}\n`));
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  let team: { upstreamApiKey: string; tokens: GatewayTokens } | undefined;
  if (options.tokensFile !== undefined) {
    const upstreamApiKey = options.upstreamApiKey?.trim();
    if (!upstreamApiKey) throw new GatewaySetupError(NO_UPSTREAM_KEY);
    const tokens = new GatewayTokens(options.tokensFile, onWarning);
    if (tokens.size === 0)
      onWarning(`fdq serve: ${options.tokensFile} holds no token yet: every request gets 403.`);
    team = { upstreamApiKey, tokens };
  } else if (options.upstreamApiKey !== undefined) {
    throw new GatewaySetupError("an upstream API key is used only in team mode: give the tokens file too");
  }
  const tls = readTlsFiles(options.certFile, options.keyFile);
  // Shared with the other instances on one Redis: the connection, a second one for wake-ups, the secret.
  let shared: { link: RedisLink; wakeups: Wakeups; keys: RedisKeyParts } | undefined;
  if (options.redis !== undefined) {
    redisWhere(options.redis); // a URL that is not redis:// is said first
    const secret = checkRedisSecret(options.redisSecret ?? process.env[REDIS_SECRET_ENV]);
    const link = new RedisLink({ url: options.redis, onWarning });
    shared = { link, wakeups: new Wakeups(link), keys: new RedisKeyParts(secret, onWarning) };
  }
  const embedded = new EmbeddedStore({
    dir: options.store,
    maxMemoryBytes: options.maxMemoryBytes ?? GATEWAY_DEFAULTS.maxMemoryBytes,
    onWarning,
  });
  const store = shared ? new RedisAnswerStore(shared.link, embedded, shared.keys) : embedded;
  const timeoutMs = options.timeoutMs ?? GATEWAY_DEFAULTS.timeoutMs;
  const slots = new FairSlots(
    slotCount("upstreamSlots", options.upstreamSlots ?? GATEWAY_DEFAULTS.upstreamSlots),
    slotCount("concurrency", options.concurrency ?? GATEWAY_DEFAULTS.concurrency),
    timeoutMs,
  );
  const accounts = new Accounts({
    storage:
      options.store === undefined ? undefined : new FileStorage(path.join(options.store, "usage.json")),
    slots,
    timeoutMs,
    ...(options.maxAccounts !== undefined ? { maxAccounts: options.maxAccounts } : {}),
    redis: shared,
    now,
    onWarning,
  });
  const clock = new RefreshDayClock(options.refreshDay ?? DEFAULTS.refreshDay);
  await store.dropBefore(clock.label(now()));

  const budget = new BodyBudget(options.maxInFlightBodyBytes ?? GATEWAY_DEFAULTS.maxInFlightBodyBytes);
  // The public URL is known once the port is; the app reads it through this holder.
  const addin = { distDir, publicUrl: "" };
  const app = createGatewayApp({
    upstream,
    team,
    accounts,
    slots,
    store,
    flights: shared ? new RedisFlights(shared.link, shared.wakeups, shared.keys) : localFlights,
    clock,
    pricing: options.pricing ?? DEFAULT_PRICING,
    now,
    timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? GATEWAY_DEFAULTS.maxBodyBytes,
    budget,
    redactionBudgetMs: options.redactionBudgetMs ?? GATEWAY_DEFAULTS.redactionBudgetMs,
    failedKeys: new FailedKeys({ now, ...options.failedKeys }),
    https: tls !== undefined,
    get distDir() {
      return addin.distDir;
    },
    get publicUrl() {
      return addin.publicUrl;
    },
    log,
    onWarning,
  });
  const server: HttpServer | HttpsServer = tls
    ? (createAdaptorServer({
        fetch: app.fetch,
        hostname: host,
        createServer: https.createServer,
        serverOptions: tls,
      }) as HttpsServer)
    : (createAdaptorServer({ fetch: app.fetch, hostname: host }) as HttpServer);
  try {
    await shared?.link.connect();
    await shared?.wakeups.connect();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? GATEWAY_DEFAULTS.port, host, () => resolve());
    });
  } catch (e) {
    await shared?.wakeups.close();
    await shared?.link.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const local = `${tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  addin.publicUrl = (options.publicUrl ?? local).replace(/\/+$/, "");
  if (!isBuilt(distDir)) onWarning(`fdq serve: ${NOT_BUILT} (${distDir} holds no build).`);
  if (team && !tls && !isLoopback(host)) onWarning(beyondLoopbackWithoutTls(host));

  let closing: Promise<void> | undefined;
  return {
    url: local,
    publicUrl: addin.publicUrl,
    port,
    stats: () => ({
      accounts: accounts.size,
      bodyBytesInFlight: budget.inUse,
      peakBodyBytesInFlight: budget.maxInUse,
      slots: slots.figures(),
    }),
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        // New connections are refused at once; a request in flight finishes, and its connection is
        // closed as soon as it is idle (a keep-alive connection would otherwise hold the close for 5 s).
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close((err) => {
          clearInterval(idle);
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      }).then(async () => {
        await accounts.flush();
        await store.flush();
        await shared?.wakeups.close();
        await shared?.link.close();
      })),
  };
}
