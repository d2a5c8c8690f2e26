// The templates, one definition each (docs/templates.md shows each sheet). Every FDQ call asks a relative
// period (FY0 ... FY-9) or the latest one (ratings, sector prior_year omitted), so a template made this year
// shows next year's data when it is refreshed next year. Datapoints are the catalog's (src/catalog), and
// test/unit/workbook/templates.test.ts checks every call of every template against the functions' own checks.
import { findDatapoint, findDataset, numberFormatOf, type Dataset } from "../../catalog";
import { columnLetters } from "../engine/references";
import type { TemplateCell, TemplateDefinition, TemplateParams, TemplateSheet } from "./template-sheet";
import { TemplateParamsError } from "./template-sheet";

const RATING = "0";

const quote = (text: string): string => `"${text.replaceAll('"', '""')}"`;
const at = (col: number, row: number): string => `${columnLetters(col)}${row}`;

/** FY-(n-1) ... FY0, oldest first. */
const fiscalYears = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => (i === n - 1 ? "FY0" : `FY-${n - 1 - i}`));

const datapoint = (ticker: string, dataset: string, name: string, period: string): string =>
  `=FDQ.DATAPOINT(${quote(ticker)},${quote(dataset)},${quote(name)},${quote(period)})`;
const securityField = (ticker: string, field: string): string =>
  `=FDQ.SECURITY(${quote(ticker)},${quote(field)},"stock")`;

/** The cells of one sheet, added row by row. */
class Grid {
  readonly cells: TemplateCell[] = [];
  text(col: number, row: number, text: string, bold = false): void {
    this.cells.push({ ref: at(col, row), text, ...(bold && { bold }) });
  }
  number(col: number, row: number, number: number, format?: string): void {
    this.cells.push({ ref: at(col, row), number, ...(format && { format }) });
  }
  formula(col: number, row: number, formula: string, format?: string, bold = false): void {
    this.cells.push({ ref: at(col, row), formula, ...(format && { format }), ...(bold && { bold }) });
  }
  sheet(template: string, sheetName: string, widths: readonly number[]): TemplateSheet {
    // Excel refuses : \\ / ? * [ ] in a sheet name (a ticker may hold ":") and names over 31 characters.
    const name = sheetName.replace(/[:\\/?*[\]]/g, "-").slice(0, 31);
    return { template, sheetName: name, cells: this.cells, widths };
  }
}

/** "metrics/roic:ROIC" as the catalog knows it: its dataset and name, or why not. */
export function catalogDatapoint(choice: string): { dataset: Dataset; name: string } {
  const colon = choice.lastIndexOf(":");
  if (colon <= 0 || colon === choice.length - 1)
    throw new TemplateParamsError(
      `datapoint "${choice}" must be written DATASET:NAME, e.g. metrics/roic:ROIC or fundamentals/adjusted:ECONOMIC_PROFIT`,
    );
  const dataset = findDataset(choice.slice(0, colon).trim());
  if (!dataset) throw new TemplateParamsError(`"${choice.slice(0, colon)}" is not a dataset of the catalog`);
  const name = choice
    .slice(colon + 1)
    .trim()
    .toUpperCase();
  if (!findDatapoint(dataset, name))
    throw new TemplateParamsError(`datapoint "${name}" is not in dataset ${dataset.path}`);
  return { dataset, name };
}

const roicEconomicEarnings: TemplateDefinition = {
  name: "roic-economic-earnings",
  title: "ROIC and economic earnings",
  summary: "NOPAT, invested capital, ROIC and economic earnings of one company, FY-9 to FY0.",
  tickers: { min: 1, max: 1 },
  build({ tickers }) {
    const ticker = tickers[0] as string;
    const g = new Grid();
    g.text(1, 1, `ROIC and economic earnings: ${ticker}`, true);
    g.text(1, 2, "Company");
    g.formula(2, 2, securityField(ticker, "name"));
    const years = fiscalYears(10);
    g.text(1, 4, "Fiscal year", true);
    years.forEach((y, i) => g.text(2 + i, 4, y, true));
    const rows: ReadonlyArray<readonly [string, string, string]> = [
      ["NOPAT", "metrics/roic", "NOPAT"],
      ["Invested capital", "metrics/roic", "CAPITAL_INVESTED"],
      ["ROIC", "metrics/roic", "ROIC"],
      ["Economic earnings", "fundamentals/adjusted", "ECONOMIC_PROFIT"],
      ["Economic earnings margin", "fundamentals/adjusted", "ECONOMIC_PROFIT_MARGIN"],
    ];
    rows.forEach(([label, dataset, name], r) => {
      g.text(1, 5 + r, label);
      years.forEach((y, i) =>
        g.formula(2 + i, 5 + r, datapoint(ticker, dataset, name, y), numberFormatOf(name)),
      );
    });
    g.text(1, 11, "FY0 is the latest fiscal year: refreshed next year, the sheet shows next year's data.");
    return g.sheet(this.name, `ROIC ${ticker}`, [26, ...years.map(() => 14)]);
  },
};

