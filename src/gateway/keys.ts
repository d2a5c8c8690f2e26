// The one keyed format of what the gateway keeps (TanStack query-core's structured keys): every key is a
// structured value (GatewayKey) and this module alone turns it into text, for each place it is kept:
// - this process's maps (the memory LRU of answers, the proxy's in-flight map): localName;
// - the embedded store's files under the store directory: answerFile;
// - Redis: redisName, each part from a request or a key hidden under the instances' shared secret
//   (redis-keys.ts supplies the HMAC; the seal on values stays there).
// The field order of each kind is written once (partsOf), so the three texts cannot drift apart.
//
// Compatibility: every text is byte for byte the one earlier versions wrote (Redis names `fdq:gw:<kind>:...`,
// files `answers/<day>/<tag>/<sha256 of the request>.json` holding the request beside the answer, the ledger
// under `fdq.usage.<tag>`), so a store directory or a Redis an earlier version wrote is still read. Were a
// format ever to change, the old entries are only missed: a day's answer is fetched again (the day cache is
// a cache), a lock or landed answer expires within seconds, and nothing foreign is served (a file must hold
// its own request, a Redis value its seal for its own name).
import { createHash } from "node:crypto";
import { DAY_LABEL, DEFAULTS } from "../api";

/** A request of one account on one refresh day: what a kept answer, a flight and a landed answer are about. */
export interface AnswerKey {
  /** The refresh day's label (YYYY-MM-DD). */
  readonly day: string;
  /** The account tag (a one-way hash of the key, hex). */
  readonly tag: string;
  /** The request's serialised RequestKey (its canonical path). */
  readonly request: string;
}

export type GatewayKey =
  /** A kept answer of the refresh day. */
  | ({ readonly kind: "answer" } & AnswerKey)
  /** The lock of the one instance fetching the request now. */
  | ({ readonly kind: "flight" } & AnswerKey)
  /** What one flight (by its id) answered, for the instances waiting on it. */
  | ({ readonly kind: "landed"; readonly flight: string } & AnswerKey)
  /** The account's upstream requests open now, across instances. */
  | { readonly kind: "slots"; readonly tag: string }
  /** The account's ledger of one US Central month (YYYY-MM). */
  | { readonly kind: "ledger"; readonly tag: string; readonly month: string };

export const answerKey = (day: string, tag: string, request: string): AnswerKey => ({ day, tag, request });

/** How a part that comes from a request or a key is written: as is, hashed, or under the secret. */
export type Hide = (kind: "account" | "request", text: string) => string;

/** The parts of a key, in the one order of its kind. */
function partsOf(k: GatewayKey, hide: Hide): string[] {
  switch (k.kind) {
    case "answer":
    case "flight":
      return [k.kind, k.day, hide("account", k.tag), hide("request", k.request)];
    case "landed":
      return [k.kind, k.day, hide("account", k.tag), hide("request", k.request), k.flight];
    case "slots":
      return [k.kind, hide("account", k.tag)];
    case "ledger":
      return [k.kind, hide("account", k.tag), k.month];
  }
}

const asIs: Hide = (_kind, text) => text;

/** Every name the gateway gives Redis starts so. */
export const REDIS_PREFIX = "fdq:gw:";

/** The Redis name of `k`, its account and request parts written by `hmac` (redis-keys.ts). */
export function redisName(k: GatewayKey, hmac: Hide): string {
  return REDIS_PREFIX + partsOf(k, hmac).join(":");
}

/** This process's name of an answer's key (no part holds a newline: days, hex tags, canonical paths). */
export function localName(k: AnswerKey): string {
  return partsOf({ kind: "answer", ...k }, asIs).join("\n");
}

/** The folder of the embedded store's answers, one folder per refresh day below it. */
export const ANSWERS_FOLDER = "answers";

const TAG = /^[0-9a-f]{1,64}$/;
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/**
 * The embedded store's file of an answer, as path parts under the store directory:
 * answers/<day>/<tag>/<sha256 of the request>.json. Undefined when the day or the tag could not be a safe
 * folder name (then the answer is kept in memory only).
 */
export function answerFile(k: AnswerKey): string[] | undefined {
  if (!DAY_LABEL.test(k.day) || !TAG.test(k.tag)) return undefined;
  const [, day, tag, request] = partsOf({ kind: "answer", ...k }, (kind, text) =>
    kind === "request" ? sha256(text) : text,
  );
  return [ANSWERS_FOLDER, day!, tag!, `${request}.json`];
}

/** The embedded ledger's storage key of an account (in the store's usage.json), as the add-in names its own. */
export const ledgerStorageKey = (tag: string): string => `${DEFAULTS.usageKey}.${tag}`;
