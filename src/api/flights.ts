// One in-flight promise per request of a refresh day (single-flight.ts, keyed by the request and the day),
// and the per-datapoint planner's gathering of the names one recalculation asks of a dataset.
import type { CacheValue } from "./cache-codec";
import type { DataKey } from "./call-keys";
import { asksWholeDataset } from "./planner";
import type { RequestKey } from "./request-key";
import { SingleFlight } from "./single-flight";
import { sleep } from "./sleep";

export class Flights {
  private readonly inFlight = new SingleFlight<CacheValue>();
  /** The names asked of one dataset, ticker and period within the coalescing window. */
  private readonly batches = new Map<string, { names: Set<string>; done: Promise<Set<string>> }>();

  /** Counts the calls that joined a request another call had started or scheduled. */
  constructor(private readonly onJoin: () => void) {}

  /** Whether a request for `key` is scheduled or running on `refreshDay`. */
  has(key: RequestKey, refreshDay: string): boolean {
    return this.inFlight.has(key.inFlightKey(refreshDay));
  }

  /**
   * The request already scheduled or running for `key` on this refresh day, or a new one started after
   * `windowMs`. A call after the day's boundary never joins a request started before it: that answer
   * belongs to the previous day.
   */
  share(
    key: RequestKey,
    refreshDay: string,
    fetch: () => Promise<CacheValue>,
    windowMs = 0,
  ): Promise<CacheValue> {
    const flight = this.inFlight.run(key.inFlightKey(refreshDay), () =>
      windowMs > 0 ? sleep(windowMs).then(fetch) : fetch(),
    );
    if (flight.joined) this.onJoin();
    return flight.promise;
  }

  /**
   * Per-datapoint billing: the calls of one recalculation asking the same dataset, ticker and period gather
   * for `windowMs`; they share the whole dataset's request when together they ask every name of it (the
   * same units, one request) or when the whole is asked meanwhile, and otherwise each asks its own datapoint.
   */
  async choose(
    name: string,
    whole: DataKey,
    single: DataKey,
    refreshDay: string,
    windowMs: number,
  ): Promise<DataKey> {
    const id = whole.inFlightKey(refreshDay);
    let batch = this.batches.get(id);
    if (!batch) {
      const names = new Set<string>();
      batch = {
        names,
        done: sleep(windowMs).then(() => {
          this.batches.delete(id);
          return names;
        }),
      };
      this.batches.set(id, batch);
    }
    batch.names.add(name);
    const names = await batch.done;
    // A whole request started meanwhile (an FDQ.DATASET cell of the same recalculation) answers it too.
    if (this.has(whole, refreshDay)) return whole;
    return asksWholeDataset(whole.fields.dataset, names) ? whole : single;
  }
}