const PEER_DATAPOINTS = [
  "metrics/roic:ROIC",
  "metrics/roic:NOPAT",
  "fundamentals/adjusted:ECONOMIC_PROFIT",
  "fundamentals/adjusted:ECONOMIC_PROFIT_MARGIN",
];

const peerComparison: TemplateDefinition = {
  name: "peer-comparison",
  title: "Peer comparison",
  summary: "Chosen datapoints of several companies side by side at FY0, with their median.",
  tickers: { min: 2, max: 25 },
  datapoints: PEER_DATAPOINTS,
  build({ tickers, datapoints }) {
    const chosen = (datapoints && datapoints.length > 0 ? datapoints : PEER_DATAPOINTS).map(catalogDatapoint);
    if (chosen.length > 10)
      throw new TemplateParamsError(`at most 10 datapoints, not ${chosen.length}: the sheet would not fit`);
    const g = new Grid();
    g.text(1, 1, "Peer comparison at FY0 (the latest fiscal year)", true);
    g.text(1, 3, "Ticker", true);
    g.text(2, 3, "Company", true);
    chosen.forEach(({ name }, i) => g.text(3 + i, 3, name, true));
    tickers.forEach((ticker, r) => {
      g.text(1, 4 + r, ticker);
      g.formula(2, 4 + r, securityField(ticker, "name"));
      chosen.forEach(({ dataset, name }, i) =>
        g.formula(3 + i, 4 + r, datapoint(ticker, dataset.path, name, "FY0"), numberFormatOf(name)),
      );
    });
    const last = 3 + tickers.length;
    g.text(1, last + 1, "Median", true);
    chosen.forEach(({ name }, i) => {
      const col = columnLetters(3 + i);
      g.formula(3 + i, last + 1, `=MEDIAN(${col}4:${col}${last})`, numberFormatOf(name), true);
    });
    g.text(
      1,
      last + 3,
      "Datasets: " + chosen.map(({ dataset, name }) => `${name} (${dataset.path})`).join(", "),
    );
    return g.sheet(this.name, "Peers FY0", [10, 32, ...chosen.map(() => 16)]);
  },
};

const RATING_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ["Overall", "overall"],
  ["Price to EBV", "pebv"],
  ["Growth appreciation period", "gap"],
  ["FCF yield", "fcf_yield"],
  ["ROIC", "roic"],
  ["Economic vs reported EPS", "economic_eps"],
];

const ratingsDashboard: TemplateDefinition = {
  name: "ratings-dashboard",
  title: "Ratings dashboard",
  summary: "The overall and component ratings of a list of stocks, ETFs or funds.",
  tickers: { min: 1, max: 50 },
  build({ tickers }) {
    const g = new Grid();
    g.text(1, 1, "Ratings dashboard", true);
    g.text(1, 2, "1 = very attractive ... 5 = very unattractive; the latest ratings.");
    g.text(1, 4, "Ticker", true);
    g.text(2, 4, "Name", true);
    RATING_COLUMNS.forEach(([label], i) => g.text(3 + i, 4, label, true));
    tickers.forEach((ticker, r) => {
      g.text(1, 5 + r, ticker);
      g.formula(2, 5 + r, `=FDQ.RATING(${quote(ticker)},"name")`);
      RATING_COLUMNS.forEach(([, field], i) =>
        g.formula(3 + i, 5 + r, `=FDQ.RATING(${quote(ticker)},${quote(field)})`, RATING),
      );
    });
    return g.sheet(this.name, "Ratings", [10, 32, ...RATING_COLUMNS.map(() => 12)]);
  },
};

