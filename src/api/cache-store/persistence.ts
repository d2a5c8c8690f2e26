// What the day cache asks of a persisted store, whichever it is: the parts scheme on a plain key-value
// store (OfficeRuntime.storage where IndexedDB is missing, memory in tests) or one record per answer on a
// RecordStore (IndexedDB in Excel, the CLI's locked file).
import type { CacheValue } from "../cache-codec";
import type { RefreshDayClock } from "../refresh-day";

export interface PersistenceContext {
  /** `${accountTag}@${baseUrl}`: a store of another scope belongs to another account or service. */
  scope: string;
  clock: RefreshDayClock;
  now: () => number;
  /** The cache's refresh day (read after a saved window may have been adopted). */
  today: () => string;
  toValue: (datavalue: string) => number | string;
  /** The saver's rule: whether an answer fetched on an earlier day still serves `today`. */
  keep?: (cacheKey: string, value: CacheValue, fetchedOn: string, today: string) => boolean;
  /** Told the earlier refresh day's answers a load drops, most recently used first (previous-day.ts). */
  dropped?: (entries: readonly LoadedEntry[]) => void;
  /** Most characters the persisted entries may take. */
  maxChars: number;
  warn: (message: string) => void;
}

export interface LoadedEntry {
  rel: string;
  value: CacheValue;
  /** The refresh day it was fetched on. */
  fetched: string;
}

export interface LoadResult {
  /** Least recently written first. */
  entries: LoadedEntry[];
  /** The store needs a write even if nothing changes (an earlier day's entries, damaged records). */
  stale: boolean;
}

/** The cache as a save sees it. */
export interface CacheSnapshot {
  day: string;
  /** Keys of every entry, most recently used first. */
  keys(): Iterable<string>;
  /** JSON text of an entry's encoded value (memoised per value when `encodesAll`), undefined once it is gone. */
  encoded(rel: string): string | undefined;
  /** The day the entry was fetched on. */
  fetched(rel: string): string | undefined;
  /** Since the last save: entries set, entries removed, and whether everything was removed first. */
  changed: ReadonlySet<string>;
  removed: ReadonlySet<string>;
  cleared: boolean;
}

export interface SaveResult {
  entries: number;
  chars: number;
}

export interface CachePersistence {
  /**
   * Whether every save encodes every entry again (the parts scheme): the day cache then keeps each entry's
   * JSON text between saves. A store that writes only the changed entries does not need the texts kept, and
   * keeping them would hold every answer twice.
   */
  readonly encodesAll: boolean;
  /** The saved entries that serve today, checked and bounded; undefined when nothing usable is saved. */
  load(): Promise<LoadResult | undefined>;
  save(snapshot: CacheSnapshot): Promise<SaveResult>;
}
