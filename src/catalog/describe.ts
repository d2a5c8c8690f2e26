// Human-readable descriptions for datapoint names. The service's /v1/datapoint answers carry the
// real descriptions; the catalog needs its own for the sandbox and for offline search, so it
// expands the names' abbreviations and adds what the spec says about particular datapoints.

const TOKENS: Readonly<Record<string, string>> = {
  WADSO: "weighted average diluted shares outstanding",
  WABSO: "weighted average basic shares outstanding",
  ESO: "employee stock option",
  OREO: "other real estate owned",
  NOPAT: "NOPAT (net operating profit after tax)",
  NOPBT: "NOPBT (net operating profit before tax)",
  EBIT: "EBIT",
  EBITA: "EBITA",
  EBITDA: "EBITDA",
  ROIC: "ROIC (return on invested capital)",
  ROGIC: "ROGIC (return on gross invested capital)",
  WACC: "WACC (weighted average cost of capital)",
  OCI: "other comprehensive income",
  SGA: "selling, general and administrative",
  NIBCL: "non-interest-bearing current liabilities",
  YOY: "year-over-year",
  PCT: "percent",
  AVG: "(simple average across the companies)",
  MEDIAN: "(median across the companies)",
  WAVG: "(market-weighted average)",
  GAP: "growth appreciation period",
  PEBV: "price to economic book value",
  FCF: "free cash flow",
  CAPEX: "capital expenditures",
  DCF: "discounted cash flow",
  REG: "regulatory",
  MF: "mutual fund",
  ETF: "ETF",
  GAAP: "GAAP",
  Q: "quarterly",
  SA: "split-adjusted",
  EV: "enterprise value",
  EBV: "economic book value",
  NPV: "net present value",
  REITS: "REITs",
};

/** What the spec itself says about particular datapoints. */
const NOTES: Readonly<Record<string, string>> = {
  CASH_TAX_RATE: "Effective tax rate on recurring operations.",
  TAX_DISTORTION:
    "Income tax distortion, computed per company from its cash operating taxes; can be negative.",
  DEPRECIATION_AND_AMORTIZATION_CASH_FLOW_SINGLE_PERIOD:
    "Cash-flow-statement depreciation and amortization for the period only (quarterly cumulative reporting removed).",
  CAPITAL_INVESTED_ADJUSTED:
    "Average invested capital over the year adjusted for acquisitions (the denominator of ROIC).",
  ROGIC: "Gross NOPAT divided by average gross invested capital.",
  NOPAT_GROSS: "NOPAT with depreciation and amortization added back.",
  CATEGORY_TYPE: "Whether the identifier is a sector or an industry (text).",
  MODEL_DATE: "Date the category model was generated (text, YYYY-MM-DD).",
  RATING_RANK: "Rank of the sector or industry by rating.",
};

const SUFFIX_NOTES: ReadonlyArray<readonly [string, string]> = [
  ["_GAAP", "Uses only reported financial-statement data."],
  ["_BEGINNING", "Uses period-beginning capital."],
  ["_Q_AVG", "Averages the last four quarters."],
  ["_YOY_AVG", "Averages the year-over-year beginning and ending values."],
];

function words(name: string): string {
  const text = name
    .split("_")
    .map((t) => TOKENS[t] ?? t.toLowerCase())
    .join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A one-line description of a datapoint name. */
export function describeDatapoint(name: string): string {
  const base = words(name);
  const note = NOTES[name] ?? SUFFIX_NOTES.find(([suffix]) => name.endsWith(suffix))?.[1];
  return note ? `${base}. ${note}` : `${base}.`;
}
