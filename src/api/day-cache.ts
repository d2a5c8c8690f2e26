// The refresh-day cache: in memory (LRU-bounded, only the current refresh day) and persisted in debounced
// writes through a persistence of cache-store/: one record per answer on a RecordStore (IndexedDB in Excel,
// the CLI's locked file per account), or size-bounded parts on a plain key-value store. Entries are keyed by
// their RequestKey's cache key (one entry per answer: a whole-dataset answer is one entry holding all its
// datapoints); the base URL and the account tag are the cache's scope, saved with it and checked on load.
import { LRUCache } from "lru-cache";
import { BatchedWrites } from "./batched-writes";
import { encodeValue, weightOf, type CacheValue } from "./cache-codec";
import { PartsPersistence } from "./cache-store/parts-persistence";
import type {
  CachePersistence,
  CacheSnapshot,
  LoadedEntry,
  PersistenceContext,
} from "./cache-store/persistence";
import { RecordPersistence } from "./cache-store/record-persistence";
import { isRecordStore, whenOpened } from "./cache-store/record-store";
import { RequestKey } from "./request-key";
import type { RefreshDayClock } from "./refresh-day";
import type { KeyValueStore } from "./storage";
import type { ClientEvent } from "./types";

export interface DayCacheOptions {
  clock: RefreshDayClock;
  now: () => number;
  /** `${accountTag}@${baseUrl}`: a store with another scope belongs to another account or service. */
  scope: string;
  storage: KeyValueStore | undefined;
  storageKey: string;
  /** Bound of the cached items: each datapoint of a records answer counts, other answers count 1. */
  maxEntries: number;
  maxPersistChars: number;
  persistDelayMs: number;
  toValue: (datavalue: string) => number | string;
  emit: (e: ClientEvent) => void;
  /**
   * Whether an answer fetched on an earlier refresh day still serves `today` (the quota saver's rule); without
   * it (the strict policy) a new refresh day drops every answer of the previous one.
   */
  keep?: (cacheKey: string, value: CacheValue, fetchedOn: string, today: string) => boolean;
  /**
   * Told the answers of an earlier refresh day the cache drops (at the turn, or at load from a saved cache),
   * most recently used first (previous-day.ts keeps their values); the cache is ready once it is.
   */
  dayBefore?: { readonly ready: Promise<void>; dropped(entries: readonly LoadedEntry[]): void };
}

/** Taken when a request starts; its answer is stored only if the day and the invalidation count still match. */
export interface CacheStamp {
  day: string;
  generation: number;
}

/** The ticker of a data answer's key (`group/dataset/TICKER?year=...`), undefined for any other key. */
function dataTickerOf(rel: string): string | undefined {
  const q = rel.indexOf("?");
  if (q < 0) return undefined;
  const segments = rel.slice(0, q).split("/");
  if (segments.length !== 3) return undefined;
  try {
    return decodeURIComponent(segments[2]!);
  } catch {
    return undefined;
  }
}

export class DayCache {
  /** The day's answers, least recently used dropped first once their weights pass maxEntries. */
  private entries: LRUCache<string, CacheValue>;
  /** The refresh day each answer was fetched on (the saver keeps some beyond it). */
  private readonly fetched = new Map<string, string>();
  private readonly serialized = new WeakMap<CacheValue, string>();
  /** Set by the first today(): reading the day before the store's window is adopted would cost an Intl set-up. */
  private day: string | undefined;
  private generation = 0;
  private dirty = false;
  /** Changes since the last save: a record store writes only these. */
  private changed = new Set<string>();
  private removed = new Set<string>();
  private cleared = false;
  /** Tickers with a data answer holding records today (hasRecordsOf), built at its first question. */
  private withRecords: Set<string> | undefined;
  private readonly writes: BatchedWrites;
  /** Replaced once by the fallback's where the store cannot be opened (IndexedDB in a private-mode webview). */
  private persistence: CachePersistence | undefined;
  private readonly ctx: PersistenceContext;
  loaded = false;
  readonly ready: Promise<void>;

  constructor(private readonly o: DayCacheOptions) {
    this.entries = this.newEntries();
    this.ctx = {
      scope: o.scope,
      clock: o.clock,
      now: o.now,
      today: () => this.today(),
      toValue: o.toValue,
      keep: o.keep,
      dropped: o.dayBefore && ((entries) => o.dayBefore!.dropped(entries)),
      maxChars: o.maxPersistChars,
      warn: (message: string) => this.warn(message),
    };
    this.persistence = this.persistenceOn(o.storage);
    this.writes = new BatchedWrites(
      o.persistDelayMs,
      () => this.write(),
      (e) => this.warn(`The FDQ cache could not be saved (${e.message}).`),
    );
    this.ready = Promise.all([this.load(), o.dayBefore?.ready])
      .finally(() => {
        this.withRecords = undefined;
        this.loaded = true;
      })
      .then(() => undefined);
  }

