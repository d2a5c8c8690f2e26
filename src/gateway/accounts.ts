// What the gateway keeps per account (by account tag, never by key): the usage ledger, persisted in the
// store; and where the account's upstream requests wait: its share of the gateway's slots (fair-slots.ts),
// which holds state only while the account has requests upstream or waiting. With Redis both are shared by
// every instance (redis-ledger.ts, redis-slots.ts), each over this instance's own ledger and slots.
//
// Accounts are kept in an LRU bounded in count (lru-cache, already the store's): an account is created
// only once the service accepted its key (an answer other than 401/403 and 5xx), so a client sending a
// new key with each request creates nothing; the least recently used account is forgotten first, its
// ledger saved first (with a store or Redis it is read back when the key comes again; memory only, its
// count of the month is lost). A key not accepted yet waits for slots under its tag as its account will, so
// an account never exceeds its bound when its key is accepted.
import { LRUCache } from "lru-cache";
import {
  centralMonth,
  DEFAULTS,
  type KeyValueStore,
  nextMonthStart,
  UsageLedger,
  type UsageReport,
} from "../api";
import type { FairSlots, UpstreamSlots } from "./fair-slots";
import { ledgerStorageKey } from "./keys";
import { LocalLedger, type AccountLedger } from "./ledger";
import type { RedisKeyParts } from "./redis-keys";
import { RedisLedger } from "./redis-ledger";
import type { RedisLink } from "./redis-link";
import { RedisSlots } from "./redis-slots";
import type { Wakeups } from "./redis-wakeups";

export interface Account {
  readonly tag: string;
  readonly ledger: AccountLedger;
}

export interface AccountsOptions {
  /** Where the ledgers persist; undefined: memory only. */
  storage: KeyValueStore | undefined;
  /** The gateway's upstream slots, shared between the accounts (this instance's). */
  slots: FairSlots;
  /** The upstream timeout (how long a slot shared through Redis may be held). */
  timeoutMs: number;
  /** Accounts kept at once (default 10,000). */
  maxAccounts?: number;
  /** Shares the ledgers and the slots with the other instances; undefined: this instance alone. */
  redis: { link: RedisLink; wakeups: Wakeups; keys: RedisKeyParts } | undefined;
  now: () => number;
  onWarning: (message: string) => void;
}

interface Entry {
  account: Account;
  own: UsageLedger;
  dispose?: () => void;
}

export const DEFAULT_MAX_ACCOUNTS = 10_000;

export class Accounts {
  private readonly byTag: LRUCache<string, Entry>;

  constructor(private readonly o: AccountsOptions) {
    this.byTag = new LRUCache<string, Entry>({
      max: o.maxAccounts ?? DEFAULT_MAX_ACCOUNTS,
      // Forgotten: what it counted is saved (and then read back if the key comes again).
      dispose: (entry) => {
        entry.dispose?.();
        void entry.account.ledger.flush().catch(() => undefined);
      },
    });
  }

  /** Accounts kept now. */
  get size(): number {
    return this.byTag.size;
  }

  /** The account of `tag` if it is kept, its ledger loaded; never creates one. */
  async find(tag: string): Promise<Account | undefined> {
    const entry = this.byTag.get(tag);
    if (!entry) return undefined;
    await entry.own.ready;
    return entry.account;
  }

  /** The account of `tag`, its ledger loaded; created if needed (only for a key the service accepted). */
  async get(tag: string): Promise<Account> {
    let entry = this.byTag.get(tag);
    if (!entry) {
      entry = this.create(tag);
      this.byTag.set(tag, entry);
    }
    await entry.own.ready;
    return entry.account;
  }

  /**
   * When the quota of `tag` resets if it is spent (the account's ledger, or with Redis the mark another
   * instance left for a key this one has not kept), else undefined.
   */
  async stoppedUntil(tag: string): Promise<string | undefined> {
    const kept = await this.find(tag);
    if (kept) return (await kept.ledger.isExhausted()) ? kept.ledger.resetsOn : undefined;
    const redis = this.o.redis;
    if (!redis) return undefined;
    const month = centralMonth(this.o.now());
    const name = redis.keys.name({ kind: "ledger", tag, month });
    const marked = await redis.link.use(
      async (r) => redis.keys.open(name, await r.hget(name, "exhausted")) === "exhausted",
      () => false,
    );
    return marked ? nextMonthStart(month) : undefined;
  }

  /**
   * Where an upstream request of `tag` waits for a slot (an accepted key's account, or a key not accepted
   * yet): its share of this instance's slots, under the account's bound in Redis with --redis.
   */
  slots(tag: string): UpstreamSlots {
    const local = this.o.slots.account(tag);
    const redis = this.o.redis;
    if (!redis) return local;
    return new RedisSlots({
      redis: redis.link,
      wakeups: redis.wakeups,
      tag,
      concurrency: this.o.slots.perAccount,
      timeoutMs: this.o.timeoutMs,
      local,
      keys: redis.keys,
    });
  }

  /** The month's usage of `tag`: of its account, or as saved (zero if nothing is), creating nothing. */
  async report(tag: string): Promise<UsageReport> {
    const kept = await this.find(tag);
    if (kept) return kept.ledger.report();
    const entry = this.create(tag);
    try {
      await entry.own.ready;
      return await entry.account.ledger.report();
    } finally {
      entry.dispose?.();
    }
  }

  /**
   * Lifts the account's "Limit Exceeded" stop (`fdq usage --reset`): of the kept account, or of its saved
   * ledger (nothing is written, and nothing kept, for an account that is not stopped).
   */
  async reset(tag: string): Promise<void> {
    const kept = await this.find(tag);
    if (kept) {
      await kept.ledger.reset();
      return;
    }
    const entry = this.create(tag);
    try {
      await entry.own.ready;
      if (await entry.account.ledger.isExhausted()) {
        await entry.account.ledger.reset();
        await entry.account.ledger.flush();
      }
    } finally {
      entry.dispose?.();
    }
  }

  async flush(): Promise<void> {
    await Promise.all([...this.byTag.values()].map((e) => e.account.ledger.flush()));
  }

  private ownLedger(tag: string): UsageLedger {
    return new UsageLedger({
      storage: this.o.storage,
      storageKey: ledgerStorageKey(tag),
      now: this.o.now,
      persistDelayMs: DEFAULTS.persistDelayMs,
      onWarning: this.o.onWarning,
    });
  }

  /** A new entry (the caller keeps it in the LRU, or reads it and drops it, e.g. for a reset). */
  private create(tag: string): Entry {
    const own = this.ownLedger(tag);
    const redis = this.o.redis;
    if (!redis) return { account: { tag, ledger: new LocalLedger(own) }, own };
    const ledger = new RedisLedger(redis.link, tag, own, this.o.now, redis.keys);
    return { account: { tag, ledger }, own, dispose: () => ledger.dispose() };
  }
}
