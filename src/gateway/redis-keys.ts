// The secret behind the names of everything the gateway keeps in Redis (their format is keys.ts's), and the
// seal on every value it reads back. Anyone who can read or write the Redis (a shared instance, a leaked
// password) must learn nothing and plant nothing, so, under the secret all instances share (FDQ_GATEWAY_REDIS_SECRET, never stored in Redis):
// - every name part that comes from a request or a key (the account tag, the request's path) is an
//   HMAC-SHA256 of it: no plain path, and no unsalted hash of the key that would confirm a guessed key
//   offline;
// - every value the gateway reads back as an answer (kept and landed answers) and the ledger's "quota
//   spent" mark carry an HMAC over the value and its own key name, so a value written by anyone else, or
//   moved from another key, is ignored (and logged) instead of served to analysts.
// node:crypto's HMAC: the standard construction, no dependency.
import { createHmac, timingSafeEqual } from "node:crypto";
import { GatewaySetupError } from "./errors";
import { redisName, type GatewayKey } from "./keys";

/** Kept answers outlive their refresh day by a margin, then Redis drops them (old days go first). */
export const ANSWER_TTL_MS = 36 * 60 * 60 * 1000;
/** A ledger outlives its month so that /usage can still be read on the last evening of it. */
export const LEDGER_TTL_MS = 62 * 24 * 60 * 60 * 1000;

/** The environment variable of the secret every instance on one Redis shares. */
export const REDIS_SECRET_ENV = "FDQ_GATEWAY_REDIS_SECRET";
/** Shorter secrets are refused: 32 characters of a random text are far beyond any guessing. */
export const MIN_SECRET_CHARS = 32;

/** The secret, checked; throws GatewaySetupError with what to do. */
export function checkRedisSecret(secret: string | undefined): string {
  const s = secret?.trim() ?? "";
  if (s.length < MIN_SECRET_CHARS) {
    throw new GatewaySetupError(
      `--redis needs a secret shared by every gateway instance on that Redis in ${REDIS_SECRET_ENV} ` +
        `(${MIN_SECRET_CHARS} characters or more, e.g. \`openssl rand -hex 32\`); ${s ? "it is too short" : "it is not set"}`,
    );
  }
  return s;
}

export class RedisKeyParts {
  private readonly secret: Buffer;
  /** The key names of values found tampered with, said once each to the log (bounded). */
  private readonly said = new Set<string>();

  constructor(
    secret: string,
    private readonly onWarning: (message: string) => void = () => undefined,
  ) {
    this.secret = Buffer.from(secret, "utf8");
  }

  /** A name part derived from `text` under the secret (128 bits, hex). */
  part(kind: string, text: string): string {
    return createHmac("sha256", this.secret).update(`${kind}\0${text}`).digest("hex").slice(0, 32);
  }

  /** The Redis name of `k` (keys.ts owns the format), its account and request parts under the secret. */
  name(k: GatewayKey): string {
    return redisName(k, (kind, text) => this.part(kind, text));
  }

  private mac(name: string, value: string): string {
    return createHmac("sha256", this.secret).update(`${name}\0${value}`).digest("hex");
  }

  /** `value` sealed for the key `name`: "<hmac hex>.<value>". */
  seal(name: string, value: string): string {
    return `${this.mac(name, value)}.${value}`;
  }

  /**
   * The value sealed for `name`, or undefined when there is none; a value without a valid seal (written by
   * anyone but an instance with the secret, or moved from another key) is ignored and logged.
   */
  open(name: string, text: string | null | undefined): string | undefined {
    if (typeof text !== "string") return undefined;
    const dot = text.indexOf(".");
    const value = dot === 64 ? text.slice(65) : "";
    const given = Buffer.from(dot === 64 ? text.slice(0, 64) : "", "utf8");
    const expected = Buffer.from(this.mac(name, value), "utf8");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return value;
    this.tampered(name);
    return undefined;
  }

  private tampered(name: string): void {
    if (this.said.has(name) || this.said.size >= 100) return;
    this.said.add(name);
    this.onWarning(
      `fdq serve: Redis holds a value under ${name} that no gateway with this secret wrote (tampered with, or ` +
        `another secret's): ignored. Check who can write to this Redis (requirepass/ACL).`,
    );
  }
}
