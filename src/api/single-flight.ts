// One in-flight promise per key (as TanStack query-core keeps one per query key): the first caller of a key
// starts the work, every caller until it settles gets the same promise, and the key is free again the moment
// it settles, so a failure is never kept as an answer. The gateway's proxy joins identical requests through
// this (the add-in's client shares its requests through src/api/coalescer.ts, whose callers do the work
// themselves); what a key contains (refresh day, account, request) is the caller's to say.

export interface Flight<V> {
  readonly promise: Promise<V>;
  /** Whether the caller joined a flight another caller had started. */
  readonly joined: boolean;
}

export class SingleFlight<V> {
  private readonly inFlight = new Map<string, Promise<V>>();

  /** Whether work for `key` is started and not yet settled. */
  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** How many keys are in flight. */
  get size(): number {
    return this.inFlight.size;
  }

  /** The promise in flight for `key`, or `start()`'s, kept until it settles. */
  run(key: string, start: () => Promise<V>): Flight<V> {
    const existing = this.inFlight.get(key);
    if (existing) return { promise: existing, joined: true };
    let promise: Promise<V>;
    try {
      promise = start();
    } catch (err) {
      promise = Promise.reject(err);
    }
    const kept = promise.finally(() => {
      if (this.inFlight.get(key) === kept) this.inFlight.delete(key);
    });
    this.inFlight.set(key, kept);
    return { promise: kept, joined: false };
  }
}