  private persistenceOn(storage: KeyValueStore | undefined): CachePersistence | undefined {
    const { storageKey } = this.o;
    return !storage
      ? undefined
      : isRecordStore(storage)
        ? new RecordPersistence(
            storage,
            storageKey,
            this.ctx,
            storage.legacy && new PartsPersistence(storage.legacy, storageKey, this.ctx),
          )
        : new PartsPersistence(storage, storageKey, this.ctx);
  }

  /** Cached items: every datapoint of a records answer, and every other answer. */
  get size(): number {
    return this.entries.calculatedSize;
  }

  /** The current refresh day; entering a new one drops the previous day's entries. */
  today(): string {
    const day = this.o.clock.label(this.o.now());
    if (day !== this.day) {
      const previous = this.day;
      this.day = day;
      if (previous !== undefined) {
        this.dropOutdated(day, previous);
        this.withRecords = undefined;
        this.markDirty();
      }
    }
    return day;
  }

  stamp(): CacheStamp {
    return { day: this.today(), generation: this.generation };
  }

  /** The refresh day the cached answer of `key` was fetched on. */
  fetchedOn(key: RequestKey): string | undefined {
    return this.entries.has(key.cacheKey) ? (this.fetched.get(key.cacheKey) ?? this.day) : undefined;
  }

  /**
   * A new refresh day: drops every answer, or under the saver those its rule does not keep. One by one, not
   * as a clear: a shared store may already hold another workbook's answers of the new day, which must stay.
   */
  private dropOutdated(today: string, previous: string): void {
    const keep = this.o.keep;
    const dropped: LoadedEntry[] = [];
    for (const rel of [...this.entries.keys()]) {
      const value = this.entries.peek(rel);
      // An entry without its own day was fetched on the cache's day until now (see load).
      const fetchedOn = this.fetched.get(rel) ?? previous;
      if (!keep || !value || !keep(rel, value, fetchedOn, today)) {
        if (value && this.o.dayBefore) dropped.push({ rel, value, fetched: fetchedOn });
        this.delete(rel);
      } else this.fetched.set(rel, fetchedOn); // kept past its day: its day is no longer the cache's
    }
    this.o.dayBefore?.dropped(dropped);
  }

  get(key: RequestKey): CacheValue | undefined {
    return this.entries.get(key.cacheKey);
  }

  /**
   * Whether today's cache holds a data answer with records about `ticker`: the service has its data. Asked
   * only where a ticker's data answer was "not found" (ticker-coverage.ts), never per cell; the tickers are
   * indexed by one pass over the keys at the first question of a day, then kept up by `set`.
   */
  hasRecordsOf(ticker: string): boolean {
    if (!this.withRecords) {
      const tickers = new Set<string>();
      for (const [rel, value] of this.entries.entries()) {
        const t = value.kind === "records" && value.size > 0 ? dataTickerOf(rel) : undefined;
        if (t !== undefined) tickers.add(t);
      }
      this.withRecords = tickers;
    }
    return this.withRecords.has(ticker);
  }

  /** Reads without counting as a use (plans and estimates must not reorder the LRU). */
  peek(key: RequestKey): CacheValue | undefined {
    return this.entries.peek(key.cacheKey);
  }

  /** Stores `value` unless the day changed or the cache was invalidated since `stamp` was taken. */
  set(key: RequestKey, value: CacheValue, stamp: CacheStamp): void {
    if (stamp.generation !== this.generation || stamp.day !== this.today()) return;
    if (this.withRecords && value.kind === "records" && value.size > 0 && key.fields.endpoint === "data")
      this.withRecords.add(key.fields.ticker);
    this.entries.set(key.cacheKey, value);
    this.fetched.set(key.cacheKey, stamp.day);
    this.changed.add(key.cacheKey);
    this.removed.delete(key.cacheKey);
    this.markDirty();
  }

  /**
   * lru-cache (a maintained size-weighted LRU) in place of a hand-kept Map: each datapoint of a records answer
   * weighs 1, other answers 1; an answer heavier than the whole bound is not kept.
   */
  private newEntries(): LRUCache<string, CacheValue> {
    return new LRUCache<string, CacheValue>({
      maxSize: this.o.maxEntries,
      sizeCalculation: weightOf,
      dispose: (_value, rel, reason) => {
        if (reason !== "set") this.fetched.delete(rel);
      },
    });
  }

