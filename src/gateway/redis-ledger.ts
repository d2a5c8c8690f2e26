// The account's ledger shared by every instance (--redis): one Redis hash per account tag and US Central
// month, fields d:<day> and g:<group> counting units (HINCRBYFLOAT, so two instances never lose each
// other's counts) and `exhausted` once any instance met "Limit Exceeded", which then stops them all.
// This instance's own UsageLedger counts beside it: while Redis is unreachable it is what /usage reports
// and what remembers a spent quota. What was counted during an outage is pushed when Redis is back.
import {
  centralDay,
  nextMonthStart,
  usageGroupOf,
  type UsageLedger,
  type UsageReport,
} from "../api/usage-ledger";
import type { RequestKey } from "../api/request-key";
import type { AccountLedger } from "./ledger";
import { LEDGER_TTL_MS, redisKeys } from "./redis-keys";
import type { RedisLink } from "./redis-link";

/** Counts not yet in Redis, by month: field -> units, and whether the quota was found spent. */
interface Delta {
  counts: Map<string, number>;
  exhausted: boolean;
}

export class RedisLedger implements AccountLedger {
  private pending = new Map<string, Delta>();

  constructor(
    private readonly redis: RedisLink,
    private readonly tag: string,
    readonly local: UsageLedger,
    private readonly now: () => number,
  ) {
    redis.onBack(() => void this.push());
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
    if (this.local.exhausted) return true;
    const month = this.month();
    const shared = await this.redis.use(
      async (r) => (await r.hget(redisKeys.ledger(this.tag, month), "exhausted")) === "1",
      () => false,
    );
    // Another instance met "Limit Exceeded": remembered here too, so an outage does not lift the stop.
    if (shared) this.local.markExhausted();
    return shared;
  }

  async markExhausted(): Promise<void> {
    this.local.markExhausted();
    this.delta(this.month()).exhausted = true;
    await this.push();
  }

  get resetsOn(): string {
    return nextMonthStart(this.month());
  }

  async report(): Promise<UsageReport> {
    const month = this.month();
    const fields = await this.redis.use(
      (r) => r.hgetall(redisKeys.ledger(this.tag, month)),
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
      exhausted: fields.exhausted === "1" || this.local.exhausted,
      resetsOn: nextMonthStart(month),
    };
  }

  async flush(): Promise<void> {
    await this.push();
    await this.local.flush();
  }

  private month(): string {
    return centralDay(this.now()).slice(0, 7);
  }

  private delta(month: string): Delta {
    let delta = this.pending.get(month);
    if (!delta) {
      delta = { counts: new Map(), exhausted: false };
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
          const key = redisKeys.ledger(this.tag, month);
          for (const [field, units] of delta.counts) multi.hincrbyfloat(key, field, units);
          if (delta.exhausted) multi.hset(key, "exhausted", "1");
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
      into.exhausted ||= delta.exhausted;
    }
  }
}
