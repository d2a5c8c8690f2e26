// The refresh-day cache: in memory (LRU-bounded, only the current refresh day) and persisted through a
// storage adapter in debounced, size-bounded, chunked writes. Entries are keyed by their RequestKey's cache key
// (one entry per answer: a whole-dataset answer is one entry holding all its datapoints); the base URL and the
// account tag are the cache's scope, written once into the store and checked when loading.
import { LRUCache } from "lru-cache";
import { BatchedWrites } from "./batched-writes";
import { decodeValue, encodeValue, weightOf, type CacheValue } from "./cache-codec";
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
}

/** Taken when a request starts; its answer is stored only if the day and the invalidation count still match. */
export interface CacheStamp {
  day: string;
  generation: number;
}

/** 2: one entry per datapoint-records answer (1 had one entry per datapoint plus a list of names). */
const FORMAT_VERSION = 2;
const CHUNK_CHARS = 1_000_000;

interface StoreMeta {
  v: number;
  scope: string;
  day: string;
  gen: number;
  chunks: number;
  /** The writer's refresh-day window and clock key: a reader inside it knows the day without Intl. */
  clock?: string;
  from?: number;
  until?: number;
}

/** Where a store's parts are: any meta with these fields, of this format or an older one. */
type PartsRef = Pick<StoreMeta, "gen" | "chunks">;

const partsOf = (m: unknown): PartsRef | undefined => {
  const o = m as Partial<StoreMeta> | null;
  if (typeof o !== "object" || o === null) return undefined;
  return Number.isInteger(o.gen) && Number.isInteger(o.chunks) && o.chunks! >= 0
    ? { gen: o.gen!, chunks: o.chunks! }
    : undefined;
};

