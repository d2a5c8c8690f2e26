// The parts of an FdqClient built once from its options: the layers of a cell's path below the client, each
// given the layers under it (the latest-period search, the coverage check, the day's answers with the day cache
// and the one coalescer, the transport), and what they keep (the usage ledger, the periods found).
import { accountTag } from "./account-tag";
import { DayAnswers } from "./day-answers";
import { DayCache } from "./day-cache";
import { toValue } from "./decode";
import { DEFAULTS } from "./defaults";
import {
  FdqError,
  InvalidArgumentError,
  NotConfiguredError,
  QuotaExhaustedError,
  NEUTRAL_HINTS,
  type ErrorHints,
} from "./errors";
import { PeriodResolutions } from "./period-resolutions";
import { PreviousDayValues, previousDayBound } from "./previous-day";
import { resolverOn, type PeriodResolver } from "./period-resolver";
import type { PricingOptions } from "./pricing";
import { keepRule } from "./refresh-policy";
import { UsageLedger } from "./usage-ledger";
import { RefreshDayClock } from "./refresh-day";
import { checkBaseUrl } from "./settings";
import { TickerCoverage } from "./ticker-coverage";
import { Transport, type Counters } from "./transport";
import type { ClientEvent, ClientOptions } from "./types";
import { sleep } from "./sleep";

function positiveInteger(value: number, argument: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError({
      argument: argument,
      message: `${argument} must be a whole number of at least 1 (got ${value}).`,
    });
  }
  return value;
}

export interface ClientParts {
  /** The latest-period search (FY0, FQ0, LTM). */
  resolver: PeriodResolver;
  /** Whether a data call's ticker is covered. */
  coverage: TickerCoverage;
  /** Today's answers: the day cache, the one coalescer, the transport. */
  answers: DayAnswers;
  transport: Transport;
  cache: DayCache;
  /** Units spent this month by the key's account; stops requests once the quota is found spent. */
  ledger: UsageLedger;
  /** The latest periods found per ticker and kind (FY0, FQ0, LTM), per refresh day. */
  resolutions: PeriodResolutions;
  /** The previous refresh day's values, kept at the day turn (previous-day.ts). */
  dayBefore: PreviousDayValues;
  pricing: PricingOptions;
  policy: "strict" | "saver";
  /** The checked base URL, without a trailing slash: a request's URL is it, "/" and the key's path. */
  baseUrl: string;
  /** `${accountTag}@${baseUrl}`. */
  scope: string;
  hints: ErrorHints;
}

/** The transport and the cache of one set of options; throws NotConfiguredError without a key. */
export function buildClientParts(
  options: ClientOptions,
  counters: Counters,
  /** An error that stops a request before it is sent besides a spent quota (a cancelled refresh). */
  stopped?: () => FdqError | undefined,
): ClientParts {
  const hints: ErrorHints = { ...NEUTRAL_HINTS, ...options.hints };
  if (typeof options.apiKey !== "string" || options.apiKey.trim() === "")
    throw new NotConfiguredError({ hints });
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
  const tag = accountTag(options.apiKey.trim());
  const transport = new Transport({
    baseUrl,
    apiKey: options.apiKey.trim(),
    // Called as a plain function: browsers reject fetch invoked as a method of another object.
    fetch: (input, init) => fetchFn(input, init),
    now,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
    timeoutMs: positiveInteger(options.timeoutMs ?? DEFAULTS.timeoutMs, "timeoutMs"),
    retry: { ...DEFAULTS.retry, ...options.retry },
    concurrency: positiveInteger(options.concurrency ?? DEFAULTS.concurrency, "concurrency"),
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? DEFAULTS.maxBodyBytes, "maxBodyBytes"),
    counters,
    hints,
    emit,
    // Once the quota is found spent, queued and later requests fail without being sent.
    refuse: () =>
      ledger.exhausted ? new QuotaExhaustedError({ hints, resetsOn: ledger.resetsOn }) : stopped?.(),
    onQuotaExhausted: () => ledger.markExhausted(),
  });
  const scope = `${tag}@${baseUrl}`;
  const maxPersistChars = options.maxPersistChars ?? DEFAULTS.maxPersistChars;
  // Its first read waits for the cache's (previous-day.ts), which reports a store that fails it.
  const dayBefore = new PreviousDayValues({
    storage: options.storage,
    storageKey: `${DEFAULTS.previousDayKey}.${tag}`,
    scope,
    maxChars: previousDayBound(options.storage, maxPersistChars),
    now,
    persistDelayMs: options.persistDelayMs ?? DEFAULTS.persistDelayMs,
    onWarning: (message) => emit({ type: "cache-warning", message }),
  });
  const cache = new DayCache({
    clock: new RefreshDayClock(options.refreshDay ?? DEFAULTS.refreshDay),
    now,
    scope,
    storage: options.storage,
    storageKey: options.storageKey ?? DEFAULTS.storageKey,
    maxEntries: positiveInteger(options.maxCacheEntries ?? DEFAULTS.maxCacheEntries, "maxCacheEntries"),
    maxPersistChars,
    persistDelayMs: options.persistDelayMs ?? DEFAULTS.persistDelayMs,
    toValue,
    emit,
    keep: keepRule(options.refreshPolicy),
    dayBefore,
  });
  // After the cache: a store that fails its first read (a damaged CLI file) is reported by the cache.
  const ledger = new UsageLedger({
    storage: options.storage,
    storageKey: `${DEFAULTS.usageKey}.${tag}`,
    now,
    persistDelayMs: options.persistDelayMs ?? DEFAULTS.persistDelayMs,
    onWarning: (message) => emit({ type: "cache-warning", message }),
  });
  const resolutions = new PeriodResolutions({
    storage: options.storage,
    storageKey: `${DEFAULTS.periodsKey}.${tag}`,
    scope,
    persistDelayMs: options.persistDelayMs ?? DEFAULTS.persistDelayMs,
    onWarning: (message) => emit({ type: "cache-warning", message }),
  });
  const windowMs = Math.max(0, options.coalesceWindowMs ?? DEFAULTS.coalesceWindowMs);
  const pricing: PricingOptions = {
    billing: options.billing ?? DEFAULTS.billing,
    listUnits: options.listUnits ?? DEFAULTS.listUnits,
  };
  const policy = options.refreshPolicy?.kind ?? "strict";
  const answers = new DayAnswers({ cache, transport, ledger, pricing, counters, windowMs });
  const coverage = new TickerCoverage({
    answers,
    resolutions,
    hints,
    useList: (options.coverageCheck ?? DEFAULTS.coverageCheck) === "list",
  });
  const resolver = resolverOn(answers, coverage, resolutions);
  return {
    resolver,
    coverage,
    answers,
    transport,
    cache,
    ledger,
    resolutions,
    dayBefore,
    pricing,
    policy,
    baseUrl,
    scope,
    hints,
  };
}