const WALK = "reconciliation/net-income-to-nopat";
/** The catalog's signs in words: "+", "-" and "=" alone in a cell would be typed as the start of a formula. */
const SIGN_WORDS: Readonly<Record<string, string>> = { "": "from", "+": "plus", "-": "minus", "=": "equals" };

const nopatReconciliation: TemplateDefinition = {
  name: "nopat-reconciliation",
  title: "Net income to NOPAT",
  summary:
    "The reconciliation walk from net income to NOPAT, FY-2 to FY0, with a check row that adds the signed items.",
  tickers: { min: 1, max: 1 },
  build({ tickers }) {
    const ticker = tickers[0] as string;
    const walk = findDataset(WALK) as Dataset;
    const years = fiscalYears(3);
    const g = new Grid();
    g.text(1, 1, `Net income to NOPAT: ${ticker}`, true);
    g.text(1, 2, "Company");
    g.formula(2, 2, securityField(ticker, "name"));
    g.text(1, 4, "Sign", true);
    g.text(2, 4, "Line item", true);
    years.forEach((y, i) => g.text(3 + i, 4, y, true));
    // The walk's lines: the start (net income) and its signed items, then its results ("=" lines).
    const items = walk.datapoints.filter((d) => d.sign !== "=");
    const results = walk.datapoints.filter((d) => d.sign === "=");
    let row = 5;
    const rowOf = new Map<string, number>();
    for (const d of [...items, ...results]) {
      rowOf.set(d.name, row);
      g.text(1, row, SIGN_WORDS[d.sign] ?? d.sign);
      g.text(2, row, d.name);
      years.forEach((y, i) => g.formula(3 + i, row, datapoint(ticker, WALK, d.name, y), "#,##0.00"));
      row++;
    }
    const total = results[0]!.name;
    const sumRow = row + 1;
    const diffRow = sumRow + 1;
    const tolRow = diffRow + 1;
    const checkRow = tolRow + 1;
    g.text(2, sumRow, "Signed sum of the line items", true);
    g.text(2, diffRow, `Difference: signed sum − ${total}`);
    g.text(2, tolRow, "Rounding tolerance (half a cent per value)");
    g.text(1, checkRow, "Check", true);
    g.text(2, checkRow, `Do the signed items add up to ${total}?`, true);
    years.forEach((_, i) => {
      const col = 3 + i;
      const terms = items
        .map((d, k) => `${k === 0 ? "" : d.sign === "-" ? "-" : "+"}${at(col, rowOf.get(d.name)!)}`)
        .join("");
      g.formula(col, sumRow, `=${terms}`, "#,##0.00", true);
      g.formula(col, diffRow, `=${at(col, sumRow)}-${at(col, rowOf.get(total)!)}`, "#,##0.00");
      g.number(col, tolRow, (items.length + 1) * 0.005, "0.000");
      g.formula(
        col,
        checkRow,
        `=IF(ABS(${at(col, diffRow)})<=${at(col, tolRow)},"adds up within rounding",` +
          `"does not add up: difference "&TEXT(${at(col, diffRow)},"#,##0.00"))`,
        undefined,
        true,
      );
    });
    g.text(
      1,
      checkRow + 2,
      `The check adds the items marked plus and subtracts those marked minus from ${items[0]!.name}, and compares the sum with ${total}.`,
    );
    return g.sheet(this.name, `NOPAT walk ${ticker}`, [8, 46, ...years.map(() => 18)]);
  },
};

const SECTOR_ROWS: ReadonlyArray<readonly [string, string, string, string]> = [
  ["ROIC", "metrics/roic", "ROIC", "ROIC"],
  ["Economic earnings margin", "fundamentals/adjusted", "ECONOMIC_PROFIT_MARGIN", "ECONOMIC_PROFIT_MARGIN"],
  ["WACC", "metrics/ebv", "WACC", "WACC"],
];

