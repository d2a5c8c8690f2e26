// An account's upstream slots shared fairly between the analysts (team mode: the token's name;
// pass-through: the client's address) that use it. Without this, one analyst's burst to a slow or hanging
// service held every slot and another analyst's request waited behind all of it. Two rules:
// - while other analysts use the account (any request of theirs in the last minute), one analyst never
//   holds its last free slot while holding others (with 2 slots or more), so a request of another
//   analyst finds a slot at once; an analyst alone on the account uses every slot;
// - a slot given back goes to the waiting analyst holding the fewest slots (ties: who waited longest), so
//   with several analysts waiting each gets a share, however many requests one of them queued.
// And each request has one deadline from its arrival at the gateway: time spent waiting for a slot counts,
// and a request still queued at its deadline is answered 504 without going upstream. Written here (not
// p-queue, which the request module's Limiter uses) because p-queue has one FIFO and no notion of whose
// task it runs.
import { deadlinePassed } from "./errors";

/** Where the account's upstream requests wait for a slot. */
export interface UpstreamSlots {
  /**
   * Runs `task` in a slot of `party`'s share; rejects with a 504 GatewayError when `deadline`
   * (performance.now() time) passes before a slot is free.
   */
  run<T>(party: string, deadline: number, task: () => Promise<T>): Promise<T>;
}

/** Another party's request within this window makes the account shared: the last slot is kept for it. */
const SHARED_WINDOW_MS = 60_000;
/** Parties remembered at most (the oldest go first). */
const MAX_PARTIES = 1_000;

interface Waiter {
  seq: number;
  take: () => void;
}

export class FairSlots implements UpstreamSlots {
  private readonly held = new Map<string, number>();
  /** Waiters by party, each queue in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();
  private inUse = 0;
  private seq = 0;
  private peak = 0;
  /** When each party last asked for a slot (parties of the last minute; bounded by pruning). */
  private readonly seen = new Map<string, number>();

  /** `timeoutMs` only names the deadline in the 504's message. */
  constructor(
    readonly concurrency: number,
    private readonly timeoutMs: number,
  ) {}

  /** Slots in use now. */
  get inFlight(): number {
    return this.inUse;
  }

  /** Most slots ever in use at once. */
  get maxInFlight(): number {
    return this.peak;
  }

  /** Requests waiting for a slot now. */
  get queued(): number {
    let n = 0;
    for (const q of this.waiting.values()) n += q.length;
    return n;
  }

  async run<T>(party: string, deadline: number, task: () => Promise<T>): Promise<T> {
    await this.acquire(party, deadline);
    try {
      return await task();
    } finally {
      this.release(party);
    }
  }

  private acquire(party: string, deadline: number): Promise<void> {
    this.saw(party);
    if (this.queued === 0 && this.mayTake(party)) {
      this.take(party);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        seq: this.seq++,
        take: () => {
          clearTimeout(timer);
          this.take(party);
          resolve();
        },
      };
      const timer = setTimeout(
        () => {
          const q = this.waiting.get(party);
          const at = q?.indexOf(waiter) ?? -1;
          if (q && at >= 0) {
            q.splice(at, 1);
            if (q.length === 0) this.waiting.delete(party);
          }
          reject(deadlinePassed(this.timeoutMs, true));
          this.dispatch(); // a queue gone may let another party take a slot it was kept from
        },
        Math.max(0, deadline - performance.now()),
      );
      let q = this.waiting.get(party);
      if (!q) {
        q = [];
        this.waiting.set(party, q);
      }
      q.push(waiter);
      this.dispatch();
    });
  }

  private saw(party: string): void {
    const now = performance.now();
    this.seen.delete(party); // re-inserted last: the map stays in order of last use
    this.seen.set(party, now);
    for (const [p, at] of this.seen) {
      if (now - at <= SHARED_WINDOW_MS && this.seen.size <= MAX_PARTIES) break;
      this.seen.delete(p);
    }
  }

  /** Whether a party other than `party` asked for a slot within the last minute. */
  private othersAround(party: string): boolean {
    const now = performance.now();
    for (const [p, at] of this.seen) if (p !== party && now - at <= SHARED_WINDOW_MS) return true;
    return false;
  }

  /** Whether `party` may take a free slot now. */
  private mayTake(party: string): boolean {
    if (this.inUse >= this.concurrency) return false;
    const mine = this.held.get(party) ?? 0;
    // The last free slot is kept from a party that holds others while others use the account.
    const last = this.concurrency >= 2 && mine > 0 && this.inUse === this.concurrency - 1;
    return !(last && this.othersAround(party));
  }

  private take(party: string): void {
    this.held.set(party, (this.held.get(party) ?? 0) + 1);
    this.inUse++;
    this.peak = Math.max(this.peak, this.inUse);
  }

  private release(party: string): void {
    const mine = (this.held.get(party) ?? 1) - 1;
    if (mine <= 0) this.held.delete(party);
    else this.held.set(party, mine);
    this.inUse--;
    this.dispatch();
  }

  /** Gives free slots to the waiting parties holding the fewest (ties: the longest waiting). */
  private dispatch(): void {
    for (;;) {
      let best: { party: string; held: number; seq: number } | undefined;
      for (const [party, q] of this.waiting) {
        if (!this.mayTake(party)) continue;
        const held = this.held.get(party) ?? 0;
        const seq = q[0]!.seq;
        if (!best || held < best.held || (held === best.held && seq < best.seq)) best = { party, held, seq };
      }
      if (!best) return;
      const q = this.waiting.get(best.party)!;
      const waiter = q.shift()!;
      if (q.length === 0) this.waiting.delete(best.party);
      waiter.take();
    }
  }
}
