// The parts of an FdqClient built from its options (transport, refresh-day cache, scope, hints), and the
// request URLs that are also the cache keys.
import { accountTag } from "./account-tag";
import { DayCache } from "./day-cache";
import { toValue, type RecordDefaults } from "./decode";
import { DEFAULTS } from "./defaults";
import { EXCEL_HINTS, InvalidArgumentError, NotConfiguredError, type ErrorHints } from "./errors";
import { RefreshDayClock } from "./refresh-day";
import { checkBaseUrl } from "./settings";
import { Transport, type Counters } from "./transport";
import type { ClientEvent, ClientOptions } from "./types";
import type { DatasetTarget } from "./validate";

export const recordDefaults = (t: DatasetTarget): RecordDefaults => ({
  ticker: t.ticker,
  year: t.year,
  period: t.period.period,
  periodtype: t.period.periodtype,
});

/** Relative URL of an all-datapoints request, also the cache key of its list of names. */
export const datasetRel = (t: DatasetTarget): string =>
  `${t.dataset.path}/${encodeURIComponent(t.ticker)}?year=${t.year}${t.period.query}`;

/** Relative URL of a single-datapoint request, also the cache key of the datapoint's record. */
export const datapointRel = (t: DatasetTarget, name: string): string =>
  `${t.dataset.path}/${encodeURIComponent(t.ticker)}?datapoint=${encodeURIComponent(name)}&year=${t.year}${t.period.query}`;

export function freeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) freeze(v);
  }
  return value;
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function positiveInteger(value: number, argument: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(
      argument,
      `${argument} must be a whole number of at least 1 (got ${value}).`,
    );
  }
  return value;
}

export interface Engine {
  transport: Transport;
  cache: DayCache;
  /** `${accountTag}@${baseUrl}`. */
  scope: string;
  windowMs: number;
  hints: ErrorHints;
}

/** The transport and the cache of one set of options; throws NotConfiguredError without a key. */
export function buildEngine(options: ClientOptions, counters: Counters): Engine {
  const hints: ErrorHints = { ...EXCEL_HINTS, ...options.hints };
  if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") throw new NotConfiguredError(hints);
  const baseUrl = checkBaseUrl(options.baseUrl);
  const listener = options.onEvent;
  const emit = (e: ClientEvent): void => {
    try {
      listener?.(e);
    } catch {
      // A failing listener must never fail a request.
    }
  };
  const fetchFn = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const transport = new Transport({
    baseUrl,
    apiKey: options.apiKey.trim(),
    // Called as a plain function: browsers reject fetch invoked as a method of another object.
    fetch: (input, init) => fetchFn(input, init),
    now,
    sleep: options.sleep ?? delay,
    random: options.random ?? Math.random,
    timeoutMs: positiveInteger(options.timeoutMs ?? DEFAULTS.timeoutMs, "timeoutMs"),
    retry: { ...DEFAULTS.retry, ...options.retry },
    concurrency: positiveInteger(options.concurrency ?? DEFAULTS.concurrency, "concurrency"),
    counters,
    hints,
    emit,
  });
  const scope = `${accountTag(options.apiKey.trim())}@${baseUrl}`;
  const cache = new DayCache({
    clock: new RefreshDayClock(options.refreshDay ?? DEFAULTS.refreshDay),
    now,
    scope,
    storage: options.storage,
    storageKey: options.storageKey ?? DEFAULTS.storageKey,
    maxEntries: positiveInteger(options.maxCacheEntries ?? DEFAULTS.maxCacheEntries, "maxCacheEntries"),
    maxPersistChars: options.maxPersistChars ?? DEFAULTS.maxPersistChars,
    persistDelayMs: options.persistDelayMs ?? DEFAULTS.persistDelayMs,
    toValue,
    emit,
  });
  const windowMs = Math.max(0, options.coalesceWindowMs ?? DEFAULTS.coalesceWindowMs);
  return { transport, cache, scope, windowMs, hints };
}
