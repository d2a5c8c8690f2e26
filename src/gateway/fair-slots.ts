// The gateway's upstream slots: one budget of upstream requests open at once for the whole gateway (this
// instance), shared fairly between the accounts that use it, and each account's share shared fairly between
// its analysts (team mode: the token's name; pass-through: the client's address). Without this, one
// account's or one analyst's burst to a slow or hanging service held every slot, and a colleague's first
// request waited behind all of it, up to its deadline. The rules, the same at both levels:
// - bounds: at most `budget` requests upstream at once, at most `perAccount` of them for one account;
// - a kept slot: an account that has requests upstream never takes the gateway's last free slot, and an
//   analyst who has requests upstream never takes the account's last free slot (with 2 slots or more at
//   that level). That slot is kept for an account (an analyst) with nothing upstream, whose request thus
//   goes upstream at once however long the others' requests hang;
// - a slot given back goes to the waiting account holding the fewest slots, and within it to the waiting
//   analyst holding the fewest (ties: who waited longest), so accounts busy at once converge on equal
//   shares, however many requests one of them queued.
// And each request has one deadline from its arrival at the gateway: time spent waiting for a slot counts,
// and a request still queued at its deadline is answered 504 without going upstream. Written here (not
// p-queue, which the request module's Limiter uses) because p-queue has one FIFO and no notion of whose
// task it runs. State is kept only for accounts and analysts with requests upstream or waiting.
import { deadlinePassed } from "./errors";

/** What a request's slot was taken under: the figures its access-log line shows. */
export interface SlotGrant {
  /** Upstream requests the gateway opens at once (its slot budget). */
  readonly budget: number;
  /** The slots each busy account is due when this one was taken (see FairSlots.share). */
  readonly share: number;
  /** The account's requests upstream once this one took its slot, this one included. */
  readonly held: number;
}

/** The slots now, for /healthz: no account is named (a tag would confirm a guessed key). */
export interface SlotFigures {
  readonly budget: number;
  readonly perAccount: number;
  /** Requests upstream now, and waiting for a slot. */
  readonly inFlight: number;
  readonly waiting: number;
  /** Accounts with requests upstream or waiting. */
  readonly accounts: number;
  /** The slots each of them is due now. */
  readonly share: number;
  /** Requests upstream of each account that has any, most first. */
  readonly byAccount: number[];
}

/** Where one account's upstream requests wait for a slot. */
export interface UpstreamSlots {
  /**
   * Runs `task` in a slot of `party`'s share of the account; rejects with a 504 GatewayError when `deadline`
   * (performance.now() time) passes before a slot is free.
   */
  run<T>(party: string, deadline: number, task: (grant: SlotGrant) => Promise<T>): Promise<T>;
}

interface Waiter {
  readonly seq: number;
  readonly take: () => void;
}

/** An account with requests upstream or waiting. */
interface AccountSlots {
  held: number;
  /** Slots held by each analyst (only those holding any). */
  readonly parties: Map<string, number>;
  /** Waiters by analyst, each queue in arrival order. */
  readonly waiting: Map<string, Waiter[]>;
}

export class FairSlots {
  private readonly accounts = new Map<string, AccountSlots>();
  private inUse = 0;
  private queued = 0;
  private seq = 0;

  /** `timeoutMs` only names the deadline in the 504's message. */
  constructor(
    readonly budget: number,
    readonly perAccount: number,
    private readonly timeoutMs: number,
  ) {}

  /** The slots of the account of `tag`. */
  account(tag: string): UpstreamSlots {
    return { run: (party, deadline, task) => this.run(tag, party, deadline, task) };
  }

  /**
   * The slots each busy account is due: the budget less the kept slot, divided among the accounts with
   * requests upstream or waiting (rounded down, at least 1, at most `perAccount`). Slots given back go to
   * the account holding the fewest, so the busy accounts converge on it (the remainder to who asks first).
   */
  get share(): number {
    const busy = Math.max(1, this.accounts.size);
    return Math.min(this.perAccount, Math.max(1, Math.floor((this.budget - this.kept) / busy)));
  }

  figures(): SlotFigures {
    const byAccount: number[] = [];
    for (const a of this.accounts.values()) if (a.held > 0) byAccount.push(a.held);
    return {
      budget: this.budget,
      perAccount: this.perAccount,
      inFlight: this.inUse,
      waiting: this.queued,
      accounts: this.accounts.size,
      share: this.share,
      byAccount: byAccount.sort((x, y) => y - x),
    };
  }

