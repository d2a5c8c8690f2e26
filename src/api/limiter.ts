// The one concurrency limit of the request module, over p-queue (a maintained, bounded FIFO promise queue
// with pause/start): at most `concurrency` requests open, the rest wait in order; a pause (a 429 with
// Retry-After) holds every request that has not started until it ends.
import PQueue from "p-queue";

export class Limiter {
  private readonly queue: PQueue;
  private peak = 0;
  private pause: Promise<void> | undefined;

  constructor(concurrency: number) {
    this.queue = new PQueue({ concurrency });
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.queue.pending;
  }

  /** Tasks waiting for a slot (or for a pause to end). */
  get queued(): number {
    return this.queue.size;
  }

  /** Most tasks ever running at once. */
  get maxInFlight(): number {
    return this.peak;
  }

  /**
   * A slot, after the requests queued before it: answers the function that gives it back. The caller runs its
   * own work in between, so nothing of the caller's is handed to the queue.
   */
  acquire(): Promise<() => void> {
    return new Promise((granted) => {
      void this.queue.add(
        () =>
          new Promise<void>((release) => {
            this.peak = Math.max(this.peak, this.queue.pending);
            granted(release);
          }),
      );
    });
  }

  /** Runs `task` in a slot, after the tasks queued before it. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Starts nothing until `wait` settles; pauses asked for during one join it. Answers the pause. */
  pauseUntil(wait: () => Promise<void>): Promise<void> {
    if (this.pause) return this.pause;
    this.queue.pause();
    const pause = wait().finally(() => {
      this.pause = undefined;
      this.queue.start();
    });
    this.pause = pause;
    return pause;
  }
}
