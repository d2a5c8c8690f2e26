// Restatements (--restate DAY): from DAY on (the UTC date of the sandbox's clock), the fiscal years that were
// closed on DAY (those before DAY's year) carry restated figures. The change is made where values are drawn
// (values.ts): every input of a restated quarter is scaled by a factor fixed per (seed, ticker, name), so
// every computed line, annual and ttm sum, ratio and sector aggregate moves with its parts and all the
// consistency rules still hold. Before DAY nothing changes.
import { quarterIndex } from "./periods";
import { unit } from "./prng";

export interface Restatement {
  /** UTC day number of DAY: restated values are served from this day on. */
  readonly day: number;
  /** Quarters with a lower index (the fiscal years before DAY's year) are restated. */
  readonly before: number;
}

const DAY_MS = 86_400_000;

/** Parses YYYY-MM-DD (a real calendar date), or throws. */
export function parseRestatement(text: string): Restatement {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text)
    throw new Error(`--restate needs a date YYYY-MM-DD, got "${text}"`);
  return { day: date.getTime() / DAY_MS, before: quarterIndex(date.getUTCFullYear(), 1) };
}

/** The first quarter index that is not restated on `day`, or undefined when nothing is (yet). */
export const restatedBefore = (r: Restatement | undefined, day: number): number | undefined =>
  r && day >= r.day ? r.before : undefined;

/** A line's restatement: a factor between 0.97 and 1.03, at least 0.5% away from 1. */
export function restatementFactor(seed: number, ticker: string, name: string): number {
  const u = unit(seed, ticker, name, "restated");
  return 1 + (u < 0.5 ? -1 : 1) * (0.005 + 0.05 * (u % 0.5));
}
