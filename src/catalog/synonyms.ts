// The words analysts write for a datapoint that neither its name nor its abbreviations say: "sales" and
// "turnover" for REVENUE, "market cap" for EQUITY_MARKET_VALUE, "SBC" for EXPENSES_STOCK_COMPENSATION. The
// catalog search (search.ts) indexes each phrase beside the name, and a query that spells a phrase out
// ranks the datapoint as if it spelled its name. The list is ours: it is measured on the phrases of
// test/unit/catalog/analyst-words.ts (the right datapoint in the top 3 for at least 95% of them).
//
// A phrase belongs to the one datapoint it means in a model. Where several are close (EBIT and
// EBIT_REPORTED), the phrase names the one an analyst's unqualified word means, and the others keep their
// own names.

export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  REVENUE: [
    "sales",
    "net sales",
    "revenues",
    "total revenue",
    "total revenues",
    "net revenue",
    "net revenues",
    "turnover",
    "top line",
  ],
  SALES_COST: ["cost of goods sold", "cogs", "cost of revenue", "cost of sales"],
  PROFIT_GROSS: ["gross profit", "gross income"],
  EXPENSES_SGA: ["sg&a", "sga", "opex sga"],
  RESEARCH_AND_DEVELOPMENT_EXPENSE: ["r&d", "research development"],
  EXPENSES_STOCK_COMPENSATION: [
    "stock based compensation",
    "stock-based compensation",
    "share based compensation",
    "sbc",
    "stock comp",
  ],
  EQUITY_MARKET_VALUE: [
    "market cap",
    "market capitalization",
    "market capitalisation",
    "mkt cap",
    "equity value",
    "market value of equity",
  ],
  ENTERPRISE_VALUE: ["tev", "total enterprise value", "ev"],
  INCOME_NET: ["net income", "net profit", "net earnings", "earnings", "bottom line", "profit after tax"],
  INCOME_NET_PER_WADSO: ["eps"],
  INCOME_NET_PER_WABSO: ["basic eps", "eps basic"],
  INCOME_OPERATING: ["operating income", "operating profit"],
  EBIT: ["ebit", "operating earnings"],
  EBITDA: ["ebitda", "adjusted ebitda", "adj ebitda"],
  FREE_CASH_FLOW: ["fcf", "free cash flow"],
  CASH_FLOW_OPERATING: ["cfo", "operating cash flow", "cash from operations", "cash flow from operations"],
  CAPEX: ["capex", "capital expenditure", "capital expenditures", "purchases of ppe"],
  DEBT: ["total debt", "debt"],
  ASSETS_UNADJUSTED: ["total assets"],
  EQUITY_SHAREHOLDER: ["shareholders equity", "stockholders equity", "book value", "total equity"],
  ASSETS_CURRENT_CASH: ["cash", "cash and equivalents", "cash equivalents"],
  GOODWILL_NET: ["goodwill"],
  LIABILITIES_CURRENT: ["current liabilities"],
  ROIC: ["roic", "return on capital"],
  NOPAT: ["nopat"],
  WACC: ["wacc", "cost of capital", "discount rate"],
  BOOK_VALUE_ECONOMIC: ["ebv", "economic book value"],
  BOOK_VALUE_ECONOMIC_PER_SHARES_OUTSTANDING_SPLIT_ADJUSTED: [
    "price to economic book value",
    "pebv",
    "economic book value per share",
    "ebv per share",
  ],
  ECONOMIC_PROFIT: ["economic profit", "eva", "economic value added"],
  EXPENSES_DEPRECIATION_AND_AMORTIZATION: ["d&a", "depreciation", "depreciation amortization"],
  EXPENSES_INTEREST: ["interest expense"],
  EARNINGS_RETAINED: ["retained earnings"],
  INTEREST_MINORITY: ["minority interest", "non-controlling interest", "nci"],
};

/** The phrases of `name`, lower case (none for most names). */
export const synonymsOf = (name: string): readonly string[] => SYNONYMS[name] ?? [];
