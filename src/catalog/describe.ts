// Human-readable descriptions for datapoint names. The service's /v1/datapoint answers carry the
// real descriptions; the catalog needs its own for the sandbox and for offline search, so it
// expands the names' abbreviations and adds what the spec says about particular datapoints.
//
// A suffix means what it means where it stands (shared/spec/datapoint-catalogs.md): on company
// datapoints `_Q_AVG` and `_YOY_AVG` are averages over time (of the last four quarters, of the
// year's beginning and ending values); on the sector endpoint `_AVG`, `_MEDIAN` and `_WAVG` run
// across the companies of the sector or industry.
import { SECTOR_DATAPOINTS } from "./data-sector";

/**
 * Abbreviations used in datapoint names and the words they stand for. Descriptions spell them
 * out, and the catalog search matches a name by either form ("roic" or "return on invested capital").
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  WADSO: "weighted average diluted shares outstanding",
  WABSO: "weighted average basic shares outstanding",
  ESO: "employee stock option",
  OREO: "other real estate owned",
  NOPAT: "net operating profit after tax",
  NOPBT: "net operating profit before tax",
  EBIT: "earnings before interest and taxes",
  EBITA: "earnings before interest, taxes and amortization",
  EBITDA: "earnings before interest, taxes, depreciation and amortization",
  ROIC: "return on invested capital",
  ROGIC: "return on gross invested capital",
  WACC: "weighted average cost of capital",
  OCI: "other comprehensive income",
  SGA: "selling, general and administrative",
  NIBCL: "non-interest-bearing current liabilities",
  YOY: "year-over-year",
  PCT: "percent",
  AVG: "average",
  WAVG: "market-weighted average",
  GAP: "growth appreciation period",
  PEBV: "price to economic book value",
  FCF: "free cash flow",
  CAPEX: "capital expenditures",
  DCF: "discounted cash flow",
  REG: "regulatory",
  MF: "mutual fund",
  ETF: "exchange-traded fund",
  GAAP: "generally accepted accounting principles",
  Q: "quarterly",
  SA: "split-adjusted",
  EV: "enterprise value",
  EBV: "economic book value",
  NPV: "net present value",
  REITS: "real estate investment trusts",
};

/** Acronyms that descriptions keep, followed by their expansion: "ROIC (return on invested capital)". */
const WITH_EXPANSION = new Set(["NOPAT", "NOPBT", "ROIC", "ROGIC", "WACC"]);
/** Acronyms that descriptions keep as they are. */
const AS_IS: Readonly<Record<string, string>> = {
  EBIT: "EBIT",
  EBITA: "EBITA",
  EBITDA: "EBITDA",
  ETF: "ETF",
  GAAP: "GAAP",
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
];

/** Company datapoints: averages of one company's values over time. */
const TIME_AVERAGES: ReadonlyArray<readonly [string, string]> = [
  ["_Q_AVG", "averaged over time: the average of the last four quarters"],
  ["_YOY_AVG", "averaged over time: the average of the year-over-year beginning and ending values"],
];

/** Sector and industry datapoints: aggregates over the member companies. */
const COMPANY_AGGREGATES: ReadonlyArray<readonly [string, string]> = [
  ["_WAVG", "market-weighted average across the companies of the sector or industry"],
  ["_MEDIAN", "median across the companies of the sector or industry"],
  ["_AVG", "simple average across the companies of the sector or industry"],
];

const SECTOR_NAMES = new Set(SECTOR_DATAPOINTS.map((s) => s.name));

function word(token: string): string {
  const asIs = AS_IS[token];
  if (asIs !== undefined) return asIs;
  const expansion = ABBREVIATIONS[token];
  if (expansion === undefined) return token.toLowerCase();
  return WITH_EXPANSION.has(token) ? `${token} (${expansion})` : expansion;
}

function phrase(name: string): string {
  // ROIC_CAPITAL_INVESTED[_…] is ROIC computed on that capital.
  const onCapital = /^ROIC_(CAPITAL_INVESTED.*)$/.exec(name);
  if (onCapital) return `${word("ROIC")} on ${phrase(onCapital[1] ?? "")}`;
  return name.split("_").map(word).join(" ");
}

function words(name: string): string {
  const text = phrase(name);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A one-line description of a datapoint name. */
export function describeDatapoint(name: string): string {
  const note = NOTES[name];
  if (note === undefined) {
    const time = TIME_AVERAGES.find(([suffix]) => name.endsWith(suffix));
    if (time !== undefined) return `${words(name.slice(0, -time[0].length))}, ${time[1]}.`;
    const aggregate = SECTOR_NAMES.has(name)
      ? COMPANY_AGGREGATES.find(([suffix]) => name.endsWith(suffix))
      : undefined;
    if (aggregate !== undefined) return `${words(name.slice(0, -aggregate[0].length))}: ${aggregate[1]}.`;
  }
  const base = words(name);
  const suffixNote = note ?? SUFFIX_NOTES.find(([suffix]) => name.endsWith(suffix))?.[1];
  return suffixNote ? `${base}. ${suffixNote}` : `${base}.`;
}
