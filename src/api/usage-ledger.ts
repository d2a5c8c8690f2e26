// The usage ledger: quota units of the answers received, per account tag and calendar month, kept beside
// the cache (the same KeyValueStore: OfficeRuntime.storage in Excel, the CLI's cache file, a server's
// store). The vendor's quota resets on the 1st of the month, US Central (wire-notes 11), and the service
// reports no usage, so the client counts: refused requests cost nothing. The ledger also remembers that
// the quota was found spent this month, so no request is sent until the month turns or the user says
// the plan was raised.
import { BatchedWrites } from "./batched-writes";
import type { RequestKey } from "./request-key";
import type { KeyValueStore } from "./storage";

/** The vendor's quota calendar. */
export const QUOTA_TIME_ZONE = "America/Chicago";

export interface UsageReport {
  /** YYYY-MM in US Central time. */
  month: string;
  units: number;
  /** Units by US Central day (YYYY-MM-DD). */
  byDay: Record<string, number>;
  /** Units by dataset path, or by endpoint for the others (ratings, sector, security, coverage, metadata). */
  byDataset: Record<string, number>;
  /** The service answered "Limit Exceeded" this month and the user has not said the plan was raised. */
  exhausted: boolean;
  /** The day the quota resets (the 1st of next month). */
  resetsOn: string;
}

interface Stored {
  v: 1;
  month: string;
  byDay: Record<string, number>;
  byDataset: Record<string, number>;
  exhausted: boolean;
}

let dayFormat: Intl.DateTimeFormat | undefined;

/** YYYY-MM-DD of `ms` in US Central time. */
export function centralDay(ms: number): string {
  dayFormat ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: QUOTA_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return dayFormat.format(ms);
}

/** The first day of the month after `month` (YYYY-MM). */
export function nextMonthStart(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/** What a request's units are reported under. */
export function usageGroupOf(key: RequestKey): string {
  const f = key.fields;
  return f.endpoint === "data" ? f.dataset.path : f.endpoint;
}

const isCounts = (o: unknown): o is Record<string, number> =>
  typeof o === "object" &&
  o !== null &&
  !Array.isArray(o) &&
  Object.values(o).every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);

function parseStored(text: string | null | undefined): Stored | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const o = JSON.parse(text) as Partial<Stored>;
    if (o.v !== 1 || typeof o.month !== "string" || !isCounts(o.byDay) || !isCounts(o.byDataset))
      return undefined;
    return { v: 1, month: o.month, byDay: o.byDay, byDataset: o.byDataset, exhausted: o.exhausted === true };
  } catch {
    return undefined;
  }
}

const add = (counts: Record<string, number>, name: string, n: number): void => {
  counts[name] = (counts[name] ?? 0) + n;
};

export interface UsageLedgerOptions {
  storage: KeyValueStore | undefined;
  /** Storage key of this account's ledger (it holds the account tag, never the key). */
  storageKey: string;
  now: () => number;
  persistDelayMs: number;
  onWarning: (message: string) => void;
}

export class UsageLedger {
  private month: string;
  private byDay: Record<string, number> = {};
  private byDataset: Record<string, number> = {};
  private exhaustedFlag = false;
  private readonly writes: BatchedWrites;
  readonly ready: Promise<void>;

  constructor(private readonly o: UsageLedgerOptions) {
    this.month = centralDay(o.now()).slice(0, 7);
    this.writes = new BatchedWrites(
      o.persistDelayMs,
      () => this.write(),
      (e) => o.onWarning(`The FDQ usage ledger could not be saved (${e.message}).`),
    );
    this.ready = this.load();
  }

  /** Counts the units of an answer received now. */
  record(key: RequestKey, units: number): void {
    if (units <= 0) return;
    const day = this.rollover();
    add(this.byDay, day, units);
    add(this.byDataset, usageGroupOf(key), units);
    this.schedule();
  }

  /** Whether the quota is known to be spent this month (a new month clears it). */
  get exhausted(): boolean {
    this.rollover();
    return this.exhaustedFlag;
  }

  markExhausted(): void {
    this.rollover();
    if (this.exhaustedFlag) return;
    this.exhaustedFlag = true;
    this.schedule();
  }

  /** The user says the plan was raised: requests may be sent again. */
  clearExhausted(): void {
    this.exhaustedFlag = false;
    this.schedule();
  }

  get resetsOn(): string {
    this.rollover();
    return nextMonthStart(this.month);
  }

  report(): UsageReport {
    this.rollover();
    const units = Object.values(this.byDay).reduce((a, b) => a + b, 0);
    return {
      month: this.month,
      units,
      byDay: { ...this.byDay },
      byDataset: { ...this.byDataset },
      exhausted: this.exhaustedFlag,
      resetsOn: nextMonthStart(this.month),
    };
  }

  async flush(): Promise<void> {
    await this.ready;
    if (this.writes.scheduled) await this.writes.now();
    await this.writes.settled();
  }

  /** Today's US Central day; entering a new month starts the ledger afresh. */
  private rollover(): string {
    const day = centralDay(this.o.now());
    const month = day.slice(0, 7);
    if (month !== this.month) {
      this.month = month;
      this.byDay = {};
      this.byDataset = {};
      this.exhaustedFlag = false;
    }
    return day;
  }

  private async load(): Promise<void> {
    if (!this.o.storage) return;
    let stored: Stored | undefined;
    try {
      stored = parseStored(await this.o.storage.get(this.o.storageKey));
    } catch (e) {
      this.o.onWarning(
        `The FDQ usage ledger could not be read (${(e as Error).message}); counting from zero.`,
      );
      return;
    }
    this.rollover();
    if (!stored || stored.month !== this.month) return;
    // Units counted before the load finished are added to the stored ones.
    for (const [d, n] of Object.entries(stored.byDay)) add(this.byDay, d, n);
    for (const [d, n] of Object.entries(stored.byDataset)) add(this.byDataset, d, n);
    this.exhaustedFlag ||= stored.exhausted;
  }

  private schedule(): void {
    if (this.o.storage) this.writes.schedule();
  }

  private async write(): Promise<void> {
    const storage = this.o.storage;
    if (!storage) return;
    await this.ready;
    const stored: Stored = {
      v: 1,
      month: this.month,
      byDay: this.byDay,
      byDataset: this.byDataset,
      exhausted: this.exhaustedFlag,
    };
    await storage.set(this.o.storageKey, JSON.stringify(stored));
  }
}
