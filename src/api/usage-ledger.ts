// The usage ledger: quota units of the answers received, per account tag and calendar month, kept beside
// the cache (the same store: IndexedDB or OfficeRuntime.storage in Excel, the CLI's cache file, a server's
// store). The vendor's quota resets on the 1st of the month, US Central (production-service.md, fact 11), and the service
// reports no usage, so the client counts: refused requests cost nothing. The ledger also remembers that
// the quota was found spent this month, so no request is sent until the month turns or the user says
// the plan was raised.
import { BatchedWrites } from "./batched-writes";
import { centralDay, centralMonth, nextMonthStart } from "./vendor-clock";
import type { RequestKey } from "./request-key";
import { isRecordStore, whenOpened } from "./cache-store/record-store";
import type { KeyValueStore } from "./storage";

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

const sum = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
  const out = { ...a };
  for (const [k, n] of Object.entries(b)) add(out, k, n);
  return out;
};

/** Units counted here and not saved yet, and a change of the "spent" flag. */
interface Delta {
  month: string;
  byDay: Record<string, number>;
  byDataset: Record<string, number>;
  exhausted: boolean | undefined;
}

const emptyStored = (month: string): Stored => ({ v: 1, month, byDay: {}, byDataset: {}, exhausted: false });
const emptyDelta = (month: string): Delta => ({ month, byDay: {}, byDataset: {}, exhausted: undefined });

/** The stored ledger with a delta added (a stored ledger of another month counts as empty). */
function merge(stored: Stored | undefined, d: Delta): Stored {
  const base = stored && stored.month === d.month ? stored : emptyStored(d.month);
  return {
    v: 1,
    month: d.month,
    byDay: sum(base.byDay, d.byDay),
    byDataset: sum(base.byDataset, d.byDataset),
    exhausted: d.exhausted ?? base.exhausted,
  };
}

export interface UsageLedgerOptions {
  storage: KeyValueStore | undefined;
  /** Storage key of this account's ledger (it holds the account tag, never the key). */
  storageKey: string;
  now: () => number;
  persistDelayMs: number;
  onWarning: (message: string) => void;
}

/**
 * The month's units: the ledger as last read from the store plus what this runtime counted since. A save
 * adds this runtime's delta to the stored ledger in one read-modify-write under the store's lock (a
 * RecordStore: navigator.locks in Excel, the file lock in the CLI), so two workbooks or two `fdq` runs that
 * count at once both keep their units (issue 12); a plain store gets the same read-add-write, unlocked.
 */
export class UsageLedger {
  private base: Stored;
  private delta: Delta;
  private readonly writes: BatchedWrites;
  /** o.storage, or its fallback where it cannot be opened (the day cache warns of that). */
  private storage: KeyValueStore | undefined;
  readonly ready: Promise<void>;

  constructor(private readonly o: UsageLedgerOptions) {
    this.storage = o.storage;
    const month = centralMonth(o.now());
    this.base = emptyStored(month);
    this.delta = emptyDelta(month);
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
    add(this.delta.byDay, day, units);
    add(this.delta.byDataset, usageGroupOf(key), units);
    this.schedule();
  }

  /** Whether the quota is known to be spent this month (a new month clears it). */
  get exhausted(): boolean {
    this.rollover();
    return this.delta.exhausted ?? this.base.exhausted;
  }

  markExhausted(): void {
    if (this.exhausted) return;
    this.delta.exhausted = true;
    this.schedule();
  }

  /** The user says the plan was raised: requests may be sent again. */
  clearExhausted(): void {
    this.rollover();
    this.delta.exhausted = false;
    this.schedule();
  }

  get resetsOn(): string {
    this.rollover();
    return nextMonthStart(this.base.month);
  }

  report(): UsageReport {
    this.rollover();
    const now = merge(this.base, this.delta);
    const units = Object.values(now.byDay).reduce((a, b) => a + b, 0);
    return {
      month: now.month,
      units,
      byDay: now.byDay,
      byDataset: now.byDataset,
      exhausted: now.exhausted,
      resetsOn: nextMonthStart(now.month),
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
    if (month !== this.base.month) {
      this.base = emptyStored(month);
      this.delta = emptyDelta(month);
    }
    return day;
  }

  private async load(): Promise<void> {
    const opening = whenOpened(this.o.storage);
    if (opening) this.storage = (await opening).store;
    if (!this.storage) return;
    let stored: Stored | undefined;
    try {
      const text = await this.storage.get(this.o.storageKey);
      stored = parseStored(text ?? (await this.importLegacy()));
    } catch (e) {
      this.o.onWarning(
        `The FDQ usage ledger could not be read (${(e as Error).message}); counting from zero.`,
      );
      return;
    }
    this.rollover();
    // Units counted before the load finished stay in the delta, added to the stored ones.
    if (stored && stored.month === this.base.month) this.base = stored;
  }

  /**
   * The ledger an earlier version kept in the record store's legacy store (OfficeRuntime.storage before
   * IndexedDB), moved over once so the month's count does not restart; never fails the load.
   */
  private async importLegacy(): Promise<string | undefined> {
    const storage = this.storage;
    if (!isRecordStore(storage) || !storage.legacy) return undefined;
    const legacy = storage.legacy;
    try {
      const old = await legacy.get(this.o.storageKey);
      if (typeof old !== "string") return undefined;
      let now: string | undefined;
      await storage.update(this.o.storageKey, (current) => (now = current ?? old));
      await legacy.remove(this.o.storageKey);
      return now;
    } catch {
      return undefined;
    }
  }

  private schedule(): void {
    if (this.storage) this.writes.schedule();
  }

  private async write(): Promise<void> {
    await this.ready;
    const storage = this.storage;
    if (!storage) return;
    this.rollover();
    const delta = this.delta;
    this.delta = emptyDelta(delta.month);
    let saved: Stored | undefined;
    const apply = (old: string | null | undefined): string => {
      saved = merge(parseStored(old), delta);
      return JSON.stringify(saved);
    };
    try {
      if (isRecordStore(storage)) await storage.update(this.o.storageKey, apply);
      else await storage.set(this.o.storageKey, apply(await storage.get(this.o.storageKey)));
    } catch (e) {
      // Not saved: the units stay counted here and go with the next save.
      if (this.delta.month === delta.month) this.delta = mergeDeltas(delta, this.delta);
      throw e;
    }
    // The store's ledger now holds every runtime's units, this one's included.
    if (saved && saved.month === this.base.month) this.base = saved;
  }
}

function mergeDeltas(a: Delta, b: Delta): Delta {
  return {
    month: a.month,
    byDay: sum(a.byDay, b.byDay),
    byDataset: sum(a.byDataset, b.byDataset),
    exhausted: b.exhausted ?? a.exhausted,
  };
}
