// Component ratings of stocks, ETFs and mutual funds: fixed per ticker (1..5, most often 3), with
// only the fields that apply to the security type (catalog RATING_FIELDS.appliesTo).
import { RATING_FIELDS, type RatedType } from "../catalog";
import { unit } from "./prng";
import type { Security } from "./universe";

const RATED: readonly string[] = ["stock", "etf", "mf"];

export const isRated = (s: Security): s is Security & { type: RatedType } => RATED.includes(s.type);

export function rating(seed: number, ticker: string, field: string): number {
  const centred = (unit(seed, ticker, field, "a") + unit(seed, ticker, field, "b")) / 2;
  return 1 + Math.min(4, Math.floor(centred * 5));
}

/** The component ratings record (ticker, name, then the applicable rating fields). */
export function ratingsRecord(
  seed: number,
  s: Security & { type: RatedType },
): Record<string, string | number> {
  const record: Record<string, string | number> = { ticker: s.ticker, name: s.name };
  for (const f of RATING_FIELDS) {
    if (f.field === "name" || !f.appliesTo.includes(s.type)) continue;
    record[f.field] = rating(seed, s.ticker, f.field);
  }
  return record;
}
