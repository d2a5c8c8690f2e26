// What the gateway keeps per account (by account tag, never by key): the usage ledger, persisted in the
// store, and the slots that bound the account's upstream requests. With Redis both are shared by every
// instance (redis-ledger.ts, redis-slots.ts), each over this instance's own ledger and Limiter.
import { DEFAULTS } from "../api/defaults";
import { Limiter } from "../api/limiter";
import type { KeyValueStore } from "../api/storage";
import { UsageLedger } from "../api/usage-ledger";
import { LocalLedger, type AccountLedger } from "./ledger";
import { RedisLedger } from "./redis-ledger";
import type { RedisLink } from "./redis-link";
import { RedisSlots, type UpstreamSlots } from "./redis-slots";
import type { Wakeups } from "./redis-wakeups";

export interface Account {
  readonly tag: string;
  readonly ledger: AccountLedger;
  readonly slots: UpstreamSlots;
}

export interface AccountsOptions {
  /** Where the ledgers persist; undefined: memory only. */
  storage: KeyValueStore | undefined;
  /** Upstream requests open at once per account (across instances with Redis). */
  concurrency: number;
  /** The upstream timeout (how long a shared slot may be held). */
  timeoutMs: number;
  /** Shares the ledgers and the slots with the other instances; undefined: this instance alone. */
  redis: { link: RedisLink; wakeups: Wakeups } | undefined;
  now: () => number;
  onWarning: (message: string) => void;
}

export class Accounts {
  private readonly byTag = new Map<string, { account: Account; own: UsageLedger }>();

  constructor(private readonly o: AccountsOptions) {}

  /** The account of `tag`, its ledger loaded. */
  async get(tag: string): Promise<Account> {
    let entry = this.byTag.get(tag);
    if (!entry) {
      const own = new UsageLedger({
        storage: this.o.storage,
        storageKey: `${DEFAULTS.usageKey}.${tag}`,
        now: this.o.now,
        persistDelayMs: DEFAULTS.persistDelayMs,
        onWarning: this.o.onWarning,
      });
      const limiter = new Limiter(this.o.concurrency);
      const redis = this.o.redis;
      const account: Account = redis
        ? {
            tag,
            ledger: new RedisLedger(redis.link, tag, own, this.o.now),
            slots: new RedisSlots({
              redis: redis.link,
              wakeups: redis.wakeups,
              tag,
              concurrency: this.o.concurrency,
              timeoutMs: this.o.timeoutMs,
              local: limiter,
            }),
          }
        : { tag, ledger: new LocalLedger(own), slots: limiter };
      entry = { account, own };
      this.byTag.set(tag, entry);
    }
    await entry.own.ready;
    return entry.account;
  }

  async flush(): Promise<void> {
    await Promise.all([...this.byTag.values()].map((e) => e.account.ledger.flush()));
  }
}
