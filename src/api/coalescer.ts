// The request module's one coalescer: calls that want the same work at once share it. The first caller of an id
// holds the claim; it may first wait a gathering window, during which every caller adds what it asks (its item);
// then it settles the claim with the work's promise. Every caller until the work settles joins that promise, and
// the id is free again the moment it settles, so a failure is never kept as an answer. The callers do the work
// themselves: nothing is handed down to be called back.
//
// It serves every kind of sharing on a cell's path (src/api/day-answers.ts, src/api/period-resolver.ts):
//   - a request in flight (one per request and refresh day): identical requests share one;
//   - a per-datapoint batch (the names one recalculation asks of a dataset, ticker and period);
//   - a latest-period search (one per ticker, period kind and refresh day).
import { sleep } from "./sleep";

/** What a caller of `claim` holds: the shared outcome, and for the first caller the work to settle. */
export interface Claim<V, I> {
  /** Whether another caller holds the claim: then only `promise` is this caller's. */
  readonly joined: boolean;
  /** The outcome of the work, the same promise for every caller. */
  readonly promise: Promise<V>;
  /** The holder: the items gathered by the end of the window (the holder's first). */
  gathered(): Promise<readonly I[]>;
  /** The holder: settles the claim with the work's outcome; answers the shared promise. */
  settle(work: Promise<V>): Promise<V>;
}

interface Entry<V, I> {
  readonly promise: Promise<V>;
  readonly items: I[];
  /** Whether callers may still add items (until the holder reads them). */
  open: boolean;
}

/** A claim that another caller holds. */
const joinedClaim = <V, I>(promise: Promise<V>): Claim<V, I> => ({
  joined: true,
  promise,
  gathered: () => Promise.reject(new Error("a joined claim gathers nothing")),
  settle: () => promise,
});

export class Coalescer {
  private readonly entries = new Map<string, Entry<unknown, unknown>>();

  /** Whether work for `id` is claimed and not yet settled. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The promise of the work claimed for `id`, if any. */
  pending<V>(id: string): Promise<V> | undefined {
    return this.entries.get(id)?.promise as Promise<V> | undefined;
  }

  /**
   * Joins the work claimed for `id` (adding `item` while its window is open), or claims it. `windowMs`: how
   * long the holder gathers before it works (0: at once).
   */
  claim<V, I = never>(id: string, item?: I, windowMs = 0): Claim<V, I> {
    const existing = this.entries.get(id) as Entry<V, I> | undefined;
    if (existing) {
      if (existing.open && item !== undefined) existing.items.push(item);
      return joinedClaim(existing.promise);
    }
    let resolve!: (value: V) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<V>((res, rej) => ([resolve, reject] = [res, rej]));
    const entry: Entry<V, I> = { promise, items: item === undefined ? [] : [item], open: true };
    this.entries.set(id, entry as Entry<unknown, unknown>);
    const free = (): void => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    };
    promise.then(free, free);
    const close = (): readonly I[] => {
      entry.open = false;
      return entry.items;
    };
    return {
      joined: false,
      promise,
      gathered: () => (windowMs > 0 ? sleep(windowMs).then(close) : Promise.resolve(close())),
      settle: (work) => {
        work.then(resolve, reject);
        return promise;
      },
    };
  }
}
