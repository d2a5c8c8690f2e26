// One-way tag of an API key for cache keys and stores: SHA-256, first 16 hex digits. Synchronous and pure
// JS (@noble/hashes), so it runs the same in Node and in Excel's webview.
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";

/**
 * The last key's tag: a run tags its one key several times (cache file, ledger, scope), and pure-JS SHA-256
 * in a process that has just started costs milliseconds each time. Holds nothing the caller does not hold.
 */
let last: { readonly apiKey: string; readonly tag: string } | undefined;

export function accountTag(apiKey: string): string {
  if (last?.apiKey !== apiKey) last = { apiKey, tag: bytesToHex(sha256(utf8ToBytes(apiKey))).slice(0, 16) };
  return last.tag;
}
