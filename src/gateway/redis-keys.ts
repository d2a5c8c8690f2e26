// The names of everything the gateway keeps in Redis. Every key is filed under the account tag (a one-way
// hash of the key, src/api/account-tag.ts) and, for answers and flights, the request's serialised
// RequestKey (its path and query, which never hold the API key): no key or value holds an API key.
const PREFIX = "fdq:gw:";

export const redisKeys = {
  /** A kept answer of one refresh day (JSON of StoredAnswer). */
  answer: (day: string, tag: string, id: string): string => `${PREFIX}answer:${day}:${tag}:${id}`,
  /** The lock of the one instance fetching this request now (value: that instance's flight id). */
  flight: (day: string, tag: string, id: string): string => `${PREFIX}flight:${day}:${tag}:${id}`,
  /** What one flight (by its id) answered, kept or not (a 503 too), for the instances waiting on it. */
  landed: (day: string, tag: string, id: string, flight: string): string =>
    `${PREFIX}landed:${day}:${tag}:${id}:${flight}`,
  /** The account's upstream requests open now, across instances (sorted set: holder -> expiry ms). */
  slots: (tag: string): string => `${PREFIX}slots:${tag}`,
  /** The account's ledger of one US Central month (hash: d:<day>, g:<group> -> units; exhausted). */
  ledger: (tag: string, month: string): string => `${PREFIX}ledger:${tag}:${month}`,
} as const;

/** Kept answers outlive their refresh day by a margin, then Redis drops them (old days go first). */
export const ANSWER_TTL_MS = 36 * 60 * 60 * 1000;
/** A ledger outlives its month so that /usage can still be read on the last evening of it. */
export const LEDGER_TTL_MS = 62 * 24 * 60 * 60 * 1000;
