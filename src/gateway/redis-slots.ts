// The account's upstream requests open at once, bounded across every instance (--redis): a counting
// semaphore in Redis, a sorted set of holders scored by their expiry, taken and given back by two small Lua
// scripts (atomic, timed by Redis's own clock so that the instances' clocks do not matter). A holder that
// dies frees its slot at its expiry, which is the upstream timeout plus a margin: a request never holds a
// slot longer. Ten lines of Lua instead of a semaphore package: the package would add a dependency for
// the same two scripts. Each instance first queues in its own FairSlots (the same bound, shared fairly
// between analysts), so at most `concurrency` requests of an instance wait for a slot: they try again when a
// slot is given back (a notice through redis-wakeups.ts) or every 100 ms, until the request's deadline.
// Redis unreachable: the local bound only.
import { randomUUID } from "node:crypto";
import { deadlinePassed } from "./errors";
import type { FairSlots, UpstreamSlots } from "./fair-slots";
import type { RedisKeyParts } from "./redis-keys";
import type { RedisLink } from "./redis-link";
import type { Wakeups } from "./redis-wakeups";

/** Drops expired holders, then takes a slot if fewer than ARGV[1] are held: 1 taken, 0 not. */
const ACQUIRE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

/** A waiter tries again this often without a notice (one lost in a reconnect, or an expired holder). */
const TRY_AGAIN_MS = 100;
/** Beyond the upstream timeout: the body is read within it too. */
const MARGIN_MS = 5_000;

export interface RedisSlotsOptions {
  redis: RedisLink;
  tag: string;
  concurrency: number;
  /** The upstream timeout: no request holds a slot longer (plus a margin). */
  timeoutMs: number;
  local: FairSlots;
  wakeups: Wakeups;
  keys: RedisKeyParts;
}

export class RedisSlots implements UpstreamSlots {
  constructor(private readonly o: RedisSlotsOptions) {}

  run<T>(party: string, deadline: number, task: () => Promise<T>): Promise<T> {
    return this.o.local.run(party, deadline, async () => {
      const holder = await this.acquire(deadline);
      try {
        return await task();
      } finally {
        if (holder !== undefined) {
          const key = this.o.keys.name({ kind: "slots", tag: this.o.tag });
          await this.o.redis.use(
            (r) => r.zrem(key, holder),
            () => 0,
          );
          await this.o.wakeups.notify(key);
        }
      }
    });
  }

  /** A slot's holder id, or undefined when Redis is unreachable (the local bound then holds alone). */
  private async acquire(deadline: number): Promise<string | undefined> {
    const holder = randomUUID();
    const key = this.o.keys.name({ kind: "slots", tag: this.o.tag });
    const ttl = this.o.timeoutMs + MARGIN_MS;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) throw deadlinePassed(this.o.timeoutMs, true);
      const { woken, cancel } = this.o.wakeups.arm(key, Math.min(TRY_AGAIN_MS, left));
      const taken = await this.o.redis.use(
        async (r) => Number(await r.eval(ACQUIRE, 1, key, this.o.concurrency, ttl, holder)) === 1,
        () => undefined,
      );
      if (taken !== false) {
        cancel();
        return taken === undefined ? undefined : holder;
      }
      await woken;
    }
  }
}
