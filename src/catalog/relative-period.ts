// Relative periods: the one grammar for "the latest fiscal year" and its neighbours, accepted wherever a
// fiscal year is (DATAPOINT's and DATASET's year, SERIES's from_year and to_year), in cells, `fdq eval`,
// `fdq refresh`, the pane's builder and Explain. The spec has no "latest" parameter, so a relative period
// is resolved against the service (src/api/period-resolver.ts); this module only reads and words it, and
// does the arithmetic of moving along the line of periods.
//
//   FY0, FY-1 … FY-30     the latest fiscal year with an annual value, and the years before it; with
//                         quarter = n (or ttm = n) quarter n (or the ttm window to quarter n) of that year
//   FQ0, FQ-1 … FQ-120    the latest fiscal quarter with a quarterly value, and the quarters before it,
//                         crossing fiscal years (quarter and ttm omitted)
//   LTM (LTM0), LTM-1 …   the latest trailing-twelve-month value, and the ones before it (quarter and ttm
//                         omitted)
// Any case; spaces around are ignored.
import { period, type Period, type PeriodKind } from "./period";

export type RelativeBasis = "FY" | "FQ" | "LTM";

/** A relative period as written: its basis and how many periods before the latest (0, -1, ...). */
export interface RelativePeriod {
  readonly relative: true;
  readonly basis: RelativeBasis;
  /** 0 or negative. */
  readonly offset: number;
}

/** Most periods back each basis may go: thirty years of years, or of quarters. */
export const RELATIVE_LIMITS: Readonly<Record<RelativeBasis, number>> = { FY: 30, FQ: 120, LTM: 120 };

/** The grammar in one sentence, for every message that refuses a period. */
export const RELATIVE_GRAMMAR =
  "FY0 (latest fiscal year), FY-1..FY-30, FQ0 (latest quarter), FQ-1..FQ-120, LTM (last twelve months), LTM-1..LTM-120";

const PATTERN = /^(FY|FQ|LTM)(0|-\d{1,3})?$/;

/** The relative period `text` names (any case), or undefined when it names none. */
export function parseRelativePeriod(text: string): RelativePeriod | undefined {
  const match = PATTERN.exec(text.trim().toUpperCase());
  if (!match) return undefined;
  const basis = match[1] as RelativeBasis;
  // "FY" and "FQ" alone are not in the grammar; "LTM" alone is LTM0.
  if (match[2] === undefined && basis !== "LTM") return undefined;
  const offset = match[2] === undefined ? 0 : Number(match[2]);
  if (-offset > RELATIVE_LIMITS[basis] || Object.is(offset, -0)) return undefined;
  return Object.freeze({ relative: true, basis, offset: offset === 0 ? 0 : offset });
}

export const isRelativePeriod = (value: unknown): value is RelativePeriod =>
  typeof value === "object" &&
  value !== null &&
  (value as RelativePeriod).relative === true &&
  ((value as RelativePeriod).basis === "FY" ||
    (value as RelativePeriod).basis === "FQ" ||
    (value as RelativePeriod).basis === "LTM") &&
  Number.isInteger((value as RelativePeriod).offset) &&
  (value as RelativePeriod).offset <= 0 &&
  -(value as RelativePeriod).offset <= RELATIVE_LIMITS[(value as RelativePeriod).basis];

/** "FY0", "FQ-2", "LTM", "LTM-1": the canonical text. */
export function relativeText(r: RelativePeriod): string {
  if (r.basis === "LTM" && r.offset === 0) return "LTM";
  return `${r.basis}${r.offset === 0 ? "0" : r.offset}`;
}

/** The period kind whose latest value a basis is counted from. */
export const RESOLVED_KIND: Readonly<Record<RelativeBasis, PeriodKind>> = {
  FY: "annual",
  FQ: "quarter",
  LTM: "ttm",
};

/** A period with its year: what a relative period resolves to. */
export interface DatedPeriod {
  readonly year: number;
  readonly period: Period;
}

/**
 * Periods on one line: a year for annual periods; year * 4 + quarter - 1 for quarters and ttm windows, so
 * that FQ-1 of Q1 2025 is Q4 2024.
 */
export function periodIndex(p: DatedPeriod): number {
  return p.period.kind === "annual" ? p.year : p.year * 4 + p.period.n - 1;
}

/** The period of `kind` at `index` (periodIndex's inverse). */
export function periodAtIndex(kind: PeriodKind, index: number): DatedPeriod {
  if (kind === "annual") return { year: index, period: period("annual") };
  return { year: Math.floor(index / 4), period: period(kind, (((index % 4) + 4) % 4) + 1) };
}

/**
 * What a relative period names once the latest period of its kind is known: `latest` moved back by the
 * offset; for FY with a quarter or ttm, that period of the resolved fiscal year.
 */
export function applyRelative(r: RelativePeriod, latest: DatedPeriod, within?: Period): DatedPeriod {
  const kind = RESOLVED_KIND[r.basis];
  const moved = periodAtIndex(kind, periodIndex(latest) + r.offset);
  if (r.basis === "FY" && within && within.kind !== "annual") return { year: moved.year, period: within };
  return moved;
}

/** Why a relative period and the quarter/ttm arguments do not go together, or undefined when they do. */
export function relativeConflict(r: RelativePeriod, within: Period): string | undefined {
  if (r.basis === "FY" || within.kind === "annual") return undefined;
  const text = relativeText(r);
  return `${within.kind} must be omitted with ${text}: ${r.basis === "FQ" ? "FQ periods are quarters" : "LTM periods are trailing twelve months"} of their own (use FY0 with ${within.kind === "quarter" ? "a quarter for a quarter" : "a ttm for a ttm window"} of the latest fiscal year).`;
}

/**
 * "FY0 = fiscal 2024", "FQ-2 = Q1 FY2025", "LTM = TTM to Q3 FY2026": how Explain and `fdq eval --json`
 * say what a relative period named.
 */
export function resolvedWords(r: RelativePeriod, p: DatedPeriod): string {
  const text = relativeText(r);
  if (p.period.kind === "annual") return `${text} = fiscal ${p.year}`;
  if (p.period.kind === "quarter") return `${text} = Q${p.period.n} FY${p.year}`;
  return `${text} = TTM to Q${p.period.n} FY${p.year}`;
}
