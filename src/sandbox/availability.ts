// Which periods a security has data for: companies only, from their first fiscal year to the latest period
// filed (inactive stocks stop at their last fiscal year). A company's fiscal year ends in the month its
// record says (December unless told; fiscal year Y ends in that month of calendar year Y, as production
// names them), and a period is filed `filingLagDays` after it ends (0 unless told: the period is there the
// day after it ends). Past the latest period filed the sandbox answers as for any period without data.
import { endIndex, quarterIndex, windowIndexes, type Period } from "./periods";
import type { Security } from "./universe";

/** The last fiscal year with annual data for December year-end companies: the year before the clock's. */
export const lastFiscalYear = (now: Date): number => now.getUTCFullYear() - 1;

const DAY_MS = 86_400_000;

/**
 * Index (periods.quarterIndex) of the latest fiscal quarter the company has filed on the clock's day: the
 * last quarter that ended, by its fiscal calendar, at least `filingLagDays` before the day.
 */
export function latestFiledQuarter(security: Security, now: Date): number {
  const fye = security.fiscalYearEnd ?? 12;
  const filedBy = new Date(now.getTime() - (security.filingLagDays ?? 0) * DAY_MS);
  // The last calendar month that ended before filedBy (months counted from year 0).
  const lastMonth = filedBy.getUTCFullYear() * 12 + filedBy.getUTCMonth() - 1;
  // Quarter-end months are fye, fye - 3, ...; the latest at or before lastMonth.
  const monthOf = (m: number): number => (((m % 12) + 12) % 12) + 1;
  let end = lastMonth;
  while ((monthOf(end) - fye + 12) % 3 !== 0) end--;
  const calendarYear = Math.floor(end / 12);
  const month = monthOf(end);
  const fiscalYear = month <= fye ? calendarYear : calendarYear + 1;
  const q = 4 - ((fye - month + 12) % 12) / 3;
  return quarterIndex(fiscalYear, q);
}

const inactiveEnd = (security: Security): number =>
  security.lastYear === undefined ? Infinity : quarterIndex(security.lastYear, 4);

/**
 * A period has data when every quarter it spans lies within the company's coverage: from its first fiscal
 * year to the latest quarter filed (an annual figure with its Q4, a ttm window with its last quarter).
 */
export function hasData(security: Security, p: Period, now: Date): boolean {
  if (security.type !== "stock" && security.type !== "inactive") return false;
  const first = quarterIndex(security.firstYear, 1);
  const last = Math.min(latestFiledQuarter(security, now), inactiveEnd(security));
  return (windowIndexes(p)[0] ?? Infinity) >= first && endIndex(p) <= last;
}
