// Sector/industry datapoints of shared/spec/datapoint-catalogs.md, grouped by prior-year availability.
// The {AVG|MEDIAN|WAVG} notation is expanded here; test/unit/catalog/catalog.test.ts re-parses the spec.
import type { PriorYearGroup, SectorDatapoint } from "./types";

const SUFFIXES = ["AVG", "MEDIAN", "WAVG"] as const;
const expand = (base: string): string[] => SUFFIXES.map((s) => `${base}_${s}`);

/** Group A: prior-year availability "None" (answered only without prior_year). */
const GROUP_NONE: readonly string[] = [
  "CATEGORY_TYPE",
  ...expand("FREE_CASH_FLOW_PER_REVENUE"),
  ...expand("NOPAT_PER_REVENUE"),
  "RATING_RANK",
  ...expand("REVENUE_YOY_DELTA_PCT"),
];

/** Group B: prior_year 0 only. */
const GROUP_CURRENT: readonly string[] = [
  "COUNT_COMPANY",
  "COUNT_ETF",
  ...[1, 2, 3, 4, 5].map((r) => `COUNT_ETF_RATING_${r}`),
  "COUNT_MF",
  ...[1, 2, 3, 4, 5].map((r) => `COUNT_MF_RATING_${r}`),
  ...[1, 2, 3, 4, 5].map((r) => `COUNT_RATING_${r}`),
  ...[1, 2, 3, 4, 5].map((r) => `EQUITY_MARKET_VALUE_RATING_${r}`),
  "GAP_WAVG",
  "MODEL_DATE",
  "RATING_FCF_YIELD",
  "RATING_GAP",
  "RATING_INCOME_NET_ECONOMIC_PROFIT",
  "RATING_OVERALL",
  "RATING_PEBV",
  "RATING_ROIC",
];

/** Group C: prior_year 0 to 5. */
const GROUP_ALL: readonly string[] = [
  "EARNINGS_REPORTED",
  "ECONOMIC_BOOK_VALUE",
  "ECONOMIC_EARNINGS",
  ...expand("ECONOMIC_PROFIT_GROWTH_PER_SHARE"),
  ...expand("ECONOMIC_PROFIT_MARGIN"),
  "ENTERPRISE_VALUE",
  "EQUITY_MARKET_VALUE",
  ...expand("FCF_YIELD"),
  "FREE_CASH_FLOW",
  "INCOME_NET",
  ...expand("INCOME_NET_PER_WABSO_SPLIT_ADJUSTED_YOY_DELTA_PCT"),
  ...expand("INCOME_NET_PER_WADSO_SPLIT_ADJUSTED_YOY_DELTA_PCT"),
  "INVESTED_CAPITAL",
  "NOPAT",
  ...expand("NOPAT_YOY_DELTA_PCT"),
  "PEBV_WAVG",
  "REVENUE",
  ...expand("ROIC"),
  ...expand("ROIC_YOY_DELTA"),
  ...expand("WACC"),
];

/** Text-valued sector datapoints: CATEGORY_TYPE ("sector" or "industry") and MODEL_DATE (YYYY-MM-DD). */
const TEXT = new Set(["CATEGORY_TYPE", "MODEL_DATE"]);

const PRIOR_YEARS: Record<PriorYearGroup, readonly number[]> = {
  none: [],
  current: [0],
  all: [0, 1, 2, 3, 4, 5],
};

const build = (names: readonly string[], group: PriorYearGroup): SectorDatapoint[] =>
  names.map((name) => ({
    name,
    group,
    priorYears: PRIOR_YEARS[group],
    ...(TEXT.has(name) ? { text: true } : {}),
  }));

export const SECTOR_DATAPOINTS: readonly SectorDatapoint[] = [
  ...build(GROUP_NONE, "none"),
  ...build(GROUP_CURRENT, "current"),
  ...build(GROUP_ALL, "all"),
];
