// The gateway's connection to Redis (`--redis redis://HOST:PORT`), through ioredis: the maintained Redis
// client for Node (typed, reconnects by itself, runs Lua scripts by SHA). Redis is where several gateway
// instances share the day's answers, the in-flight locks, the upstream slots and the ledgers, but no
// analyst's request may fail or hang because it is gone: commands fail fast while it is unreachable
// (no offline queue, no retry of a command, short timeouts) and every caller has a local fallback
// (`use`). The log says once that sharing is off, and once that it is back.
import { Redis } from "ioredis";
import { GatewaySetupError } from "./errors";

export interface RedisLinkOptions {
  url: string;
  onWarning: (message: string) => void;
  /**
   * How long a command or a connection attempt may take before it counts as a failure (default 3 s). Only a
   * hung Redis waits this long (a closed connection fails at once); below 3 s, a busy server's event-loop
   * stall alone could time commands out whose answers are already there, and unshare needlessly.
   */
  timeoutMs?: number;
}

/** Where Redis is, for the log: host and port only (a URL may carry a password). Checks the URL. */
export function redisWhere(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new GatewaySetupError(`not a URL: give redis://HOST:PORT`, "--redis");
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new GatewaySetupError(
      `"${u.protocol}" is not redis: or rediss:; give redis://HOST:PORT`,
      "--redis",
    );
  }
  if (u.hostname === "") throw new GatewaySetupError("no host: give redis://HOST:PORT", "--redis");
  return `${u.hostname}:${u.port || "6379"}`;
}

/** How long commands are not tried after one failed on an open connection. */
const RETRY_AFTER_MS = 1_000;

export class RedisLink {
  readonly client: Redis;
  readonly where: string;
  /** What the log last said: sharing on, or off. */
  private said: "on" | "off" = "on";
  /** When a command last failed on an open connection (a Redis that hangs rather than closes). */
  private failedAt = -Infinity;
  private closed = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly o: RedisLinkOptions) {
    this.where = redisWhere(o.url);
    const timeoutMs = o.timeoutMs ?? 3_000;
    this.client = new Redis(o.url, {
      lazyConnect: true,
      // A command while disconnected fails at once instead of waiting in a queue for the reconnect...
      enableOfflineQueue: false,
      // ...and one cut off by a dropped connection is not resent: the caller's fallback answers instead.
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: timeoutMs,
      // Keeps trying to come back, at most once a second.
      retryStrategy: (times) => Math.min(times * 100, 1_000),
      // RESP2 works with every Redis a server may have (RESP3 needs Redis 6); nothing here needs RESP3.
      protocol: 2,
      // A closing gateway waits at most this long for a socket that does not close (default 2 s).
      disconnectTimeout: 200,
    });
    // ioredis reports connection errors as events; without a listener it prints each one to stderr.
    this.client.on("error", () => this.down());
    this.client.on("close", () => this.down());
    this.client.on("ready", () => {
      this.failedAt = -Infinity;
      this.up();
    });
  }

  /** Connects, waiting at most the connect timeout; unreachable at start is not fatal (sharing is off). */
  async connect(): Promise<void> {
    try {
      await this.client.connect();
    } catch {
      this.down();
    }
  }

  /** Whether commands can be sent now. */
  get online(): boolean {
    return this.client.status === "ready";
  }

  /**
   * Runs `op` on Redis, or `fallback` when Redis is unreachable or the command fails. After a failure on a
   * connection that stays open (a hung Redis: the command timed out) commands are not tried for a second,
   * so that requests do not each wait out the timeout.
   */
  async use<T>(op: (redis: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.online || performance.now() - this.failedAt < RETRY_AFTER_MS) {
      this.down();
      return fallback();
    }
    let result: T;
    try {
      result = await op(this.client);
    } catch {
      this.failedAt = performance.now();
      this.down();
      return fallback();
    }
    this.up(); // a hung Redis that answers again is back without a reconnect
    return result;
  }

  /** Called each time Redis is back after an outage (e.g. to push what was counted meanwhile). */
  onBack(listener: () => void): void {
    this.listeners.add(listener);
  }

  offBack(listener: () => void): void {
    this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true; // a deliberate close is no outage to report
    this.listeners.clear();
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private down(): void {
    if (this.said === "off" || this.closed) return;
    this.said = "off";
    this.o.onWarning(
      `fdq serve: Redis (${this.where}) is unreachable: answering without sharing (this instance's own ` +
        "answers, in-flight requests and ledger) until it is back.",
    );
  }

  private up(): void {
    if (this.said === "on" || this.closed) return;
    this.said = "on";
    this.o.onWarning(
      `fdq serve: Redis (${this.where}) is back: sharing answers, in-flight requests and the ledger again.`,
    );
    for (const listener of this.listeners) listener();
  }
}
