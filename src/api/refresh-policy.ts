// The quota saver (opt-in): a second refresh policy beside the strict per-day one. The vendor bills every
// datapoint of every period each time it is asked (production-service.md, fact 11), yet most of a model's cells are closed
// periods that no new filing changes. Under the saver, the value of a closed period of a datapoint not
// flagged (SP) is kept up to `keepDays` refresh days after the day it was fetched; (SP) datapoints (they
// move with the share price), open periods and every other endpoint are fetched every refresh day.
//
// The rule for "closed": a fiscal year is closed once the calendar year after it has ended, i.e. fiscal
// year Y is closed from 1 January of Y+2 (refresh-day calendar). By then its annual report and the next
// year's (which carries any restated comparatives) are filed; a later restatement is picked up within
// `keepDays` days, because nothing is kept longer.
import { findDatapoint } from "../catalog";
import type { CacheValue } from "./cache-codec";
import { RequestKey } from "./request-key";
import type { RefreshPolicy } from "./types";
import { DAY_MS } from "./refresh-day";

export const DEFAULT_KEEP_DAYS = 7;

/** Whole days from refresh day `from` to refresh day `to` (YYYY-MM-DD labels). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Whether fiscal year `year` is closed on refresh day `today`. */
export const isClosedYear = (year: number, today: string): boolean => year <= Number(today.slice(0, 4)) - 2;

/** Whether a cached answer of `key` may serve refresh day `today`, fetched on `fetchedOn`, under the saver. */
export function keptBySaver(
  key: RequestKey,
  value: CacheValue,
  fetchedOn: string,
  today: string,
  keepDays: number,
): boolean {
  const f = key.fields;
  if (f.endpoint !== "data" || value.kind !== "records") return false;
  const age = daysBetween(fetchedOn, today);
  if (age < 0 || age >= keepDays || !isClosedYear(f.year, today)) return false;
  if (f.datapoint === undefined) return !f.dataset.datapoints.some((d) => d.sp);
  return findDatapoint(f.dataset, f.datapoint)?.sp !== true;
}

/**
 * The day cache's rule for an answer of an earlier refresh day: undefined under the strict policy (nothing
 * outlives its day), the saver's rule otherwise.
 */
export function keepRule(
  policy: RefreshPolicy | undefined,
): ((cacheKey: string, value: CacheValue, fetchedOn: string, today: string) => boolean) | undefined {
  if (!policy || policy.kind === "strict") return undefined;
  const keepDays = policy.keepDays ?? DEFAULT_KEEP_DAYS;
  return (cacheKey, value, fetchedOn, today) => {
    const key = RequestKey.parse(cacheKey);
    return key !== undefined && keptBySaver(key, value, fetchedOn, today, keepDays);
  };
}
