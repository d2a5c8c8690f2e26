// classify(): which names add up over quarters (flow), are read at period end (balance), are share
// averages, ratios, or computed from mixed periods (derived).
import { DATASETS } from "../../../src/catalog";
import { servedDatapoints } from "../../../src/sandbox/beyond-cutoff";
import { classify } from "../../../src/sandbox/classify";

describe("classify", () => {
  it.each([
    ["REVENUE", "flow"],
    ["INCOME_NET", "flow"],
    ["NOPAT", "flow"],
    ["CASH_FLOW_OPERATING", "flow"],
    ["CASH_OPERATING_TAXES", "flow"],
    ["CASH_PAID_FOR_INTEREST", "flow"],
    ["EXPENSES_INTEREST_MINORITY", "flow"],
    ["GOODWILL_AMORTIZATION_ADJUSTED", "flow"],
    ["RESERVES_YOY_DELTA", "flow"],
    ["ASSETS_UNADJUSTED", "balance"],
    ["DEBT_SHORT_TERM_IN_NIBCL_OPERATING", "balance"],
    ["EQUITY_MARKET_VALUE", "balance"],
    ["CAPITAL_INVESTED", "balance"],
    ["LIABILITIES_CURRENT", "balance"],
    ["GOODWILL_NET", "balance"],
    ["CASH_RESTRICTED", "balance"],
    ["GOODWILL_AMORTIZATION_ADJUSTED_ACCUMULATED", "balance"],
    ["TOTAL_HIDDEN_DEFERRED_TAXES_NET", "balance"],
    ["INTEREST_MINORITY_ADJUSTED", "balance"],
    ["ACCOUNTS_PAYABLE", "balance"],
    ["INVENTORY", "balance"],
    ["INCOME_TAX", "flow"],
    ["INCOME_PRE_TAX", "flow"],
    ["ENTERPRISE_VALUE", "balance"],
    ["WADSO", "average"],
    ["WABSO_SPLIT_ADJUSTED", "average"],
    ["ROIC", "ratio"],
    ["ROIC_CAPITAL_INVESTED_BEGINNING", "ratio"],
    ["WACC", "ratio"],
    ["CASH_TAX_RATE", "ratio"],
    ["ECONOMIC_PROFIT_MARGIN", "ratio"],
    ["INCOME_NET_PER_WADSO", "ratio"],
    ["ACCOUNTS_PAYABLE_TURNOVER", "ratio"],
    ["CAPITAL_INVESTED_ADJUSTED_TURNS", "ratio"],
    ["DAYS_IN_INVENTORY", "ratio"],
    ["CASH_CONVERSION_CYCLE", "ratio"],
    ["CAPITAL_INVESTED_ADJUSTED", "derived"],
    ["CAPITAL_INVESTED_Q_AVG", "derived"],
    ["BOOK_VALUE_ECONOMIC", "derived"],
  ])("%s is %s", (name, kind) => {
    expect(classify(name)).toBe(kind);
  });

  it("every line of a walk that only adds and subtracts (names past a cut included) has the kind of the lines it sums", () => {
    // Mixed kinds in a sum would break annual = sum of quarters (flows) or annual = Q4 (balances).
    for (const d of DATASETS.filter((x) => x.walk && !x.datapoints.some((p) => p.sign === "/"))) {
      const kinds = new Set(
        servedDatapoints(d)
          .filter((p) => p.sign !== "")
          .map((p) => classify(p.name)),
      );
      expect([d.path, kinds.size]).toEqual([d.path, 1]);
    }
  });
});
