// The memory the gateway gives to upstream bodies in flight, in total: each body is bounded on its own
// (maxBodyBytes), but sixty requests of sixty keys, each reading a large body at once, added up to
// hundreds of megabytes. Every byte read from the service is taken from one budget and given back when the
// request that read it has answered; a body that would go over it is cancelled and its request answered
// 503 with Retry-After (never kept), so the gateway's memory for bodies stays under the budget however
// many clients ask at once. A body is charged three times its size on the wire: while it is answered it
// lives as the chunks read, the text they are joined into, and the bytes written to the client.
import { overBudget } from "./errors";

export class BodyBudget {
  private used = 0;
  private peak = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes taken now. */
  get inUse(): number {
    return this.used;
  }

  /** Most bytes ever taken at once. */
  get maxInUse(): number {
    return this.peak;
  }

  /** Takes `bytes` or throws the 503 (taking nothing) when the budget would be exceeded. */
  take(bytes: number): void {
    if (this.used + bytes > this.maxBytes) {
      throw overBudget("the FDQ gateway is reading too many large answers at once");
    }
    this.used += bytes;
    this.peak = Math.max(this.peak, this.used);
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** The bytes one request took from the budget, given back once (when its answer is written). */
/** Copies of a body alive at once while it is answered (chunks, text, bytes written). */
export const BODY_COPIES = 3;

export class BudgetTicket {
  private bytes = 0;

  constructor(private readonly budget: BodyBudget) {}

  /** Takes the memory of `bytes` read from the wire (BODY_COPIES times them). */
  take(bytes: number): void {
    this.budget.take(BODY_COPIES * bytes);
    this.bytes += BODY_COPIES * bytes;
  }

  release(): void {
    this.budget.give(this.bytes);
    this.bytes = 0;
  }
}
