// The day's answers shared through Redis (--redis): an answer one instance fetched is read by every other.
// The embedded store stays in front as this instance's own tier: a refresh day's answer never changes, so
// a local copy is never stale and saves a round trip, and while Redis is unreachable it is what answers
// (without sharing). Redis drops a day's answers by their expiry, so dropBefore is local only. Values are
// sealed (redis-keys.ts): one that is not is ignored, never served.
import type { AnswerKey } from "./keys";
import { ANSWER_TTL_MS, type RedisKeyParts } from "./redis-keys";
import type { RedisLink } from "./redis-link";
import type { AnswerStore, EmbeddedStore, StoredAnswer } from "./store";
import { jsonContentType } from "./upstream";

/** The answer in a (opened) Redis value, or undefined for anything else. */
export function parseStoredAnswer(text: string | null | undefined): StoredAnswer | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const o = JSON.parse(text) as Partial<StoredAnswer>;
    if (typeof o.status !== "number" || typeof o.contentType !== "string" || typeof o.body !== "string")
      return undefined;
    // Whatever the value says, only a JSON type is served.
    return { status: o.status, contentType: jsonContentType(o.contentType), body: o.body };
  } catch {
    return undefined;
  }
}

export const answerText = (a: StoredAnswer): string =>
  JSON.stringify({ status: a.status, contentType: a.contentType, body: a.body });

export class RedisAnswerStore implements AnswerStore {
  constructor(
    private readonly redis: RedisLink,
    readonly local: EmbeddedStore,
    private readonly keys: RedisKeyParts,
  ) {}

  async get(key: AnswerKey): Promise<StoredAnswer | undefined> {
    const own = await this.local.get(key);
    if (own) return own;
    const name = this.keys.name({ kind: "answer", ...key });
    const shared = await this.redis.use(
      async (r) => parseStoredAnswer(this.keys.open(name, await r.get(name))),
      () => undefined,
    );
    if (shared) await this.local.set(key, shared);
    return shared;
  }

  async set(key: AnswerKey, answer: StoredAnswer): Promise<void> {
    await this.local.set(key, answer);
    const name = this.keys.name({ kind: "answer", ...key });
    await this.redis.use(
      async (r) => {
        await r.set(name, this.keys.seal(name, answerText(answer)), "PX", ANSWER_TTL_MS);
      },
      () => undefined,
    );
  }

  dropBefore(day: string): Promise<void> {
    return this.local.dropBefore(day);
  }

  flush(): Promise<void> {
    return this.local.flush();
  }
}
