// The request module's public surface: everything outside src/api imports it from here (re-exports only),
// or from ./node for the Node-only stores; lint (import-x/no-restricted-paths) fails a deep import.
export { FdqClient } from "./client";
export { RequestKey, type Endpoint, type RequestFields } from "./request-key";
export type { PreviousValue } from "./previous-day";
export { priceOf, DEFAULT_PRICING, type PricingOptions } from "./pricing";
export {
  estimateRequests,
  type Cost,
  type ListCondition,
  type PlannedRequest,
  type RequestEstimate,
  type ResolutionCost,
} from "./planner";
export { PeriodResolver, isNoData, newestPossible, type Latest } from "./period-resolver";
export {
  centralDay,
  centralMonth,
  inRefreshWindow,
  isDayLabel,
  nextMonthStart,
  quotaResetsOn,
  DAY_LABEL,
  VENDOR_TIME_ZONE,
} from "./vendor-clock";
export { sleep } from "./sleep";
export { isRetryableFailure, RETRYABLE_FAILURES, ROUND_QUIET_MS, type CallHealth } from "./call-tally";
export { Limiter } from "./limiter";
export { SingleFlight, type Flight } from "./single-flight";
export * from "./errors";
export * from "./types";
export { DEFAULTS } from "./defaults";
export {
  MemoryStorage,
  officeStorage,
  partitioned,
  type KeyValueStore,
  type OfficeStorageLike,
} from "./storage";
export {
  checkBaseUrl,
  loadSettings,
  saveSettings,
  DEFAULT_BASE_URL,
  SETTINGS_KEY,
  type FdqSettings,
} from "./settings";
export { IndexedDbStore, hasIndexedDb } from "./cache-store/indexeddb-store";
export { RefreshDayClock } from "./refresh-day";
export { accountTag } from "./account-tag";
export { COVERAGE_FIELDS, SECURITY_FIELDS, toValue } from "./decode";
export { answersGatewayHealth, probeReachable, type HealthProbe } from "./probe";
export { resetGatewayUsage, type GatewayResetOutcome } from "./gateway-usage";

// What the gateway shares with the client: how answers are decoded, priced, redacted and counted.
export { UsageLedger, usageGroupOf, type UsageReport } from "./usage-ledger";
export { formatUnits, standingText, unitsText } from "./usage-words";
export { pricedRequest } from "./pricing";
export { LOCAL_HOSTS } from "./settings";
export { decodeEnvelope, errorMessageOf, parseJson } from "./decode";
export { Redactor, RedactionOverBudget, redactKey } from "./redact";
export { parseRetryAfter } from "./retry";
export { BodyTooLarge, readBody, sizeText } from "./body";
export { keptForDay, outcomeOf, resultsOf, type Outcome, type WireAnswer } from "./answer-reading";
export { checkAnswer } from "./answer-reading";
export {
  fetchUnderPolicy,
  RedirectRefused,
  redirectTarget,
  UPSTREAM_POLICY,
  type UpstreamPolicy,
} from "./upstream-policy";
export type { RecordStore } from "./cache-store/record-store";
// What the task pane's saver and the functions' argument checks share with the client.
export { RecordsAnswer } from "./cache-codec";
export { DEFAULT_KEEP_DAYS, daysBetween, isClosedYear, keptBySaver } from "./refresh-policy";
export { checkDatapointRequest, checkYear, show, yearOrRelativeProblem } from "./call-requests";
