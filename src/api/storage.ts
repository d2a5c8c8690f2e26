// Where the cache (and the settings) persist: OfficeRuntime.storage in Excel, a file in the CLI, memory in tests.

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