  /** The gateway's slot kept for an account with nothing upstream (none with a budget of 1). */
  private get kept(): number {
    return this.budget >= 2 ? 1 : 0;
  }

  async run<T>(
    tag: string,
    party: string,
    deadline: number,
    task: (grant: SlotGrant) => Promise<T>,
  ): Promise<T> {
    const grant = await this.acquire(tag, party, deadline);
    try {
      return await task(grant);
    } finally {
      this.release(tag, party);
    }
  }

  private acquire(tag: string, party: string, deadline: number): Promise<SlotGrant> {
    let account = this.accounts.get(tag);
    if (!account) {
      account = { held: 0, parties: new Map(), waiting: new Map() };
      this.accounts.set(tag, account);
    }
    const a = account;
    return new Promise<SlotGrant>((resolve, reject) => {
      const waiter: Waiter = {
        seq: this.seq++,
        take: () => {
          clearTimeout(timer);
          this.take(a, party);
          resolve({ budget: this.budget, share: this.share, held: a.held });
        },
      };
      const timer = setTimeout(
        () => {
          const q = a.waiting.get(party);
          const at = q?.indexOf(waiter) ?? -1;
          if (q && at >= 0) {
            q.splice(at, 1);
            this.queued--;
            if (q.length === 0) a.waiting.delete(party);
            this.forgetIfIdle(tag, a);
          }
          reject(deadlinePassed(this.timeoutMs, true));
          this.dispatch(); // a queue gone may let another take a slot it was kept from
        },
        Math.max(0, deadline - performance.now()),
      );
      let q = a.waiting.get(party);
      if (!q) {
        q = [];
        a.waiting.set(party, q);
      }
      q.push(waiter);
      this.queued++;
      this.dispatch();
    });
  }

  /** Whether `party` of account `a` may take a free slot now. */
  private mayTake(a: AccountSlots, party: string): boolean {
    if (this.inUse >= this.budget || a.held >= this.perAccount) return false;
    // The gateway's last free slot is kept for an account with nothing upstream.
    if (this.kept > 0 && a.held > 0 && this.inUse === this.budget - 1) return false;
    // The account's last free slot is kept for an analyst with nothing upstream.
    const mine = a.parties.get(party) ?? 0;
    return !(this.perAccount >= 2 && mine > 0 && a.held === this.perAccount - 1);
  }

  private take(a: AccountSlots, party: string): void {
    a.parties.set(party, (a.parties.get(party) ?? 0) + 1);
    a.held++;
    this.inUse++;
  }

  private release(tag: string, party: string): void {
    const a = this.accounts.get(tag)!;
    const mine = (a.parties.get(party) ?? 1) - 1;
    if (mine <= 0) a.parties.delete(party);
    else a.parties.set(party, mine);
    a.held--;
    this.inUse--;
    this.forgetIfIdle(tag, a);
    this.dispatch();
  }

  private forgetIfIdle(tag: string, a: AccountSlots): void {
    if (a.held === 0 && a.waiting.size === 0) this.accounts.delete(tag);
  }

  /**
   * Gives free slots to the waiting accounts holding the fewest, within each to the waiting analyst holding
   * the fewest (ties at either level: the longest waiting).
   */
  private dispatch(): void {
    for (;;) {
      let best: { a: AccountSlots; party: string; oldest: number } | undefined;
      for (const a of this.accounts.values()) {
        if (best && a.held > best.a.held) continue;
        // The account's analyst to serve, and how long the account has waited (its oldest waiter that may take).
        let pick: { party: string; mine: number; seq: number } | undefined;
        let oldest = Infinity;
        for (const [party, q] of a.waiting) {
          if (!this.mayTake(a, party)) continue;
          const mine = a.parties.get(party) ?? 0;
          const seq = q[0]!.seq;
          oldest = Math.min(oldest, seq);
          if (!pick || mine < pick.mine || (mine === pick.mine && seq < pick.seq))
            pick = { party, mine, seq };
        }
        if (pick && (!best || a.held < best.a.held || oldest < best.oldest))
          best = { a, party: pick.party, oldest };
      }
      if (!best) return;
      const q = best.a.waiting.get(best.party)!;
      const waiter = q.shift()!;
      this.queued--;
      if (q.length === 0) best.a.waiting.delete(best.party);
      waiter.take();
    }
  }
}
