// The account's upstream requests open at once, bounded across every instance (--redis): a counting
// semaphore in Redis, a sorted set of holders scored by their expiry, taken and given back by two small Lua
// scripts (atomic, timed by Redis's own clock so that the instances' clocks do not matter). A holder that
// dies frees its slot at its expiry, which is the upstream timeout plus a margin: a request never holds a
// slot longer. Ten lines of Lua instead of a semaphore package: the package would add a dependency for
// the same two scripts. Each holder is named by its analyst (an HMAC under the instances' secret, never the
// name or address) and a random id, so that the account's last free slot is kept, across instances too,
// for an analyst with nothing upstream (the rule fair-slots.ts applies within an instance). Each instance
// first queues in its own slots (fair-slots.ts: the gateway's budget, shared fairly between accounts and
// analysts), so at most `concurrency` requests of an account on an instance wait for a slot here: they try
// again when a slot is given back (a notice through redis-wakeups.ts) or every 100 ms, until the request's
// deadline. Redis unreachable: the local bounds only.
import { randomUUID } from "node:crypto";
import { deadlinePassed } from "./errors";
import type { SlotGrant, UpstreamSlots } from "./fair-slots";
import type { RedisKeyParts } from "./redis-keys";
import type { RedisLink } from "./redis-link";
import type { Wakeups } from "./redis-wakeups";

/**
 * Drops expired holders, then takes a slot for holder ARGV[3] of analyst ARGV[4] if fewer than ARGV[1] are
 * held and, when only the last one is free, the analyst holds none: 1 taken, 0 not.
 */
const ACQUIRE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local cap = tonumber(ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if held >= cap then return 0 end
local prefix = ARGV[4] .. ':'
if cap >= 2 and held == cap - 1 then
  for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if string.sub(m, 1, #prefix) == prefix then return 0 end
  end
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), prefix .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

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
  /** The account's slots of this instance. */
  local: UpstreamSlots;
  wakeups: Wakeups;
  keys: RedisKeyParts;
}

export class RedisSlots implements UpstreamSlots {
  constructor(private readonly o: RedisSlotsOptions) {}

  run<T>(party: string, deadline: number, task: (grant: SlotGrant) => Promise<T>): Promise<T> {
    return this.o.local.run(party, deadline, async (grant) => {
      const holder = await this.acquire(party, deadline);
      try {
        return await task(grant);
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

  /** The slot's holder (member of the set), or undefined when Redis is unreachable (the local bounds then hold alone). */
  private async acquire(party: string, deadline: number): Promise<string | undefined> {
    const id = randomUUID();
    const analyst = this.o.keys.part("party", party);
    const key = this.o.keys.name({ kind: "slots", tag: this.o.tag });
    const ttl = this.o.timeoutMs + MARGIN_MS;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) throw deadlinePassed(this.o.timeoutMs, true);
      const { woken, cancel } = this.o.wakeups.arm(key, Math.min(TRY_AGAIN_MS, left));
      const taken = await this.o.redis.use(
        async (r) => Number(await r.eval(ACQUIRE, 1, key, this.o.concurrency, ttl, id, analyst)) === 1,
        () => undefined,
      );
      if (taken !== false) {
        cancel();
        return taken === undefined ? undefined : `${analyst}:${id}`;
      }
      await woken;
    }
  }
}
