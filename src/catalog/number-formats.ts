// The Excel number format that suits a datapoint, from what its name says it measures. The spec gives no unit per
// datapoint, but its names follow one convention (shared by the catalog's descriptions, describe.ts): a ratio of
// two amounts (ROIC, a margin, a yield, a rate, NAME_PER_REVENUE, a year-over-year change in percent) is a fraction
// the service sends as such (0.146 is 14.6%); a per-share amount, a count of times or days and a rating are plain
// numbers; every other number is money in ones (the service sends 394328000000, not 394,328 in millions).

/** Fractions shown as percent, two decimals (0.1460 -> 14.60%). */
export const PERCENT_FORMAT = "0.00%";
/** Money in ones, whole, with thousands separators. */
export const MONEY_FORMAT = "#,##0";
/** Per-share amounts, turns and other small plain numbers: two decimals. */
export const DECIMAL_FORMAT = "#,##0.00";
/** Counts, ranks, ratings and years: Excel's own default. */
export const GENERAL_FORMAT = "General";

/** Ratios of amounts: percent. Checked on whole name parts, so CASH_TAX_RATE is a rate and RATING_ROIC is not. */
const PERCENT_PARTS = new Set(["ROIC", "ROGIC", "WACC", "MARGIN", "YIELD", "RATE", "PCT"]);
/** Ratios of amounts written NAME_PER_X where X is an amount, not a count of shares. */
const PER_AMOUNT = /_PER_(REVENUE|ASSETS|INCOME_NET)$/;
const PLAIN_PARTS = new Set(["TURNOVER", "TURNS", "DAYS", "WADSO", "WABSO", "SHARE", "SHARES"]);
const GENERAL_PARTS = new Set(["RATING", "RANK", "COUNT", "GAP", "PEBV", "YEAR", "YEARS"]);

/** The number format of a datapoint's values by its name (company or sector datapoint). */
export function numberFormatOf(datapoint: string): string {
  const name = datapoint.trim().toUpperCase();
  const parts = name.split("_");
  if (parts.some((p) => GENERAL_PARTS.has(p))) return GENERAL_FORMAT;
  if (PER_AMOUNT.test(name) || parts.some((p) => PERCENT_PARTS.has(p))) return PERCENT_FORMAT;
  if (parts.some((p) => PLAIN_PARTS.has(p))) return DECIMAL_FORMAT;
  return MONEY_FORMAT;
}
