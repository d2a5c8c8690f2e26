// Quota units per API key, metered with the vendor's rule (production-service.md, fact 11, the same rule as src/api/pricing.ts):
// one unit is one datapoint, for one security, for one period. A single-datapoint answer costs 1, an
// all-datapoints answer 1 per record it returns, every other successful call (coverage, sector, ratings,
// metadata) 1. Only 200 answers cost units. With a quota, a key whose units have reached it gets 429
// {"message":"Limit Exceeded"} without Retry-After (production-service.md, fact 12) until the month ends.
import { createHash } from "node:crypto";

/** The message of an API-gateway usage plan whose quota is spent (production-service.md, fact 12). */
export const LIMIT_EXCEEDED = "Limit Exceeded";

/** A short, stable tag for a key in /__usage: the first 8 hex digits of its SHA-256 (never the key itself). */
export const usageTag = (key: string): string => createHash("sha256").update(key).digest("hex").slice(0, 8);

/** Calendar month (UTC) of the clock: the quota period, reset on the first of the month. */
const monthOf = (now: Date): string => now.toISOString().slice(0, 7);

export class Meter {
  private readonly used = new Map<string, number>();
  private month: string | undefined;

  /**
   * @param quota units per key and calendar month; undefined meters without limiting
   * @param now the sandbox's clock
   */
  constructor(
    readonly quota: number | undefined,
    private readonly now: () => Date,
  ) {}

  /** Units the key has spent this month. */
  units(key: string): number {
    this.roll();
    return this.used.get(key) ?? 0;
  }

  /**
   * Whether the key's units have reached the quota. A request is served when its key had units left on
   * arrival, so one answer can take the key past the quota (an all-datapoints answer, or requests in flight
   * together), as a gateway that counts requests on arrival would.
   */
  exhausted(key: string): boolean {
    return this.quota !== undefined && this.units(key) >= this.quota;
  }

  charge(key: string, units: number): void {
    this.roll();
    this.used.set(key, (this.used.get(key) ?? 0) + units);
  }

  /** A new month starts every key at 0. */
  private roll(): void {
    const month = monthOf(this.now());
    if (month !== this.month) {
      this.used.clear();
      this.month = month;
    }
  }
}
