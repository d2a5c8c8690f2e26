import type { CategoryCode } from "./types";

/** The fundamentals category legend of the spec. */
export const CATEGORY_LEGEND: Readonly<Record<CategoryCode, string>> = {
  CIL: "Current/Investment Liabilities",
  CIA: "Current/Investment Assets",
  SIC: "Sector & Industry Data",
  BSA: "Balance Sheet Adjustments",
  EBVC: "Economic Book Value Components",
  FA: "Fixed Assets",
  MV: "Market Values",
  PEBV: "Price to Economic Book Value (PEBV)",
  CFI: "Cash From Investing",
  CFF: "Cash From Financing",
  CFO: "Cash From Operations",
  IC: "Invested Capital",
  CCR: "Cash Conversion Ratios",
  ISA: "Income Statement Adjustments",
  OTH: "Other",
  ATC: "After-Tax Charges",
  CGS: "Cost of Goods Sold",
  LTL: "Long-Term Liabilities and Shareholders' Equity",
  NOP: "NOPAT",
  EE: "Economic Earnings",
  EXP: "Expenses/Income",
  PTI: "Pre-Tax Income",
  NIE: "Net Income & EPS",
  OOI: "Other Operating Income",
};
