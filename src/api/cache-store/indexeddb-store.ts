// The cache's store in Excel: IndexedDB, through `idb` (Jake Archibald's maintained promise wrapper, 1 kB,
// typed) rather than hand-written IDBRequest callbacks. One record per answer, so two workbooks refreshing
// at once each add their own records and remove nothing of the other's; every write runs under the
// origin-wide lock (navigator.locks) as well as in one IndexedDB transaction. IndexedDB holds far more than
// OfficeRuntime.storage, whose 5 M characters every workbook's runtime shares with no signal when full
// (office-js#2901).
import { openDB, type IDBPDatabase } from "idb";
import { withOriginLock } from "./origin-lock";
import type { KeyValueStore } from "../storage";
import { prefixEnd, type RecordChange, type RecordStore } from "./record-store";

const OBJECT_STORE = "records";

export interface IndexedDbStoreOptions {
  /** Database name; Excel on the web's partition key goes into it where Office defines one. */
  name?: string;
  /** Where an earlier version kept the cache and the ledger (OfficeRuntime.storage): imported once. */
  legacy?: KeyValueStore;
  /** Where the cache and the ledger go if the database cannot be opened (OfficeRuntime.storage). */
  fallback?: KeyValueStore;
}

/** Whether this runtime has IndexedDB (the shared runtime has; the JavaScript-only runtime has not). */
export const hasIndexedDb = (): boolean => typeof indexedDB !== "undefined";

export class IndexedDbStore implements RecordStore {
  readonly kind = "records";
  private readonly db: Promise<IDBPDatabase>;
  private readonly lockName: string;
  readonly legacy: KeyValueStore | undefined;
  readonly fallback: KeyValueStore | undefined;
  readonly opened: Promise<void>;

  constructor(options: IndexedDbStoreOptions = {}) {
    const name = options.name ?? "fdq-cache";
    this.legacy = options.legacy;
    this.fallback = options.fallback;
    this.lockName = `${name}:write`;
    try {
      this.db = openDB(name, 1, {
        upgrade(db) {
          db.createObjectStore(OBJECT_STORE);
        },
      });
    } catch (e) {
      this.db = Promise.reject(e as Error); // some webviews throw (SecurityError) instead of failing the request
    }
    // Its users learn of a failure through `opened` (the day cache warns once and uses the fallback).
    this.db.catch(() => undefined);
    this.opened = this.db.then(() => undefined);
    this.opened.catch(() => undefined);
  }

  async get(key: string): Promise<string | null> {
    const value: unknown = await (await this.db).get(OBJECT_STORE, key);
    return typeof value === "string" ? value : null;
  }

  set(key: string, value: string): Promise<void> {
    return this.commit({ removes: [], puts: new Map([[key, value]]) });
  }

  remove(key: string): Promise<void> {
    return this.commit({ removes: [key], puts: new Map() });
  }

  async list(prefix: string): Promise<[string, string][]> {
    const tx = (await this.db).transaction(OBJECT_STORE, "readonly");
    const range = IDBKeyRange.bound(prefix, prefixEnd(prefix));
    // Both in one transaction, so keys and values line up.
    const [keys, values] = await Promise.all([tx.store.getAllKeys(range), tx.store.getAll(range), tx.done]);
    const out: [string, string][] = [];
    keys.forEach((key, i) => {
      const value: unknown = values[i];
      if (typeof key === "string" && typeof value === "string") out.push([key, value]);
    });
    return out;
  }

  async commit(change: RecordChange): Promise<void> {
    const db = await this.db;
    await withOriginLock(this.lockName, async () => {
      const tx = db.transaction(OBJECT_STORE, "readwrite");
      const ops: Promise<unknown>[] = [];
      if (change.removePrefix !== undefined) {
        ops.push(tx.store.delete(IDBKeyRange.bound(change.removePrefix, prefixEnd(change.removePrefix))));
      }
      for (const key of change.removes) ops.push(tx.store.delete(key));
      for (const [key, value] of change.puts) ops.push(tx.store.put(value, key));
      // Every request's promise is awaited too: a quota error aborts the transaction and rejects them all.
      await Promise.all([...ops, tx.done]);
    });
  }

  async update(key: string, fn: (old: string | undefined) => string | undefined): Promise<void> {
    const db = await this.db;
    await withOriginLock(this.lockName, async () => {
      const tx = db.transaction(OBJECT_STORE, "readwrite");
      const old: unknown = await tx.store.get(key);
      const next = fn(typeof old === "string" ? old : undefined);
      const op = next === undefined ? tx.store.delete(key) : tx.store.put(next, key);
      await Promise.all([op, tx.done]);
    });
  }

  /** Closes the connection (tests, and a runtime that switches databases). */
  async close(): Promise<void> {
    (await this.db.catch(() => undefined))?.close();
  }
}