  private delete(rel: string): void {
    this.entries.delete(rel);
    this.changed.delete(rel);
    this.removed.add(rel);
  }

  private clear(): void {
    this.withRecords = undefined;
    this.entries.clear();
    this.fetched.clear();
    this.changed.clear();
    this.removed.clear();
    this.cleared = true;
  }

  /** Forgets everything, or every entry about one ticker (or sector id). */
  invalidate(ticker?: string): void {
    this.generation++;
    if (ticker !== undefined) this.withRecords?.delete(ticker);
    if (ticker === undefined) this.clear();
    else
      for (const rel of [...this.entries.keys()])
        if (RequestKey.parse(rel)?.matches(ticker)) this.delete(rel);
    this.markDirty();
  }

  /**
   * Forgets the answers of `keys` only (a refresh of some cells): their next call asks the service. Answers in
   * flight are not stored, as after `invalidate`.
   */
  forget(keys: readonly RequestKey[]): void {
    this.generation++;
    for (const key of keys) if (this.entries.has(key.cacheKey)) this.delete(key.cacheKey);
    this.markDirty();
  }

  /** Writes pending changes now. */
  async flush(): Promise<void> {
    await this.ready;
    if (this.dirty) await this.writes.now();
    await this.writes.settled();
  }

  /** Flushes and stops the write timer. */
  async close(): Promise<void> {
    await this.flush();
  }

  private markDirty(): void {
    this.dirty = true;
    if (this.persistence) this.writes.schedule();
  }

  private warn(message: string): void {
    this.o.emit({ type: "cache-warning", message });
  }

  private async load(): Promise<void> {
    const opening = whenOpened(this.o.storage);
    const { store, failure } = opening ? await opening : {};
    if (failure !== undefined) {
      this.persistence = this.persistenceOn(store);
      this.warn(
        `IndexedDB could not be opened (${failure}); ` +
          (store
            ? "the FDQ cache is kept in OfficeRuntime.storage instead, which is smaller."
            : "the FDQ cache and usage ledger are kept in memory only."),
      );
    }
    const result = await this.persistence?.load();
    if (!result) return;
    if (result.stale) this.markDirty();
    if (result.entries.length === 0) return;
    const today = this.today();
    // Calls made while loading win over the store; the store's older entries go first in LRU order.
    const during = this.entries;
    this.entries = this.newEntries();
    const { entries } = result;
    const empty = during.size === 0;
    for (let i = 0; i < entries.length; i++) {
      const { rel, value, fetched } = entries[i]!;
      if (!empty && during.has(rel)) continue;
      this.entries.set(rel, value);
      // Today's answers (a warm run's every one) need no entry: `fetched` defaults to the cache's day.
      if (fetched !== today) this.fetched.set(rel, fetched);
    }
    for (const rel of during.rkeys()) this.entries.set(rel, during.peek(rel)!);
    this.o.emit({ type: "cache-loaded", entries: this.entries.calculatedSize, refreshDay: today });
  }

  private async write(): Promise<void> {
    await this.ready;
    const persistence = this.persistence;
    if (!persistence) return;
    this.dirty = false;
    const snapshot = this.snapshot(persistence.encodesAll);
    try {
      const { entries, chars } = await persistence.save(snapshot);
      this.o.emit({ type: "cache-persisted", entries, chars });
    } catch (e) {
      // Kept for the next write, unless changed again since.
      for (const rel of snapshot.changed) if (!this.removed.has(rel)) this.changed.add(rel);
      for (const rel of snapshot.removed) if (!this.changed.has(rel)) this.removed.add(rel);
      this.cleared ||= snapshot.cleared;
      throw e;
    }
  }

  /** The cache as a save sees it; the change sets start afresh. `memoise`: keep each entry's text for the next save. */
  private snapshot(memoise: boolean): CacheSnapshot {
    const day = this.today();
    const snapshot: CacheSnapshot = {
      day,
      keys: () => this.entries.keys(),
      encoded: (rel) => {
        const value = this.entries.peek(rel);
        if (value === undefined) return undefined;
        if (!memoise) return JSON.stringify(encodeValue(value));
        let text = this.serialized.get(value);
        if (text === undefined) this.serialized.set(value, (text = JSON.stringify(encodeValue(value))));
        return text;
      },
      fetched: (rel) => (this.entries.has(rel) ? (this.fetched.get(rel) ?? day) : undefined),
      changed: this.changed,
      removed: this.removed,
      cleared: this.cleared,
    };
    this.changed = new Set();
    this.removed = new Set();
    this.cleared = false;
    return snapshot;
  }
}
