// The request client's defaults in one place (the quota saver's keep days live with its policy in
// refresh-policy.ts, `fdq usage --reset`'s timeout in gateway-usage.ts); docs/architecture.md explains each.
import type { RetryOptions } from "./types";
import { UPSTREAM_POLICY } from "./upstream-policy";
import { VENDOR_REFRESH_DAY } from "./vendor-clock";

export const DEFAULTS = {
  /** Long enough to gather one Excel calculation batch, short enough to go unnoticed. */
  coalesceWindowMs: 4,
  /** The browsers' HTTP/1.1 connections per host; more only queues inside the webview. */
  concurrency: 6,
  /** The upstream policy the gateway shares (upstream-policy.ts): 30 s per attempt, the body's arrival too. */
  timeoutMs: UPSTREAM_POLICY.timeoutMs,
  /** The longest response body read (upstream-policy.ts: 4 MB, four times the largest answer). */
  maxBodyBytes: UPSTREAM_POLICY.maxBodyBytes,
  retry: {
    attempts: 4,
    baseDelayMs: 500,
    maxDelayMs: 8_000,
    maxRetryAfterMs: 30_000,
    maxElapsedMs: 45_000,
  } satisfies RetryOptions,
  /**
   * The vendor refreshes its data every day between 5:00 and 5:20 AM US Central (production-service.md, fact 13): a day
   * starts after that refresh, so a value fetched before 5:20 CT belongs to the previous data day.
   */
  refreshDay: VENDOR_REFRESH_DAY,
  billing: "per-datapoint",
  listUnits: 1,
  /**
   * How an uncovered ticker is found (ticker-coverage.ts): "after" a data answer "not found", its coverage record;
   * "list" reads its type's coverage list, asked once per refresh day before the first data request.
   */
  coverageCheck: "list",
  /** The member plans' monthly quota (production-service.md, fact 11). */
  planUnits: 10_000,
  maxCacheEntries: 200_000,
  /**
   * OfficeRuntime.storage holds 10 MB per domain, shared with the settings. A write removes the old parts
   * before it stores the new ones, so the store never holds more than one copy: 3.5 M chars is 3.5 MB of
   * ASCII JSON, and 7 MB even if the store keeps UTF-16 (2 bytes a char), below the quota. A 22,500-cell
   * model's day (W1 in bench/) is about 1.9 M chars.
   */
  maxPersistChars: 3_500_000,
  /**
   * A cache file (the CLI) has no quota to share: it keeps the whole refresh day (a 22,500-cell model is a
   * few MB), bounded only so that a runaway workbook cannot fill the disk.
   */
  maxFilePersistChars: 256_000_000,
  persistDelayMs: 2_000,
  storageKey: "fdq.cache",
  /** Prefix of the usage ledger's storage key (one per account tag). */
  usageKey: "fdq.usage",
  /** Prefix of the latest-period resolutions' storage key (one per account tag). */
  periodsKey: "fdq.periods",
  /** Prefix of the previous refresh day's values' storage key (one per account tag; previous-day.ts). */
  previousDayKey: "fdq.dayBefore",
} as const;
