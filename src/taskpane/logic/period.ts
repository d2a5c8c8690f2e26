// How a call's period reads to an analyst: the catalog's Period words for the quarter and ttm arguments as
// a call states them (unchecked: an invalid pair reads as the annual figure, and Explain shows the error),
// and a relative period (FY0, FQ-2, LTM) in words, with what it was resolved to when that is known.
import {
  ANNUAL,
  isRelativePeriod,
  parseRelativePeriod,
  periodDetail as detailOf,
  periodLabel as labelOf,
  periodOfArgs,
  relativeText,
  type Period,
  type RelativePeriod,
} from "../../catalog";
import type { ResolvedPeriod } from "../../api";
import { optionalPeriodArg } from "../../functions/impl/args";

export interface PeriodChoice {
  readonly year: number | RelativePeriod | string;
  readonly quarter?: number | null;
  readonly ttm?: number | null;
}

const periodOf = (p: PeriodChoice): Period => {
  // The functions' own rule for the quarter and ttm arguments: 0 (an empty cell on Windows) is omitted.
  const period = periodOfArgs(optionalPeriodArg(p.quarter), optionalPeriodArg(p.ttm));
  return "problem" in period ? ANNUAL : period;
};

const relativeOf = (year: PeriodChoice["year"]): RelativePeriod | undefined =>
  isRelativePeriod(year) ? year : typeof year === "string" ? parseRelativePeriod(year) : undefined;

const BASIS_WORDS = {
  FY: "the latest fiscal year with an annual value",
  FQ: "the latest fiscal quarter with a quarterly value",
  LTM: "the latest trailing twelve months",
} as const;

function relativeLabel(r: RelativePeriod, p: Period): string {
  const text = relativeText(r);
  if (r.basis !== "FY" || p.kind === "annual") return text;
  return p.kind === "quarter" ? `Q${p.n} ${text}` : `TTM to Q${p.n} ${text}`;
}

/** "FY2023", "Q2 FY2023", "TTM to Q2 FY2023", "FY0", "Q2 FY-1", "FQ-2", "LTM". */
export function periodLabel(p: PeriodChoice): string {
  const r = relativeOf(p.year);
  if (r) return relativeLabel(r, periodOf(p));
  return labelOf(periodOf(p), Number(p.year));
}

/** The quarters a period covers, as the spec defines them; for a relative period, what it counts from. */
export function periodDetail(p: PeriodChoice): string {
  const r = relativeOf(p.year);
  if (!r) return detailOf(periodOf(p), Number(p.year));
  const back =
    r.offset === 0
      ? ""
      : `, ${-r.offset} ${r.basis === "FY" ? "year" : "period"}${r.offset === -1 ? "" : "s"} back`;
  return `A relative period: ${BASIS_WORDS[r.basis]}${back}, found from the service's answers each refresh day, so the model rolls forward by itself.`;
}

/** "FY0 = fiscal 2024 for AAPL, resolved on refresh day 2026-11-24". */
export const resolvedText = (resolved: ResolvedPeriod, ticker: string): string =>
  `${resolved.words} for ${ticker}, resolved on refresh day ${resolved.resolvedOn}`;
