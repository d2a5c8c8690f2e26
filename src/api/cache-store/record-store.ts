// A store of many small records that several writers share: IndexedDB in Excel (every open workbook's
// shared runtime writes to one origin's database) and a locked file per account in the CLI (several `fdq`
// processes at once). Each writer sends only what it changed, and the store merges it with what the others
// wrote, so two writers never overwrite each other's answers (office-js#2901 and issue 12: the old
// whole-cache parts in OfficeRuntime.storage let two workbooks overwrite each other).
import type { KeyValueStore } from "../storage";

export interface RecordChange {
  /** Every record whose key starts with this is removed first (a cleared cache). */
  readonly removePrefix?: string;
  readonly removes: readonly string[];
  readonly puts: ReadonlyMap<string, string>;
}

export interface RecordStore extends KeyValueStore {
  readonly kind: "records";
  /** The records whose keys start with `prefix`, in key order. */
  list(prefix: string): Promise<[key: string, value: string][]>;
  /** Applies removals, then puts, in one step under the store's cross-writer lock. */
  commit(change: RecordChange): Promise<void>;
  /** Read-modify-write of one record under the same lock (`undefined` from `fn` removes it). */
  update(key: string, fn: (old: string | undefined) => string | undefined): Promise<void>;
  /**
   * The plain store an earlier version kept the cache and the ledger in (OfficeRuntime.storage before the
   * cache moved to IndexedDB): read once when this store holds nothing of the account, then emptied.
   */
  readonly legacy?: KeyValueStore;
  /**
   * Settles once the store is open, rejecting where it cannot be (IndexedDB in a private-mode webview, a
   * blocked or damaged database); the cache and the ledger then use `fallback` instead, or memory only.
   */
  readonly opened?: Promise<void>;
  /** Where the cache and the ledger go when `opened` rejects (OfficeRuntime.storage, in parts). */
  readonly fallback?: KeyValueStore;
}

export function isRecordStore(store: KeyValueStore | undefined): store is RecordStore {
  return (store as Partial<RecordStore> | undefined)?.kind === "records";
}

/**
 * Once a store that may fail to open has settled, the store to use: itself, or where it could not be opened
 * its fallback (undefined: memory only) with the reason. Undefined for a store that is usable at once.
 */
export function whenOpened(
  store: KeyValueStore | undefined,
): Promise<{ store: KeyValueStore | undefined; failure?: string }> | undefined {
  if (!isRecordStore(store) || !store.opened) return undefined;
  return store.opened.then(
    () => ({ store }),
    (e: unknown) => {
      const { message, name } = (e ?? {}) as { message?: unknown; name?: unknown };
      const failure = typeof message === "string" && message !== "" ? message : String(name ?? e);
      return { store: store.fallback, failure };
    },
  );
}

/** The key just above every key that starts with `prefix` (string keys compare by UTF-16 code units). */
export const prefixEnd = (prefix: string): string => `${prefix}\uffff`;
