// How each datapoint behaves over time, decided by its name. This is the one place that says which
// values add up over quarters and which are read at a period's end.

/**
 * - flow: an amount earned or spent during the period. Annual = sum of the four quarters; ttm=n = sum
 *   of the four quarters of the spec's ttm rule.
 * - balance: an amount held at the period end. Annual = Q4; ttm=n = quarter n.
 * - average: a weighted-average share count. Annual and ttm = mean of the four quarters.
 * - ratio: a ratio, rate, per-share amount, turnover or day count. Computed from its components in the
 *   same period where the sandbox has a formula (see formulas.ts), otherwise drawn for the period.
 * - derived: an amount that mixes periods or kinds (averages of beginning and ending capital, economic
 *   book value = NOPAT / WACC + balances). Computed from its components in the same period.
 */
export type ValueKind = "flow" | "balance" | "average" | "ratio" | "derived";

const DERIVED = new Set([
  "BOOK_VALUE_ECONOMIC",
  "CAPITAL_INVESTED_ADJUSTED",
  "CAPITAL_INVESTED_ADJUSTED_GAAP",
  "CAPITAL_INVESTED_BEGINNING",
  "CAPITAL_INVESTED_GROSS_ADJUSTED",
  "CAPITAL_INVESTED_Q_AVG",
  "CAPITAL_INVESTED_YOY_AVG",
]);

const RATIO =
  /^(ROIC|ROGIC|WACC|DAYS_|GAP$)|_PER_|_MARGIN$|_TURNOVER$|_TURNS$|_RATE$|_PCT|^CASH_CONVERSION_CYCLE$/;

const AVERAGE = /^(WADSO|WABSO|SHARES_OUTSTANDING)/;

const BALANCE = new RegExp(
  [
    "^(ASSETS|DEBT|EQUITY|CAPITAL_INVESTED|CAPITAL_WORKING|LIABILITIES|TOTAL_|STOCK_PREFERRED|INTEREST_MINORITY)",
    "^(GOODWILL_NET|GOODWILL_AND_INTANGIBLES|GOODWILL_UNRECORDED|PENSION_FUNDED_STATUS|OCI|EXCESS_CASH|NIBCL)",
    "^(EARNINGS_RETAINED|ENTERPRISE_VALUE|DEFERRED_TAX_NET|ESO_TRANCHE_VALUE|RESERVES_TOTAL|BOOK_VALUE)",
    "^(LEASES_OPERATING_OBLIGATION_NET|CHARGES_TO_OTHER_ACCOUNTS)",
    "^ACCOUNTS_(PAYABLE|RECEIVABLE)$|^INVENTORY$",
    "^CASH_(LONG_TERM|RESTRICTED|OPERATING)$",
    "_ACCUMULATED$",
  ].join("|"),
);

function kindOf(name: string): ValueKind {
  if (DERIVED.has(name)) return "derived";
  if (RATIO.test(name)) return "ratio";
  if (AVERAGE.test(name)) return "average";
  if (BALANCE.test(name)) return "balance";
  return "flow";
}

const known = new Map<string, ValueKind>();

export function classify(name: string): ValueKind {
  let kind = known.get(name);
  if (kind === undefined) {
    kind = kindOf(name);
    // Callers pass catalog and formula names only, so this stays small.
    known.set(name, kind);
  }
  return kind;
}
