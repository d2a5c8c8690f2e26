// Wake-ups between instances (--redis): an instance waiting for another's flight, or for one of the
// account's upstream slots, sleeps until that flight lands or a slot is given back, instead of polling Redis
// in a tight loop. One subscriber connection per instance on one channel; the message is the topic (the
// flight's or the slots' Redis key: account tag and request key, never an API key). Redis pub/sub delivers
// at most once (nothing during a reconnect), so every wait also ends after `ms` and the waiter looks again.
import type { Redis } from "ioredis";
import type { RedisLink } from "./redis-link";

const CHANNEL = "fdq:gw:wakeups";

export class Wakeups {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly subscriber: Redis;

  constructor(private readonly redis: RedisLink) {
    // A second connection with the same fail-fast options: a subscribed connection takes no other command.
    this.subscriber = redis.client.duplicate();
    this.subscriber.on("error", () => {}); // the main connection reports outages; this one only wakes
    this.subscriber.on("message", (_channel: string, topic: string) => this.wake(topic));
  }

  /** Subscribes; a failure leaves the waits to their timers (and ioredis subscribes again on reconnect). */
  async connect(): Promise<void> {
    try {
      await this.subscriber.connect();
      await this.subscriber.subscribe(CHANNEL);
    } catch {
      // waits end by their timers
    }
  }

  /**
   * Arms a wait for `topic`: `woken` resolves when any instance notifies it, or after `ms`. Armed before the
   * waiter looks at Redis, so that a notice arriving while it looks is not missed; `cancel` when the look
   * found what it waits for.
   */
  arm(topic: string, ms: number): { woken: Promise<void>; cancel: () => void } {
    let set = this.waiting.get(topic);
    if (!set) {
      set = new Set();
      this.waiting.set(topic, set);
    }
    const waiters = set;
    let done = (): void => {};
    const woken = new Promise<void>((resolve) => {
      done = (): void => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(topic) === waiters) this.waiting.delete(topic);
        resolve();
      };
    });
    const timer = setTimeout(done, ms);
    waiters.add(done);
    return { woken, cancel: done };
  }

  /** Wakes the waiters of `topic` on every instance (this one included, through Redis). */
  async notify(topic: string): Promise<void> {
    this.wake(topic); // this instance's waiters need no round trip
    await this.redis.use(
      (r) => r.publish(CHANNEL, topic),
      () => 0,
    );
  }

  async close(): Promise<void> {
    for (const set of this.waiting.values()) for (const done of [...set]) done();
    this.subscriber.disconnect();
  }

  private wake(topic: string): void {
    const set = this.waiting.get(topic);
    if (set) for (const done of [...set]) done();
  }
}
