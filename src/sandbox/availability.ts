// Which periods a security has data for: companies only, from their first fiscal year to the last
// quarter that has ended (inactive stocks stop at their last fiscal year).
import { endIndex, lastEndedQuarter, quarterIndex, windowIndexes, type Period } from "./periods";
import type { Security } from "./universe";

/** The last fiscal year with annual data: the year before the clock's current year. */
export const lastFiscalYear = (now: Date): number => now.getUTCFullYear() - 1;

/**
 * A period has data when every quarter it spans lies within the company's coverage: annual data up
 * to last year, quarters that have ended, and ttm windows whose four quarters are all covered.
 */
export function hasData(security: Security, p: Period, now: Date): boolean {
  if (security.type !== "stock" && security.type !== "inactive") return false;
  const first = quarterIndex(security.firstYear, 1);
  const inactiveEnd = security.lastYear === undefined ? Infinity : quarterIndex(security.lastYear, 4);
  const last = Math.min(lastEndedQuarter(now), inactiveEnd);
  return (windowIndexes(p)[0] ?? Infinity) >= first && endIndex(p) <= last;
}
