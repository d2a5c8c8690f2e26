// The fiscal period of a request, as the spec defines it (service-spec "Data endpoints", rules 1-3): the
// year's annual figure, fiscal quarter n, or the trailing twelve months ending with quarter n. One owner for
// its bounds, its words in messages and labels, its URL parameters and the record fields that answer it;
// validation, decoding, the cache codec, the sandbox, the task pane and the formula builder all use it.
import type { PeriodType } from "./service";

export type PeriodKind = "annual" | "quarter" | "ttm";

/**
 * A period without its year. `n` is the record's `period` field: 1-4 for a quarter or a ttm window, 5 for
 * the annual figure (spec rule 1). Plain data, so a caller may extend it with its own fields (the sandbox
 * adds the year).
 */
export interface Period {
  readonly kind: PeriodKind;
  readonly n: number;
}

/**
 * Fiscal years a request may name. The spec gives no earliest year and production's history starts in 1998
 * (production-service.md, fact 18); the range only keeps typing mistakes (23, 20233) from becoming requests.
 */
export const FISCAL_YEARS = { first: 1900, last: 2100 } as const;

/** The quarter and ttm numbers the spec allows. */
export const PERIOD_NUMBERS = [1, 2, 3, 4] as const;

/** The record's `period` of an annual figure. */
const ANNUAL_N = 5;

export const ANNUAL: Period = Object.freeze({ kind: "annual", n: ANNUAL_N });
const QUARTERS = PERIOD_NUMBERS.map((n) => Object.freeze<Period>({ kind: "quarter", n }));
const TTMS = PERIOD_NUMBERS.map((n) => Object.freeze<Period>({ kind: "ttm", n }));

export const PERIOD_TYPES: Readonly<Record<PeriodKind, PeriodType>> = {
  annual: "ANNUAL",
  quarter: "QUARTERLY",
  ttm: "TTM",
};

const KIND_OF_TYPE: Readonly<Record<PeriodType, PeriodKind>> = {
  ANNUAL: "annual",
  QUARTERLY: "quarter",
  TTM: "ttm",
};

export const isPeriodType = (text: unknown): text is PeriodType =>
  typeof text === "string" && Object.hasOwn(KIND_OF_TYPE, text);

export const isPeriodNumber = (n: unknown): n is number =>
  typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= PERIOD_NUMBERS.length;

export const isFiscalYear = (year: unknown): year is number =>
  typeof year === "number" &&
  Number.isInteger(year) &&
  year >= FISCAL_YEARS.first &&
  year <= FISCAL_YEARS.last;

/** What a quarter or ttm argument must be, in messages. */
export const PERIOD_NUMBER_WORDS = "1, 2, 3 or 4";
/**
 * Why `value` is no fiscal year for `argument` (e.g. "year must be a whole fiscal year such as 2023 (got
 * 2023.5)."), or undefined when it is one.
 */
export function fiscalYearProblem(value: unknown, argument = "year", example = 2023): string | undefined {
  if (isFiscalYear(value)) return undefined;
  const inRange = typeof value === "number" && Number.isInteger(value);
  const what = inRange
    ? `a fiscal year from ${FISCAL_YEARS.first} to ${FISCAL_YEARS.last}`
    : `a whole fiscal year such as ${example}`;
  return `${argument} must be ${what} (got ${shown(value)}).`;
}

/** Quarter n, or ttm n; throws RangeError for a number the spec does not allow (callers check first). */
export function period(kind: PeriodKind, n?: number): Period {
  if (kind === "annual") return ANNUAL;
  const found = (kind === "quarter" ? QUARTERS : TTMS)[(n ?? 0) - 1];
  if (!found) throw new RangeError(`${kind} must be ${PERIOD_NUMBER_WORDS} (got ${n})`);
  return found;
}

export const periodType = (p: Period): PeriodType => PERIOD_TYPES[p.kind];

/** The query string tail after `year=...`: "", "&quarter=2" or "&ttm=2". */
export const periodQuery = (p: Period): string => (p.kind === "annual" ? "" : `&${p.kind}=${p.n}`);

/**
 * The period of the functions' optional quarter and ttm arguments (absent: null or undefined), or the
 * reason they name none, naming the argument at fault.
 */
export function periodOfArgs(
  quarter: unknown,
  ttm: unknown,
): Period | { readonly argument: "quarter" | "ttm"; readonly problem: string } {
  // Runs once per cell of a worksheet: no allocation on the common paths.
  const hasQuarter = quarter !== undefined && quarter !== null;
  const hasTtm = ttm !== undefined && ttm !== null;
  if (!hasQuarter && !hasTtm) return ANNUAL;
  if (hasQuarter && hasTtm) {
    return { argument: "quarter", problem: "quarter and ttm cannot both be given: choose one period." };
  }
  const argument = hasQuarter ? "quarter" : "ttm";
  const value = hasQuarter ? quarter : ttm;
  if (!isPeriodNumber(value)) {
    return { argument, problem: `${argument} must be ${PERIOD_NUMBER_WORDS} (got ${shown(value)}).` };
  }
  return period(argument, value);
}

/** A value as a cell would show it in a message: "text", 12, TRUE; nothing when omitted. */
export function shown(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value === null || value === undefined) return "nothing";
  return String(value);
}

/** "FY2023", "Q2 FY2023", "TTM to Q2 FY2023". */
export function periodLabel(p: Period, year: number): string {
  if (p.kind === "quarter") return `Q${p.n} FY${year}`;
  if (p.kind === "ttm") return `TTM to Q${p.n} FY${year}`;
  return `FY${year}`;
}

/** The quarters a period covers, as the spec defines them (ttm n: quarters n..1 of the year, then the prior year's). */
export function periodDetail(p: Period, year: number): string {
  if (p.kind === "quarter") return `Fiscal quarter ${p.n} of fiscal year ${year} (QUARTERLY, period ${p.n}).`;
  if (p.kind === "ttm") {
    const own = Array.from({ length: p.n }, (_, i) => `Q${p.n - i}`);
    const prior = Array.from({ length: 4 - p.n }, (_, i) => `Q${4 - i}`);
    const covered = [
      `${own.join(", ")} of ${year}`,
      ...(prior.length ? [`${prior.join(", ")} of ${year - 1}`] : []),
    ];
    return `Trailing twelve months ending with Q${p.n} of fiscal year ${year}: ${covered.join(" plus ")} (TTM, period ${p.n}).`;
  }
  return `Fiscal year ${year} (ANNUAL, period ${ANNUAL_N}).`;
}
