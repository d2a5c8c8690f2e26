// Identical requests in flight on several instances go upstream once (--redis). The instance that sets the
// request's lock (SET NX PX, value: a fresh flight id) fetches; it renews the lock while it waits for a slot
// and the answer, so a lock outlives its expiry only while its holder is alive. An instance that finds the
// lock taken learns the holder's flight id in the same script and looks with one MGET at the kept answer,
// that flight's landed answer and the lock, again each time the holder's notice wakes it (redis-wakeups.ts)
// or every 100 ms. The holder writes its answer before it deletes the lock, so a lock gone (or another
// flight's) without an answer means that flight failed: the waiter tries to lead itself.
import { randomUUID } from "node:crypto";
import type { FlightOutcome, Flights, Fly } from "./flights";
import type { AnswerKey } from "./keys";
import type { RedisKeyParts } from "./redis-keys";
import type { RedisLink } from "./redis-link";
import { parseStoredAnswer } from "./redis-store";
import type { Wakeups } from "./redis-wakeups";
import { validRetryAfter, type UpstreamAnswer } from "./upstream";

/** A flight's lock expires this long after its holder last renewed it (a crashed holder frees it so). */
const LOCK_TTL_MS = 10_000;
/** How long a landed answer waits for the instances polling it; far above the poll interval. */
const LANDED_TTL_MS = 10_000;
/** A waiter looks again this often without a notice (one lost in a reconnect, or a crashed holder's). */
const LOOK_AGAIN_MS = 100;

/** Takes the lock (answers "") or answers the flight id of its holder, atomically. */
const TAKE = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return '' end
return redis.call('GET', KEYS[1])`;
/** Deletes the lock only if this flight still holds it (an expired lock may be another's by now). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
/** Renews the lock only if this flight still holds it. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const landedText = (a: UpstreamAnswer): string =>
  JSON.stringify({ status: a.status, contentType: a.contentType, body: a.body, retryAfter: a.retryAfter });

/** A landed answer (its seal opened); Retry-After only if it is one by RFC 9110. */
function parseLanded(text: string | undefined): UpstreamAnswer | undefined {
  const answer = parseStoredAnswer(text);
  if (!answer || text === undefined) return undefined;
  const { retryAfter } = JSON.parse(text) as { retryAfter?: unknown };
  return { ...answer, retryAfter: validRetryAfter(typeof retryAfter === "string" ? retryAfter : undefined) };
}

type Seen = { answer: UpstreamAnswer } | "free" | "unshared";

export class RedisFlights implements Flights {
  constructor(
    private readonly redis: RedisLink,
    private readonly wakeups: Wakeups,
    private readonly keys: RedisKeyParts,
  ) {}

  async run(key: AnswerKey, fly: Fly): Promise<FlightOutcome> {
    const lock = this.keys.name({ kind: "flight", ...key });
    for (;;) {
      const me = randomUUID();
      const holder = await this.redis.use(
        async (r) => String(await r.eval(TAKE, 1, lock, me, LOCK_TTL_MS)),
        () => undefined,
      );
      if (holder === undefined) return fly();
      if (holder === "") return this.lead(key, me, fly);
      const seen = await this.wait(key, holder);
      if (seen === "unshared") return fly();
      if (seen !== "free") return { answer: seen.answer, fetchedHere: false };
    }
  }

  private async lead(key: AnswerKey, me: string, fly: Fly): Promise<FlightOutcome> {
    const lock = this.keys.name({ kind: "flight", ...key });
    const renew = setInterval(() => {
      void this.redis.use(
        (r) => r.eval(RENEW, 1, lock, me, LOCK_TTL_MS),
        () => 0,
      );
    }, LOCK_TTL_MS / 3);
    try {
      // The flight looks at the store again (under the lock): an instance that kept the answer and let the
      // lock go between this instance's look and its lock costs no second upstream request.
      const outcome = await fly();
      await this.redis.use(
        (r) => {
          const name = this.keys.name({ kind: "landed", ...key, flight: me });
          return r.set(name, this.keys.seal(name, landedText(outcome.answer)), "PX", LANDED_TTL_MS);
        },
        () => undefined,
      );
      return outcome;
    } finally {
      clearInterval(renew);
      await this.redis.use(
        (r) => r.eval(RELEASE, 1, lock, me),
        () => 0,
      );
      await this.wakeups.notify(lock);
    }
  }

  /** Waits until the holder's flight has an answer, or its lock is gone without one. */
  private async wait(key: AnswerKey, holder: string): Promise<Seen> {
    const lock = this.keys.name({ kind: "flight", ...key });
    const keys = [
      this.keys.name({ kind: "answer", ...key }),
      this.keys.name({ kind: "landed", ...key, flight: holder }),
      lock,
    ];
    for (;;) {
      const { woken, cancel } = this.wakeups.arm(lock, LOOK_AGAIN_MS);
      const seen = await this.redis.use(
        async (r): Promise<Seen | undefined> => {
          const [kept, landed, held] = await r.mget(...keys);
          const stored = parseStoredAnswer(this.keys.open(keys[0]!, kept));
          if (stored) return { answer: { ...stored, retryAfter: undefined } };
          const answer = parseLanded(this.keys.open(keys[1]!, landed));
          if (answer) return { answer };
          return held === holder ? undefined : "free";
        },
        () => "unshared" as const,
      );
      if (seen !== undefined) {
        cancel();
        return seen;
      }
      await woken;
    }
  }
}
