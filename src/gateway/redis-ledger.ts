// The account's ledger shared by every instance (--redis): one Redis hash per account tag and US Central
// month, fields d:<day> and g:<group> counting units (HINCRBYFLOAT, so two instances never lose each
// other's counts) and `exhausted` once any instance met "Limit Exceeded", which then stops them all.
// This instance's own UsageLedger counts beside it: while Redis is unreachable it is what /usage reports
// and what remembers a spent quota. What was counted during an outage is pushed when Redis is back.
import {
  centralDay,
  centralMonth,
  nextMonthStart,
  type RequestKey,
  usageGroupOf,
  type UsageLedger,
  type UsageReport,
} from "../api";
import type { AccountLedger } from "./ledger";
import { LEDGER_TTL_MS, type RedisKeyParts } from "./redis-keys";
import type { RedisLink } from "./redis-link";

/** Counts not yet in Redis, by month: field -> units, and whether the quota was found spent. */
interface Delta {
  counts: Map<string, number>;
  exhausted: boolean;
  /** `fdq usage --reset` (POST /usage/reset): the mark is removed. */
  reset: boolean;
}

export class RedisLedger implements AccountLedger {
  private pending = new Map<string, Delta>();

  constructor(
    private readonly redis: RedisLink,
    private readonly tag: string,
    readonly local: UsageLedger,
    private readonly now: () => number,
    private readonly keys: RedisKeyParts,
  ) {
    redis.onBack(this.onBack);
  }

  private readonly onBack = (): void => void this.push();

  /** The account is forgotten (accounts.ts): Redis coming back no longer pushes for it. */
  dispose(): void {
    this.redis.offBack(this.onBack);
  }

  async record(key: RequestKey, units: number): Promise<void> {
    if (units <= 0) return;
    this.local.record(key, units);
    const day = centralDay(this.now());
    const delta = this.delta(day.slice(0, 7));
    for (const field of [`d:${day}`, `g:${usageGroupOf(key)}`])
      delta.counts.set(field, (delta.counts.get(field) ?? 0) + units);
    await this.push();
  }

  async isExhausted(): Promise<boolean> {
    const month = this.month();
    if (this.pending.get(month)?.exhausted) return true; // met here, not yet in Redis
    const shared = await this.redis.use(
      async (r) =>
        this.isMark(
          month,
          await r.hget(this.keys.name({ kind: "ledger", tag: this.tag, month }), "exhausted"),
        ),
      () => undefined,
    );
    if (shared === undefined) return this.local.exhausted;
    // Redis is the truth while it answers: another instance met "Limit Exceeded" (remembered here too, so
    // an outage does not lift the stop), or reset it (lifted here too).
    if (shared) this.local.markExhausted();
    else if (this.local.exhausted) this.local.clearExhausted();
    return shared;
  }

  async markExhausted(): Promise<void> {
    this.local.markExhausted();
    const delta = this.delta(this.month());
    delta.exhausted = true;
    delta.reset = false;
    await this.push();
  }

  async reset(): Promise<void> {
    this.local.clearExhausted();
    const delta = this.delta(this.month());
    delta.exhausted = false;
    delta.reset = true;
    await this.push();
  }

  get resetsOn(): string {
    return nextMonthStart(this.month());
  }

  async report(): Promise<UsageReport> {
    const month = this.month();
    const fields = await this.redis.use(
      (r) => r.hgetall(this.keys.name({ kind: "ledger", tag: this.tag, month })),
      () => undefined,
    );
    if (fields === undefined) return this.local.report();
    const byDay: Record<string, number> = {};
    const byDataset: Record<string, number> = {};
    for (const [field, value] of Object.entries(fields)) {
      const n = Number(value);
      if (field.startsWith("d:")) byDay[field.slice(2)] = n;
      else if (field.startsWith("g:")) byDataset[field.slice(2)] = n;
    }
    return {
      month,
      units: Object.values(byDay).reduce((a, b) => a + b, 0),
      byDay,
      byDataset,
      exhausted: this.isMark(month, fields.exhausted) || this.local.exhausted,
      resetsOn: nextMonthStart(month),
    };
  }

  async flush(): Promise<void> {
    await this.push();
    await this.local.flush();
  }

  /** Whether `value` is the sealed "quota spent" mark of the month's ledger (anything else is not). */
  private isMark(month: string, value: string | null | undefined): boolean {
    if (value === null || value === undefined) return false;
    return this.keys.open(this.keys.name({ kind: "ledger", tag: this.tag, month }), value) === "exhausted";
  }

  private month(): string {
    return centralMonth(this.now());
  }

  private delta(month: string): Delta {
    let delta = this.pending.get(month);
    if (!delta) {
      delta = { counts: new Map(), exhausted: false, reset: false };
      this.pending.set(month, delta);
    }
    return delta;
  }

  /** Sends the pending counts in one transaction; what cannot be sent stays pending for the next push. */
  private async push(): Promise<void> {
    if (this.pending.size === 0) return;
    const sending = this.pending;
    this.pending = new Map();
    const sent = await this.redis.use(
      async (r) => {
        const multi = r.multi();
        for (const [month, delta] of sending) {
          const key = this.keys.name({ kind: "ledger", tag: this.tag, month });
          for (const [field, units] of delta.counts) multi.hincrbyfloat(key, field, units);
          if (delta.reset) multi.hdel(key, "exhausted");
          if (delta.exhausted) multi.hset(key, "exhausted", this.keys.seal(key, "exhausted"));
          multi.pexpire(key, LEDGER_TTL_MS);
        }
        // A command's own error (none is expected of these) is not retried: the others were applied.
        await multi.exec();
        return true;
      },
      () => false,
    );
    if (sent) return;
    for (const [month, delta] of sending) {
      const into = this.delta(month);
      for (const [field, units] of delta.counts)
        into.counts.set(field, (into.counts.get(field) ?? 0) + units);
      // A mark or reset made since this push started is newer: it wins.
      if ((delta.exhausted || delta.reset) && !into.exhausted && !into.reset) {
        into.exhausted = delta.exhausted;
        into.reset = delta.reset;
      }
    }
  }
}
