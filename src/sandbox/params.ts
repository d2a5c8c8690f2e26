// Query parameters of the data and sector endpoints, validated the way docs/sandbox.md's "Behaviour
// where the spec is silent" section documents.
import { PRIOR_YEARS, isPeriodNumber, period } from "../catalog";
import { annual, type Period } from "./periods";
import { badRequest, specError } from "./errors";

const INTEGER = /^-?\d+$/;

type Query = (name: string) => string | undefined;

function boundedInteger(query: Query, name: "quarter" | "ttm"): number | undefined {
  const raw = query(name);
  if (raw === undefined) return undefined;
  const n = /^\d$/.test(raw) ? Number(raw) : undefined;
  if (!isPeriodNumber(n)) throw badRequest(`Invalid ${name}: must be an integer from 1 to 4.`);
  return n;
}

/** year (required), and at most one of quarter and ttm. */
export function parsePeriod(query: Query): Period {
  const rawYear = query("year");
  if (rawYear === undefined || rawYear === "") throw badRequest("Missing required query parameter: year.");
  if (!INTEGER.test(rawYear) || rawYear.length > 6) throw badRequest("Invalid year: must be an integer.");
  const year = Number(rawYear);
  const q = boundedInteger(query, "quarter");
  const ttm = boundedInteger(query, "ttm");
  if (q !== undefined && ttm !== undefined)
    throw badRequest("Invalid request: send quarter or ttm, not both.");
  if (q !== undefined) return { year, ...period("quarter", q) };
  if (ttm !== undefined) return { year, ...period("ttm", ttm) };
  return annual(year);
}

/** prior_year: undefined when omitted; anything but an integer 0..5 is InvalidPriorYear. */
export function parsePriorYear(query: Query): number | undefined {
  const raw = query("prior_year");
  if (raw === undefined) return undefined;
  const n = /^\d$/.test(raw) ? Number(raw) : -1;
  if (n < PRIOR_YEARS.first || n > PRIOR_YEARS.last) throw specError("InvalidPriorYear");
  return n;
}
