// Concurrency limit with a fair FIFO queue. The queue is an array read from a moving head, so a burst of
// tens of thousands of waiters costs O(1) per hand-over (Array.shift would be O(n)).

export class Limiter {
  private active = 0;
  private peak = 0;
  private waiting: ((() => void) | undefined)[] = [];
  private head = 0;

  constructor(private readonly limit: number) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length - this.head;
  }

  get maxInFlight(): number {
    return this.peak;
  }

  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      this.peak = Math.max(this.peak, this.active);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the longest waiter, so the count of active slots never rises above the limit. */
  release(): void {
    const next = this.waiting[this.head];
    if (next === undefined) {
      this.active--;
      return;
    }
    this.waiting[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    next();
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
