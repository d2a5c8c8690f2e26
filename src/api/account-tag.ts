// One-way tag of an API key for cache keys and stores: SHA-256, first 16 hex digits. Synchronous and pure
// JS (@noble/hashes), so it runs the same in Node and in Excel's webview.
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";

export function accountTag(apiKey: string): string {
  return bytesToHex(sha256(utf8ToBytes(apiKey))).slice(0, 16);
}
