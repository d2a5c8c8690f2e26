// Before one cache file per account (issue 13), fdq kept one file per service ("127.0.0.1_4010_v1.json")
// holding the cache's parts and every account's usage ledger. Its cache is only a cache and is not carried
// over; the month's ledger is, once, so the quota count does not restart mid-month. The old file is removed
// once it holds no other account's ledger.
import { existsSync, promises as fs, readFileSync, statSync } from "node:fs";
import type { RecordStore } from "../api";

/** The old file of a service, beside the new per-account one ("<service>.<tag>.json" -> "<service>.json"). */
export const legacyCacheFile = (cacheFile: string): string =>
  cacheFile.replace(/\.[0-9a-f]{16}\.json$/, ".json");

/** Carries `ledgerKey` from the old file into `store` when the new file does not exist yet; never throws. */
export async function carryLedgerOver(
  cacheFile: string,
  store: RecordStore,
  ledgerKey: string,
  maxBytes: number,
): Promise<void> {
  const legacy = legacyCacheFile(cacheFile);
  if (legacy === cacheFile || existsSync(cacheFile) || !existsSync(legacy)) return;
  try {
    if (statSync(legacy).size > maxBytes) return;
    const items = JSON.parse(readFileSync(legacy, "utf8")) as Record<string, unknown> | null;
    if (typeof items !== "object" || items === null) return;
    const ledger = items[ledgerKey];
    if (typeof ledger === "string") await store.update(ledgerKey, (current) => current ?? ledger);
    const others = Object.keys(items).some((k) => k.startsWith("fdq.usage.") && k !== ledgerKey);
    if (!others) await fs.rm(legacy, { force: true });
  } catch {
    // Unreadable or unwritable: the old file stays as it was, and the ledger counts from the new file.
  }
}