const sectorComparison: TemplateDefinition = {
  name: "sector-comparison",
  title: "Sector comparison",
  summary: "A company's ROIC, economic earnings margin and WACC at FY0 beside its sector's and industry's.",
  tickers: { min: 1, max: 1 },
  build({ tickers }) {
    const ticker = tickers[0] as string;
    const g = new Grid();
    g.text(1, 1, `Sector comparison: ${ticker}`, true);
    g.text(1, 2, "Company");
    g.formula(2, 2, securityField(ticker, "name"));
    g.text(1, 3, "Sector");
    g.formula(2, 3, securityField(ticker, "sector"));
    g.formula(3, 3, securityField(ticker, "sector_name"));
    g.text(1, 4, "Industry");
    g.formula(2, 4, securityField(ticker, "industry"));
    g.formula(3, 4, securityField(ticker, "industry_name"));
    const heads = [
      "Metric",
      `${ticker} FY0`,
      "Sector average",
      "Sector median",
      "Industry average",
      "Industry median",
    ];
    heads.forEach((h, i) => g.text(1 + i, 6, h, true));
    SECTOR_ROWS.forEach(([label, dataset, name, sector], r) => {
      const row = 7 + r;
      g.text(1, row, label);
      const format = numberFormatOf(name);
      g.formula(2, row, datapoint(ticker, dataset, name, "FY0"), format);
      g.formula(3, row, `=FDQ.SECTOR($B$3,${quote(`${sector}_AVG`)})`, format);
      g.formula(4, row, `=FDQ.SECTOR($B$3,${quote(`${sector}_MEDIAN`)})`, format);
      g.formula(5, row, `=FDQ.SECTOR($B$4,${quote(`${sector}_AVG`)})`, format);
      g.formula(6, row, `=FDQ.SECTOR($B$4,${quote(`${sector}_MEDIAN`)})`, format);
    });
    g.text(1, 11, "Sector and industry figures are those of the last fiscal year, as the company's FY0.");
    return g.sheet(this.name, `Sector ${ticker}`, [26, 16, 16, 16, 16, 16]);
  },
};

/** Every template, in the gallery's order. */
export const TEMPLATES: readonly TemplateDefinition[] = [
  roicEconomicEarnings,
  peerComparison,
  ratingsDashboard,
  nopatReconciliation,
  sectorComparison,
];

export function findTemplate(name: string): TemplateDefinition | undefined {
  const key = name.trim().toLowerCase();
  return TEMPLATES.find((t) => t.name === key);
}

/** A ticker as the service writes one: letters, digits and . : _ - (BRK.B, ENRN:1), at most 40 characters. */
const TICKER = /^[A-Z0-9][A-Z0-9.:_-]{0,39}$/;

/** The tickers of a comma-separated list, upper case, or why they cannot make `template`. */
export function checkTemplateParams(template: TemplateDefinition, params: TemplateParams): TemplateParams {
  const tickers = params.tickers.map((t) => t.trim().toUpperCase()).filter((t) => t !== "");
  const { min, max } = template.tickers;
  if (tickers.length === 0)
    throw new TemplateParamsError(
      `template ${template.name} needs ${min === 1 ? "a ticker" : `at least ${min} tickers`}`,
    );
  for (const t of tickers)
    if (!TICKER.test(t))
      throw new TemplateParamsError(
        `"${t}" is not a ticker: a ticker is letters, digits and . : _ - (e.g. AAPL, BRK.B, ENRN:1), at most 40 characters`,
      );
  const distinct = [...new Set(tickers)];
  if (distinct.length < min)
    throw new TemplateParamsError(
      `template ${template.name} needs at least ${min} different tickers, not ${distinct.length}`,
    );
  if (distinct.length > max)
    throw new TemplateParamsError(
      `template ${template.name} takes ${max === 1 ? "one ticker" : `at most ${max} tickers`}, not ${distinct.length}`,
    );
  const datapoints = (params.datapoints ?? []).map((d) => d.trim()).filter((d) => d !== "");
  if (datapoints.length > 0 && !template.datapoints)
    throw new TemplateParamsError(
      `template ${template.name} has its own datapoints: leave out the datapoints`,
    );
  datapoints.forEach(catalogDatapoint);
  return { tickers: distinct, datapoints };
}

/** The template's sheet for the analyst's parameters, checked (TemplateParamsError says what is wrong). */
export function buildTemplate(template: TemplateDefinition, params: TemplateParams): TemplateSheet {
  return template.build(checkTemplateParams(template, params));
}
