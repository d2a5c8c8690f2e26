// A lock shared by every runtime of the add-in's origin. In Excel each open workbook has its own shared
// runtime, and they all see one IndexedDB and one localStorage (office-platform notes, "Learned since");
// navigator.locks (the Web Locks API) is the coordination those runtimes have in common.

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/**
 * Runs `fn` holding the lock `name`. Where the Web Locks API is missing (Node, an old webview) `fn` runs
 * without it: each IndexedDB commit is still one transaction, so records are never torn; only two
 * read-modify-writes of one record (the usage ledger) could interleave there, losing one count.
 */
export async function withOriginLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks ? locks.request(name, fn) : fn();
}
