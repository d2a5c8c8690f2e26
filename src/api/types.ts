// Public shapes of the request module: options, requests, decoded records, results, events, counters.
import type { PeriodType, RelativePeriod, SecurityType } from "../catalog";
import type { ErrorHints } from "./error-hints";
import type { RefreshDayBoundary } from "./vendor-clock";
import type { BillingModel } from "./pricing";
import type { RequestKey } from "./request-key";
import type { KeyValueStore } from "./storage";

export interface RetryOptions {
  /** Most attempts per request, the first included. */
  attempts: number;
  /** Backoff ceiling of the first retry; it doubles per retry (full jitter: the delay is random below it). */
  baseDelayMs: number;
  /** Ceiling of one backoff delay. */
  maxDelayMs: number;
  /** Longest Retry-After that is honoured; a longer one ends the request with its error. */
  maxRetryAfterMs: number;
  /** No retry starts when it would end later than this after the first attempt began. */
  maxElapsedMs: number;
}

export interface ClientOptions {
  /** Includes the version prefix, e.g. "https://api.newconstructs.com/v1". */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Clock in ms since the epoch; decides the refresh day and Retry-After dates. */
  now?: () => number;
  /** Waits between retries; injected by tests to skip real waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
  storage?: KeyValueStore;
  coalesceWindowMs?: number;
  concurrency?: number;
  /** Per attempt, the body's arrival included. */
  timeoutMs?: number;
  /** The longest response body read (default 4 MB); a longer answer is a BadResponseError. */
  maxBodyBytes?: number;
  retry?: Partial<RetryOptions>;
  refreshDay?: RefreshDayBoundary;
  /** Most entries kept in memory (least recently used go first). */
  maxCacheEntries?: number;
  /** Most characters the persisted cache may take (OfficeRuntime.storage holds 10 MB per domain). */
  maxPersistChars?: number;
  /** Delay that batches cache writes to storage. */
  persistDelayMs?: number;
  /** Storage key prefix of the persisted cache. */
  storageKey?: string;
  onEvent?: (e: ClientEvent) => void;
  /**
   * How the account is billed: `per-datapoint` (default, the vendor's unit: one datapoint x security x
   * period) or `per-request` (one unit per HTTP call). The planner spends the fewest units under it.
   */
  billing?: BillingModel;
  /** Units of a coverage list or metadata call (default 1: the vendor does not document it). */
  listUnits?: number;
  /**
   * How a ticker the service does not cover is found (docs/quota-and-billing.md, "A ticker FDQ does not
   * cover"): `list` (default) asks its type's coverage list once per refresh day before the first data request
   * of a ticker whose coverage is not known today, and falls back to `after` where the list cannot be had;
   * `after` asks only after a data answer "not found" (the ticker's coverage record).
   */
  coverageCheck?: "list" | "after";
  /**
   * `strict` (default): every answer is fetched again each refresh day. `saver`: values of closed periods
   * of datapoints not flagged (SP) are kept up to `keepDays` refresh days (default 7); see docs/quota-and-billing.md.
   */
  refreshPolicy?: RefreshPolicy;
  /**
   * What error messages tell the user to do, in the words of the surface the user configures the client in
   * (Excel: src/host/excel-hints.ts; the CLI: src/cli/hints.ts); default NEUTRAL_HINTS, which name none.
   */
  hints?: Partial<ErrorHints>;
}

export type RefreshPolicy = { kind: "strict" } | { kind: "saver"; keepDays?: number };

export interface DatapointRequest {
  ticker: string;
  /** Full path ("metrics/roic") or unique last part ("roic"), any case. */
  dataset: string;
  name: string;
  /**
   * A fiscal year, or a relative period (FY0, FY-1, FQ0, LTM...: src/catalog/relative-period.ts) as parsed,
   * or as text; the client resolves it against the service.
   */
  year: number | RelativePeriod | string;
  quarter?: number | null;
  ttm?: number | null;
}

export type DatasetRequest = Omit<DatapointRequest, "name">;

export interface SectorRequest {
  /** Sector or industry identifier, e.g. "TECHNOLOGYSEC". */
  id: string;
  /** Sector datapoint name. */
  name: string;
  priorYear?: number | null;
}

export interface DatapointRecord {
  ticker: string;
  year: number;
  period: number;
  periodtype: PeriodType;
  periodstring: string;
  datapoint: string;
  /** Decimal text as sent. */
  datavalue: string;
  filingtype?: string;
}

export interface MetadataRecord {
  name: string;
  description: string;
  /** Comma-separated endpoint groups. */
  endpoints: string;
}