const isMeta = (m: unknown): m is StoreMeta => {
  const o = m as Partial<StoreMeta> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    o.v === FORMAT_VERSION &&
    typeof o.scope === "string" &&
    typeof o.day === "string" &&
    Number.isInteger(o.gen) &&
    Number.isInteger(o.chunks)
  );
};

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
  private readonly writes: BatchedWrites;
  /** The parts the store's meta names now: removed once a new meta replaces it. */
  private storedParts: PartsRef | undefined;
  loaded = false;
  readonly ready: Promise<void>;

  constructor(private readonly o: DayCacheOptions) {
    this.entries = this.newEntries();
    this.writes = new BatchedWrites(
      o.persistDelayMs,
      () => this.write(),
      (e) => this.warn(`The FDQ cache could not be saved (${e.message}).`),
    );
    this.ready = this.load().finally(() => {
      this.loaded = true;
    });
  }

  /** Cached items: every datapoint of a records answer, and every other answer. */
  get size(): number {
    return this.entries.calculatedSize;
  }

  /** The current refresh day; entering a new one drops the previous day's entries. */
  today(): string {
    const day = this.o.clock.label(this.o.now());
    if (day !== this.day) {
      const changed = this.day !== undefined;
      this.day = day;
      if (changed) {
        this.dropOutdated(day);
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

  /** A new refresh day: drops every answer, or under the saver those its rule does not keep. */
  private dropOutdated(today: string): void {
    const keep = this.o.keep;
    if (!keep) return this.clear();
    for (const rel of [...this.entries.keys()]) {
      const value = this.entries.peek(rel);
      const fetchedOn = this.fetched.get(rel);
      if (!value || !fetchedOn || !keep(rel, value, fetchedOn, today)) this.entries.delete(rel);
    }
  }

  get(key: RequestKey): CacheValue | undefined {
    return this.entries.get(key.cacheKey);
  }

  /** Reads without counting as a use (plans and estimates must not reorder the LRU). */
  peek(key: RequestKey): CacheValue | undefined {
    return this.entries.get(key.cacheKey);
  }

  /** Stores `value` unless the day changed or the cache was invalidated since `stamp` was taken. */
  set(key: RequestKey, value: CacheValue, stamp: CacheStamp): void {
    if (stamp.generation !== this.generation || stamp.day !== this.today()) return;
    this.entries.set(key.cacheKey, value);
    this.fetched.set(key.cacheKey, stamp.day);
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

  private clear(): void {
    this.entries.clear();
    this.fetched.clear();
  }

  /** Forgets everything, or every entry about one ticker (or sector id). */
  invalidate(ticker?: string): void {
    this.generation++;
    if (ticker === undefined) this.clear();
    else
      for (const rel of [...this.entries.keys()])
        if (RequestKey.parse(rel)?.matches(ticker)) this.entries.delete(rel);
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
    if (this.o.storage) this.writes.schedule();
  }

  private warn(message: string): void {
    this.o.emit({ type: "cache-warning", message });
  }

  private async load(): Promise<void> {
    const { storage, storageKey } = this.o;
    if (!storage) return;
    let meta: unknown;
    try {
      const text = await storage.get(storageKey);
      if (text === null || text === undefined) return;
      meta = JSON.parse(text);
    } catch (e) {
      this.warn(`The saved FDQ cache could not be read and was discarded (${(e as Error).message}).`);
      return;
    }
    this.storedParts = partsOf(meta);
    if (!isMeta(meta)) {
      this.warn("The saved FDQ cache has an unknown format and was discarded.");
      this.markStaleStore();
      return;
    }
    if (meta.scope !== this.o.scope) {
      this.warn("The saved FDQ cache belongs to another API key or base URL and was discarded.");
      this.markStaleStore();
      return;
    }
    if (meta.clock === this.o.clock.key && typeof meta.from === "number" && typeof meta.until === "number") {
      this.o.clock.adopt({ label: meta.day, from: meta.from, until: meta.until });
    }
    const today = this.today();
    const keep = this.o.keep;
    if (meta.day !== today && !keep) {
      this.markStaleStore(); // an earlier refresh day: stale by design, not an error
      return;
    }
    const loaded = new Map<string, CacheValue>();
    const fetchedOn = new Map<string, string>();
    try {
      for (let i = 0; i < meta.chunks; i++) {
        const text = await storage.get(`${storageKey}.${meta.gen}.${i}`);
        if (typeof text !== "string") throw new Error(`part ${i} is missing`);
        const items: unknown = JSON.parse(text);
        if (!Array.isArray(items)) throw new Error(`part ${i} is not a list`);
        for (const item of items) {
          const [rel, encoded, day] = Array.isArray(item) ? (item as unknown[]) : [];
          const value = typeof rel === "string" ? decodeValue(encoded, this.o.toValue) : undefined;
          if (typeof rel !== "string" || !value) throw new Error(`part ${i} holds an unreadable entry`);
          // An entry fetched before the store's day names its own day (only the saver keeps such entries).
          const fetched = typeof day === "string" ? day : meta.day;
          if (fetched !== today && !keep?.(rel, value, fetched, today)) continue;
          loaded.set(rel, value);
          fetchedOn.set(rel, fetched);
        }
      }
    } catch (e) {
      this.warn(`The saved FDQ cache is damaged and was discarded (${(e as Error).message}).`);
      this.markStaleStore();
      return;
    }
    // Calls made while loading win over the store; the store's older entries go first in LRU order.
    const during = this.entries;
    this.entries = this.newEntries();
    for (const [rel, value] of loaded) {
      if (during.has(rel)) continue;
      this.entries.set(rel, value);
      this.fetched.set(rel, fetchedOn.get(rel)!);
    }
    for (const rel of during.rkeys()) this.entries.set(rel, during.peek(rel)!);
    if (meta.day !== today) this.markDirty(); // the store still names an earlier day
    this.o.emit({ type: "cache-loaded", entries: this.entries.calculatedSize, refreshDay: today });
  }

  /** A discarded store's parts would hold storage quota forever: the next write replaces and removes them. */
  private markStaleStore(): void {
    if (this.storedParts && this.storedParts.chunks > 0) this.markDirty();
  }

  private async write(): Promise<void> {
    const { storage, storageKey } = this.o;
    if (!storage) return;
    await this.ready;
    this.dirty = false;
    const day = this.today();
    const { chunks, entries } = this.encodeChunks();
    const gen = (this.storedParts?.gen ?? 0) + 1;
    // The old parts go first, so the store never holds two copies (OfficeRuntime.storage has 10 MB per
    // domain and no signal when it is full). A store interrupted half-way then names missing parts and is
    // discarded as damaged at the next load: only a cache is lost. The new parts go before the meta that
    // names them; each group is issued together, so a store can batch it.
    const old = this.storedParts;
    this.storedParts = undefined;
    if (old) {
      const parts = Array.from({ length: old.chunks }, (_, i) => `${storageKey}.${old.gen}.${i}`);
      await Promise.all(parts.map((key) => storage.remove(key)));
    }
    await Promise.all(chunks.map((chunk, i) => storage.set(`${storageKey}.${gen}.${i}`, chunk)));
    const { from, until } = this.o.clock.window();
    const meta: StoreMeta = {
      v: FORMAT_VERSION,
      scope: this.o.scope,
      day,
      gen,
      chunks: chunks.length,
      clock: this.o.clock.key,
      from,
      until,
    };
    await storage.set(storageKey, JSON.stringify(meta));
    this.storedParts = meta;
    const chars = chunks.reduce((n, c) => n + c.length, 0);
    this.o.emit({ type: "cache-persisted", entries, chars });
  }

  /** The most recently used entries that fit the size budget, oldest first, in chunks of JSON arrays. */
  private encodeChunks(): { chunks: string[]; entries: number } {
    const kept: string[] = [];
    let chars = 0;
    // Most recently used first, until the budget is spent.
    for (const [rel, value] of this.entries.entries()) {
      let text = this.serialized.get(value);
      if (text === undefined) {
        // Under the saver an entry names the day it was fetched (it may outlive it); the text is cached per
        // value, so it must not depend on the current day.
        const fetched = this.o.keep ? (this.fetched.get(rel) ?? this.day) : undefined;
        text = JSON.stringify(
          fetched === undefined ? [rel, encodeValue(value)] : [rel, encodeValue(value), fetched],
        );
        this.serialized.set(value, text);
      }
      if (chars + text.length + 1 > this.o.maxPersistChars) break;
      chars += text.length + 1;
      kept.push(text);
    }
    kept.reverse();
    const chunks: string[] = [];
    let current: string[] = [];
    let size = 0;
    for (const text of kept) {
      if (size + text.length > CHUNK_CHARS && current.length > 0) {
        chunks.push(`[${current.join(",")}]`);
        current = [];
        size = 0;
      }
      current.push(text);
      size += text.length + 1;
    }
    if (current.length > 0) chunks.push(`[${current.join(",")}]`);
    return { chunks, entries: kept.length };
  }
}
