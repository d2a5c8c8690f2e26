// Refused keys per client address: pass-through would otherwise let anyone try keys against the FDQ service
// through the gateway, and team mode try gateway tokens, as fast as they can send. Each address may have
// `max` keys refused (a token the tokens file does not hold, a key the service answered 401/403, a key no
// FDQ key could be) within `windowMs`; after that its requests with a key are answered 429 with Retry-After
// until the window ends, before the key is looked at or sent upstream. The addresses are an LRU (lru-cache,
// already the store's) bounded in count, so a flood of addresses cannot grow the gateway's memory.
import { LRUCache } from "lru-cache";
import { tooManyFailedKeys } from "./errors";

export interface FailedKeysOptions {
  /** Refused keys allowed per address and window (default 20). */
  max?: number;
  /** The window, from the first refused key of the address (default 60 s). */
  windowMs?: number;
  /** Addresses remembered at once (default 10,000: the least recently refused is forgotten first). */
  addresses?: number;
  now?: () => number;
}

interface Window {
  start: number;
  count: number;
}

export class FailedKeys {
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly byAddress: LRUCache<string, Window>;

  constructor(o: FailedKeysOptions = {}) {
    this.max = o.max ?? 20;
    this.windowMs = o.windowMs ?? 60_000;
    this.now = o.now ?? Date.now;
    this.byAddress = new LRUCache<string, Window>({ max: o.addresses ?? 10_000 });
  }

  /** Throws the 429 when `address` has had too many keys refused in its window. */
  check(address: string): void {
    const w = this.current(address);
    if (w && w.count >= this.max) {
      throw tooManyFailedKeys(Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000)));
    }
  }

  /** Counts a refused key of `address`. */
  refused(address: string): void {
    const w = this.current(address);
    if (w) w.count++;
    else this.byAddress.set(address, { start: this.now(), count: 1 });
  }

  private current(address: string): Window | undefined {
    const w = this.byAddress.get(address);
    if (w && this.now() - w.start >= this.windowMs) {
      this.byAddress.delete(address);
      return undefined;
    }
    return w;
  }
}
