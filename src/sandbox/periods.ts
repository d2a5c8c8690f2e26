// Fiscal periods of the synthetic data. Fiscal years are calendar years (quarter n ends on the last
// day of month 3n); a quarter exists once its end date is before the clock's current day.
import { ANNUAL, PERIOD_TYPES, type Period as CatalogPeriod, type PeriodKind } from "../catalog";

// Math.floor from a module constant: global reads are slow inside jest's vm context (see prng.ts).
const floor = Math.floor;

export { PERIOD_TYPES, type PeriodKind };

/** A requested period of a year: the catalog's Period (annual n = 5, quarter n or ttm n) with its year. */
export interface Period extends CatalogPeriod {
  readonly year: number;
}

/** The first fiscal year of the synthetic universe. */
export const FIRST_FISCAL_YEAR = 2008;

export const annual = (year: number): Period => ({ year, ...ANNUAL });
export const quarter = (year: number, n: number): Period => ({ year, kind: "quarter", n });

/** Quarters are numbered on one line so that windows can cross fiscal years. */
export const quarterIndex = (year: number, q: number): number => year * 4 + (q - 1);
export const quarterAt = (index: number): Period => quarter(floor(index / 4), (index % 4) + 1);

/** Index of the last quarter the period covers (annual: Q4; ttm n and quarter n: quarter n). */
export function endIndex(p: Period): number {
  return quarterIndex(p.year, p.kind === "annual" ? 4 : p.n);
}

/**
 * Quarter indexes the period spans: annual Q1..Q4; quarter n alone; ttm n the four quarters ending
 * with quarter n of the year (spec: ttm=1 is Q1 of the year plus Q4, Q3, Q2 of the prior year).
 */
export function windowIndexes(p: Period): number[] {
  const end = endIndex(p);
  return p.kind === "quarter" ? [end] : [end - 3, end - 2, end - 1, end];
}

/** The quarter end just before the period starts: where "beginning" balances are read. */
export const startIndex = (p: Period): number => (windowIndexes(p)[0] ?? endIndex(p)) - 1;

/** Days in the period, for "days" ratios. */
export const periodDays = (p: Period): number => (p.kind === "quarter" ? 91.25 : 365);

export const periodKey = (p: Period): string => `${p.kind}:${p.year}:${p.n}`;

const DAY_MS = 86_400_000;

/** Whole UTC days since 1970: the unit in which (SP) prices move. */
export const dayNumber = (now: Date): number => floor(now.getTime() / DAY_MS);

export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** The last trading day before the clock's current day (weekends skipped). */
export function lastTradingDay(now: Date): string {
  let day = dayNumber(now) - 1;
  for (;;) {
    const weekday = new Date(day * DAY_MS).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return isoDate(new Date(day * DAY_MS));
    day -= 1;
  }
}
