// Where the settings (and, without IndexedDB, the cache) persist: OfficeRuntime.storage in Excel, a file in
// the CLI, memory in tests. The cache's stores shared by several writers are in cache-store/.

/** Async string store by key; `get` answers null (or undefined) for a missing key. */
export interface KeyValueStore {
  get(key: string): Promise<string | null | undefined>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export class MemoryStorage implements KeyValueStore {
  readonly items = new Map<string, string>();

  async get(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    this.items.set(key, value);
  }

  async remove(key: string): Promise<void> {
    this.items.delete(key);
  }
}

/** The subset of OfficeRuntime.storage this module uses (kept structural so tests can pass a double). */
export interface OfficeStorageLike {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export function officeStorage(storage: OfficeStorageLike): KeyValueStore {
  return {
    get: (key) => storage.getItem(key),
    set: (key, value) => storage.setItem(key, value),
    remove: (key) => storage.removeItem(key),
  };
}

/**
 * A store whose keys all start with `${partitionKey}/`. Excel on the web partitions add-in storage and asks
 * add-ins to prefix their keys with Office.context.partitionKey where it is defined (office-platform notes,
 * "Learned since"; docs: persisting add-in state and settings); elsewhere the store is used as it is.
 */
export function partitioned(store: KeyValueStore, partitionKey: string | undefined): KeyValueStore {
  if (!partitionKey) return store;
  const key = (k: string): string => `${partitionKey}/${k}`;
  return {
    get: (k) => store.get(key(k)),
    set: (k, value) => store.set(key(k), value),
    remove: (k) => store.remove(key(k)),
  };
}
