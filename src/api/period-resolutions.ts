// The latest periods found per ticker and period kind, kept in the cache's store beside the day's answers
// (its own record, like the usage ledger). A resolution of today's refresh day answers FY0/FQ0/LTM with no
// request, as the day's answers do; one of an earlier day is where tomorrow's search starts (the latest year
// rarely moves, and never by more than a period or two between refreshes). The day cache is not the home for
// it: under the strict policy a new refresh day drops every answer of the previous one, and the previous
// day's resolution is exactly what the new day needs. An inactive stock's resolution is final: it no longer
// files, so it is never searched again.
import { BatchedWrites } from "./batched-writes";
import { isRecordStore, whenOpened } from "./cache-store/record-store";
import type { KeyValueStore } from "./storage";
import type { PeriodKind } from "../catalog";

export interface Resolution {
  /** periodIndex of the latest period of the kind (a year, or year * 4 + quarter - 1). */
  readonly index: number;
  /** The refresh day it was found on. */
  readonly day: string;
  /** An inactive stock's: valid every day. */
  readonly final: boolean;
}

interface Stored {
  v: 1;
  scope: string;
  /** "TICKER|kind" -> [index, day, final (1) or not (0)]. */
  entries: Record<string, [number, string, number]>;
}

/** Most resolutions kept (least recently found dropped): far above a model's tickers times three kinds. */
const MAX_ENTRIES = 20_000;

const dayBefore = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const keyOf = (ticker: string, kind: PeriodKind): string => `${ticker}|${kind}`;
const PERIOD_KINDS: readonly PeriodKind[] = ["annual", "quarter", "ttm"];

function parse(text: string | null | undefined, scope: string): Stored["entries"] {
  if (typeof text !== "string") return {};
  try {
    const o = JSON.parse(text) as Partial<Stored>;
    if (o.v !== 1 || o.scope !== scope || typeof o.entries !== "object" || o.entries === null) return {};
    const out: Stored["entries"] = {};
    for (const [k, e] of Object.entries(o.entries)) {
      if (
        Array.isArray(e) &&
        Number.isInteger(e[0]) &&
        typeof e[1] === "string" &&
        /^\d{4}-\d{2}-\d{2}$/.test(e[1]) &&
        (e[2] === 0 || e[2] === 1)
      )
        out[k] = [e[0], e[1], e[2]];
    }
    return out;
  } catch {
    return {};
  }
}

/** Newer day wins; a final resolution wins over a dated one. */
function newer(a: [number, string, number] | undefined, b: [number, string, number]): boolean {
  return !a || b[2] > a[2] || (b[2] === a[2] && b[1] >= a[1]);
}

export interface PeriodResolutionsOptions {
  storage: KeyValueStore | undefined;
  /** Its own key in the store (one per account tag, like the ledger). */
  storageKey: string;
  /** The cache's scope: resolutions of another account or service are not read. */
  scope: string;
  persistDelayMs: number;
  onWarning: (message: string) => void;
}

export class PeriodResolutions {
  private entries: Stored["entries"] = {};
  private changed: Stored["entries"] = {};
  private storage: KeyValueStore | undefined;
  private readonly writes: BatchedWrites;
  readonly ready: Promise<void>;

  constructor(private readonly o: PeriodResolutionsOptions) {
    this.storage = o.storage;
    this.writes = new BatchedWrites(
      o.persistDelayMs,
      () => this.write(),
      (e) => o.onWarning(`The FDQ period resolutions could not be saved (${e.message}).`),
    );
    this.ready = this.load();
  }

  get(ticker: string, kind: PeriodKind): Resolution | undefined {
    const e = this.entries[keyOf(ticker, kind)];
    return e && { index: e[0], day: e[1], final: e[2] === 1 };
  }

  /** Whether a latest period of `ticker` was ever found (on any day, of any kind): the service has its data. */
  foundAny(ticker: string): boolean {
    return PERIOD_KINDS.some((kind) => this.entries[keyOf(ticker, kind)] !== undefined);
  }

  set(ticker: string, kind: PeriodKind, r: Resolution): void {
    const entry: [number, string, number] = [r.index, r.day, r.final ? 1 : 0];
    const key = keyOf(ticker, kind);
    delete this.entries[key];
    this.entries[key] = entry;
    this.changed[key] = entry;
    const keys = Object.keys(this.entries);
    for (let i = 0; i < keys.length - MAX_ENTRIES; i++) delete this.entries[keys[i]!];
    if (this.storage) this.writes.schedule();
  }

  /**
   * Forgets today's resolutions of a ticker (or of all): the next call searches again, starting from them
   * (invalidating the cache says "ask the service again", not "forget what you know").
   */
  invalidate(ticker: string | undefined, today: string): void {
    for (const [key, e] of Object.entries(this.entries)) {
      if (ticker !== undefined && !key.startsWith(`${ticker}|`)) continue;
      if (e[1] === today && e[2] === 0) {
        const older: [number, string, number] = [e[0], dayBefore(today), 0];
        this.entries[key] = older;
        this.changed[key] = older;
      }
    }
    if (this.storage) this.writes.schedule();
  }

  async flush(): Promise<void> {
    await this.ready;
    if (this.writes.scheduled) await this.writes.now();
    await this.writes.settled();
  }

  private async load(): Promise<void> {
    const opening = whenOpened(this.o.storage);
    if (opening) this.storage = (await opening).store;
    if (!this.storage) return;
    try {
      const stored = parse(await this.storage.get(this.o.storageKey), this.o.scope);
      // Found while loading wins over the store.
      this.entries = { ...stored, ...this.entries };
    } catch (e) {
      this.o.onWarning(`The FDQ period resolutions could not be read (${(e as Error).message}).`);
    }
  }

  private async write(): Promise<void> {
    await this.ready;
    const storage = this.storage;
    if (!storage) return;
    const changed = this.changed;
    this.changed = {};
    const apply = (old: string | null | undefined): string => {
      const merged = parse(old, this.o.scope);
      for (const [k, e] of Object.entries(changed)) if (newer(merged[k], e)) merged[k] = e;
      const keys = Object.keys(merged);
      for (let i = 0; i < keys.length - MAX_ENTRIES; i++) delete merged[keys[i]!];
      return JSON.stringify({ v: 1, scope: this.o.scope, entries: merged } satisfies Stored);
    };
    try {
      if (isRecordStore(storage)) await storage.update(this.o.storageKey, apply);
      else await storage.set(this.o.storageKey, apply(await storage.get(this.o.storageKey)));
    } catch (e) {
      this.changed = { ...changed, ...this.changed };
      throw e;
    }
  }
}
