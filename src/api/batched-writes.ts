// Writes of a store batched after a delay and run one after another: the day cache and the usage ledger
// both save this way, and a failed write only warns (a cache or a count is lost, never a request).
export class BatchedWrites {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly delayMs: number,
    private readonly write: () => Promise<void>,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Runs a write after the delay, unless one is already scheduled. */
  schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.now();
    }, this.delayMs);
    // A pending write must not keep a Node process (CLI, tests) alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  /** Runs a write now (after those under way), cancelling the scheduled one. */
  now(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.writing.then(() => this.write());
    this.writing = run.catch((e: unknown) => this.onError(e as Error));
    return this.writing;
  }

  /** Resolves once the writes under way are done. */
  settled(): Promise<void> {
    return this.writing;
  }
}