export interface CoverageItem {
  ticker: string;
  name: string;
  type: string;
  sector: string;
  last_trade_date: string;
}

export interface SecurityRecord extends CoverageItem {
  sector_name: string;
  subsector: string;
  subsector_name: string;
  industry: string;
  industry_name: string;
  subindustry: string;
  subindustry_name: string;
}

export interface SectorRecord {
  ticker: string;
  name: string;
  prior_year: number;
  datapoint: string;
  datavalue: string;
}

export interface RatingsRecord {
  ticker: string;
  name: string;
  /** Rating fields present in the answer (1 best .. 5 worst), keyed by record field name. */
  ratings: Record<string, number>;
}

export type Source = "network" | "cache";

interface ResultBase {
  source: Source;
  /** Set when the answer came from a request another call had already started or scheduled. */
  joined?: boolean;
  /** Refresh day (YYYY-MM-DD) the answer belongs to. */
  refreshDay: string;
  /** URL of the request that produced the answer, without the key. */
  url: string;
}

/** What a relative period named: Explain's and `fdq eval --json`'s provenance. */
export interface ResolvedPeriod {
  /** "FY0", "FQ-2", "LTM" (canonical). */
  text: string;
  year: number;
  /** The record's `period`: 1-4, or 5 for annual. */
  period: number;
  periodtype: PeriodType;
  /** "FY0 = fiscal 2024". */
  words: string;
  /** The refresh day the latest period was found on. */
  resolvedOn: string;
}

export interface DatapointResult extends ResultBase {
  value: number | string;
  record: DatapointRecord;
  /** Set when the call named a relative period. */
  resolved?: ResolvedPeriod;
}

export interface DatasetResult extends ResultBase {
  records: DatapointRecord[];
  values: (number | string)[];
  resolved?: ResolvedPeriod;
}

export interface SectorResult extends ResultBase {
  value: number | string;
  record: SectorRecord;
}

export interface ApiResult<T> extends ResultBase {
  data: T;
}

/**
 * How one call reads. `cacheOnly`: answers from today's cache (and a latest period resolved today) or fails with
 * NotCachedError carrying the price of what it would send; it sends, joins and starts nothing, and asks no
 * coverage or latest-period question of the service (Excel's formula value preview).
 */
export interface CallOptions {
  readonly cacheOnly?: boolean;
}

/** One request a function call makes, as the call states it (arguments not yet checked). */
export type FdqRequest =
  | { readonly kind: "datapoint"; readonly request: DatapointRequest }
  | { readonly kind: "dataset"; readonly request: DatasetRequest }
  | { readonly kind: "ratings"; readonly ticker: string }
  | { readonly kind: "sector"; readonly request: SectorRequest }
  | { readonly kind: "coverage"; readonly type: string }
  | { readonly kind: "security"; readonly type: string; readonly ticker: string }
  | { readonly kind: "info"; readonly name: string };

/** What the client would send for a request, and whether its cache answers it now. */
export interface RequestPlan {
  /** The request's identity (shared by every call that the same answer serves). */
  key: RequestKey;
  /** Its full URL, without the key. */
  url: string;
  cached: boolean;
  /** Its price in quota units under the billing model (a whole dataset: its catalog size), cached or not. */
  units: number;
  /** The refresh policy in force, and the refresh day the cached answer was fetched on (when cached). */
  policy: "strict" | "saver";
  fetchedOn: string | undefined;
}

export interface ClientStats {
  /** HTTP requests sent, retries and followed redirects included. */
  requestsSent: number;
  /** Same-origin redirects followed. */
  redirects: number;
  cacheHits: number;
  /** Calls answered by a request another call had already started or scheduled. */
  coalescedCalls: number;
  retries: number;
  /** Quota units of the answers this client received. */
  unitsSpent: number;
  /** Requests that failed in the end, by error class name. */
  failures: Record<string, number>;
  inFlight: number;
  queued: number;
  /** Most requests ever open at once. */
  maxInFlight: number;
  cacheEntries: number;
}

export type ClientEvent =
  | { type: "request"; url: string; attempt: number }
  | { type: "response"; url: string; status: number; ms: number }
  | { type: "retry"; url: string; attempt: number; delayMs: number; reason: string }
  | { type: "failure"; url: string; error: string; message: string }
  | { type: "cache-loaded"; entries: number; refreshDay: string }
  | { type: "cache-persisted"; entries: number; chars: number }
  | { type: "cache-warning"; message: string };

export type { SecurityType, BillingModel };
export type { UsageReport } from "./usage-ledger";
export type { RefreshDayBoundary } from "./vendor-clock";
