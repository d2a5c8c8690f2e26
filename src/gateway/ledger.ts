// The account's ledger as the gateway's routes use it: asynchronous, because with --redis it lives in Redis
// (redis-ledger.ts) for every instance; without, it is this process's UsageLedger (src/api/usage-ledger.ts).
import type { RequestKey, UsageLedger, UsageReport } from "../api";

export interface AccountLedger {
  /** Counts the units of an answer received now. */
  record(key: RequestKey, units: number): Promise<void>;
  /** Whether the service answered "Limit Exceeded" this month (to any instance). */
  isExhausted(): Promise<boolean>;
  markExhausted(): Promise<void>;
  /** Lifts the stop (`fdq usage --reset`): the plan was raised, or the vendor reset the quota early. */
  reset(): Promise<void>;
  /** The day the quota resets (the 1st of next month). */
  readonly resetsOn: string;
  report(): Promise<UsageReport>;
  /** Saves what is not saved yet. */
  flush(): Promise<void>;
}

/** One instance on its own: the UsageLedger, persisted in the store's usage.json. */
export class LocalLedger implements AccountLedger {
  constructor(readonly ledger: UsageLedger) {}

  async record(key: RequestKey, units: number): Promise<void> {
    this.ledger.record(key, units);
  }

  async isExhausted(): Promise<boolean> {
    return this.ledger.exhausted;
  }

  async markExhausted(): Promise<void> {
    this.ledger.markExhausted();
  }

  async reset(): Promise<void> {
    this.ledger.clearExhausted();
  }

  get resetsOn(): string {
    return this.ledger.resetsOn;
  }

  async report(): Promise<UsageReport> {
    return this.ledger.report();
  }

  flush(): Promise<void> {
    return this.ledger.flush();
  }
}
