// The request module's public surface. storage-file.ts (Node only) is imported directly by the gateway
// (src/gateway/index.ts); the CLI's cache file is cache-store/file-record-store.ts.
export { FdqClient } from "./client";
export { RequestKey, type Endpoint, type RequestFields } from "./request-key";
export { priceOf, DEFAULT_PRICING, type PricingOptions } from "./pricing";
export { estimateRequests, type PlannedRequest, type RequestEstimate, type ResolutionCost } from "./planner";
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
export {
  configureSharedClient,
  getSharedClient,
  cacheStorage,
  officePartitionKey,
  officeRuntimeStorage,
  onSharedClientEvent,
  resetSharedClient,
} from "./runtime";
export { RefreshDayClock } from "./refresh-day";
export { accountTag } from "./account-tag";
export { COVERAGE_FIELDS, SECURITY_FIELDS, toValue } from "./decode";
export { probeReachable } from "./probe";
