// What the gateway keeps per account (by account tag, never by key): the usage ledger, persisted in the
// store, and the limiter that bounds the account's upstream requests.
import { DEFAULTS } from "../api/defaults";
import { Limiter } from "../api/limiter";
import type { KeyValueStore } from "../api/storage";
import { UsageLedger } from "../api/usage-ledger";

export interface Account {
  readonly tag: string;
  readonly ledger: UsageLedger;
  readonly limiter: Limiter;
}

export interface AccountsOptions {
  /** Where the ledgers persist; undefined: memory only. */
  storage: KeyValueStore | undefined;
  /** Upstream requests open at once per account. */
  concurrency: number;
  now: () => number;
  onWarning: (message: string) => void;
}

export class Accounts {
  private readonly byTag = new Map<string, Account>();

  constructor(private readonly o: AccountsOptions) {}

  /** The account of `tag`, its ledger loaded. */
  async get(tag: string): Promise<Account> {
    let account = this.byTag.get(tag);
    if (!account) {
      const ledger = new UsageLedger({
        storage: this.o.storage,
        storageKey: `${DEFAULTS.usageKey}.${tag}`,
        now: this.o.now,
        persistDelayMs: DEFAULTS.persistDelayMs,
        onWarning: this.o.onWarning,
      });
      account = { tag, ledger, limiter: new Limiter(this.o.concurrency) };
      this.byTag.set(tag, account);
    }
    await account.ledger.ready;
    return account;
  }

  async flush(): Promise<void> {
    await Promise.all([...this.byTag.values()].map((a) => a.ledger.flush()));
  }
}
