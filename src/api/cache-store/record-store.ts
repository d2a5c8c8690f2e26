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
}

export function isRecordStore(store: KeyValueStore | undefined): store is RecordStore {
  return (store as Partial<RecordStore> | undefined)?.kind === "records";
}

/** The key just above every key that starts with `prefix` (string keys compare by UTF-16 code units). */
export const prefixEnd = (prefix: string): string => `${prefix}\uffff`;
