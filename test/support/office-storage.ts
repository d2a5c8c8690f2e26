// OfficeRuntime.storage for Node tests: its getItem/setItem/removeItem over the shared in-memory store, so a
// test can hand the request module or the pane the shape Office gives them and read what was stored.
import { MemoryStorage, type OfficeStorageLike } from "../../src/api";

export interface OfficeStorageDouble extends OfficeStorageLike {
  /** What is stored, read and written directly by the test. */
  readonly memory: MemoryStorage;
}

export function officeStorageDouble(memory: MemoryStorage = new MemoryStorage()): OfficeStorageDouble {
  return {
    memory,
    getItem: (key) => memory.get(key),
    setItem: (key, value) => memory.set(key, value),
    removeItem: (key) => memory.remove(key),
  };
}
