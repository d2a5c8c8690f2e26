// The retrofit corpus: analysts' models that no one here wrote, written part by part as openpyxl writes a
// workbook (shared strings, styles with custom number formats, no calculation chain), with the numbers an
// analyst would have typed: FDQ values fetched through the client from the sandbox's synthetic data, then
// scaled (ones, thousands, millions, billions, a ratio as a percent), rounded at the cell's number format and
// some typed with their sign flipped. Labels are written as analysts write them (abbreviations, units in the
// label, a % sign, trailing notes). Beside them: rows that are no FDQ datapoint (growth, headcount, margins
// typed by hand), computed cells, a row of dates, and some deliberately wrong numbers (a few percent off).
//
// The book's sheets: a company per sheet (AAPL with 'Ticker: AAPL' in a cell and FY2019..FY2023 headers; MSFT
// named after its ticker, years as numbers, costs typed negative in thousands; NFLX by quarter, its ticker
// beside a "Ticker" cell, with an LTM column), a comps table (tickers down, metrics across, the period in the
// headers or in 'Fiscal year: 2023'), and a protected sheet. `truth` says what each typed number is.
import type { FdqCall, FormulaArg } from "../../../src/functions/formula";
import { DECLARATION, zipParts, type Parts } from "./zip-parts";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";

/** What a typed number is: an FDQ datapoint's value (its name), a wrong number, or no FDQ datapoint. */
export interface TruthCell {
  readonly sheet: string;
  readonly cell: string;
  readonly kind: "fdq" | "wrong" | "other";
  /** The datapoint's name, for "fdq" and "wrong". */
  readonly datapoint?: string;
}

export interface RetrofitCorpus {
  readonly bytes: Uint8Array;
  readonly truth: readonly TruthCell[];
  /** The sheets as their names, in order. */
  readonly sheets: readonly string[];
}

/** The FDQ values of calls (null where FDQ has none), from the client. */
export type FetchValues = (calls: readonly FdqCall[]) => Promise<(number | null)[]>;

/** Number formats by style index (cellXfs order): what each typed number is shown as. */
const STYLES = {
  general: 0,
  oneDecimal: 1, // #,##0.0
  grouped: 2, // #,##0
  percent: 3, // 0.0%
  twoDecimals: 4, // 0.00
  decimal: 5, // 0.0
  date: 6, // yyyy-mm-dd
  accounting: 7, // #,##0.00;(#,##0.00)
} as const;
type Style = keyof typeof STYLES;
const DECIMALS: Record<Style, number> = {
  general: 2,
  oneDecimal: 1,
  grouped: 0,
  percent: 3,
  twoDecimals: 2,
  decimal: 1,
  date: 0,
  accounting: 2,
};

type Scale = "ones" | "thousands" | "millions" | "billions" | "percent";
const FACTOR: Record<Scale, number> = {
  ones: 1,
  thousands: 1e-3,
  millions: 1e-6,
  billions: 1e-9,
  percent: 100,
};

/** A line of a model: its label as written and, for FDQ data, the datapoint, scale, style and sign. */
interface Row {
  readonly label: string;
  readonly fdq?: {
    readonly dataset: string;
    readonly name: string;
    readonly scale: Scale;
    readonly style: Style;
    readonly flip?: boolean;
  };
  /** Numbers typed by hand (no FDQ datapoint), one per period. */
  readonly other?: readonly number[];
  readonly style?: Style;
  /** A computed line: a formula per period given the column letter. */
  readonly formula?: (col: string) => string;
  /** Dates (serial days), one per period. */
  readonly dates?: boolean;
}

interface Cell {
  readonly v: number | string;
  readonly style?: Style;
  readonly f?: string;
}

const colName = (c: number): string => {
  let s = "";
  for (let n = c; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

const round = (v: number, decimals: number): number => Number(v.toFixed(decimals));

/**
 * The number an analyst types for `value` in a cell of `style`: rounded at the format; a wrong one is `wrong`
 * times the value and at least 3 of the format's steps away from the right one (else it would not be wrong).
 */
function typed(value: number, style: Style, wrong?: number): number {
  const decimals = DECIMALS[style];
  const right = round(value, decimals);
  if (wrong === undefined) return right;
  const step = 10 ** -decimals;
  const off = round(value * wrong, decimals);
  return Math.abs(off - right) >= 3 * step
    ? off
    : round(right + Math.sign(wrong - 1 || 1) * 3 * step, decimals);
}

const escape = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

class SheetBuilder {
  readonly cells = new Map<number, Map<number, Cell>>();
  readonly truth: TruthCell[] = [];
  constructor(
    readonly name: string,
    readonly protectedSheet = false,
  ) {}
  set(row: number, col: number, cell: Cell): void {
    let r = this.cells.get(row);
    if (!r) this.cells.set(row, (r = new Map()));
    r.set(col, cell);
  }
  xml(strings: string[]): string {
    const stringIndex = (s: string): number => {
      const i = strings.indexOf(s);
      return i >= 0 ? i : strings.push(s) - 1;
    };
    const rows = [...this.cells.keys()].sort((a, b) => a - b);
    const maxCol = Math.max(...[...this.cells.values()].flatMap((r) => [...r.keys()]));
    const body = rows
      .map((r) => {
        const cells = [...(this.cells.get(r) ?? new Map<number, Cell>())]
          .sort((a, b) => a[0] - b[0])
          .map(([c, cell]) => {
            const ref = `${colName(c)}${r}`;
            const s = cell.style && cell.style !== "general" ? ` s="${STYLES[cell.style]}"` : "";
            if (cell.f !== undefined) return `<c r="${ref}"${s}><f>${escape(cell.f)}</f><v>${cell.v}</v></c>`;
            if (typeof cell.v === "string")
              return `<c r="${ref}"${s} t="s"><v>${stringIndex(cell.v)}</v></c>`;
            return `<c r="${ref}"${s} t="n"><v>${cell.v}</v></c>`;
          })
          .join("");
        return `<row r="${r}">${cells}</row>`;
      })
      .join("");
    const protection = this.protectedSheet
      ? '<sheetProtection sheet="1" objects="1" scenarios="1" password="CC3D"/>'
      : "";
    return (
      `${DECLARATION}<worksheet xmlns="${MAIN}"><sheetPr><outlinePr summaryBelow="1" summaryRight="1"/><pageSetUpPr/></sheetPr>` +
      `<dimension ref="A1:${colName(maxCol)}${rows[rows.length - 1] ?? 1}"/><sheetViews><sheetView workbookViewId="0"><selection activeCell="A1" sqref="A1"/></sheetView></sheetViews>` +
      `<sheetFormatPr baseColWidth="8" defaultRowHeight="15"/><sheetData>${body}</sheetData>${protection}` +
      '<pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5"/></worksheet>'
    );
  }
}

interface PeriodColumn {
  readonly header: number | string;
  readonly args: readonly FormulaArg[];
}

/** A company sheet: labels in column A from row `top`, one column per period from column B. */
async function companySheet(
  fetch: FetchValues,
  sheet: SheetBuilder,
  options: {
    ticker: string;
    top: number;
    periods: readonly PeriodColumn[];
    rows: readonly Row[];
    /** Cells typed wrong: [row index, period index, factor]. */
    wrong: readonly [number, number, number][];
  },
): Promise<void> {
  const headerRow = options.top - 1;
  options.periods.forEach((p, i) => sheet.set(headerRow, 2 + i, { v: p.header }));
  const calls: FdqCall[] = [];
  for (const row of options.rows) {
    if (!row.fdq) continue;
    for (const p of options.periods)
      calls.push({ name: "DATAPOINT", args: [options.ticker, row.fdq.dataset, row.fdq.name, ...p.args] });
  }
  const values = await fetch(calls);
  let at = 0;
  for (const [i, row] of options.rows.entries()) {
    const r = options.top + i;
    sheet.set(r, 1, { v: row.label });
    for (const [j] of options.periods.entries()) {
      const col = 2 + j;
      const ref = `${colName(col)}${r}`;
      if (row.fdq) {
        const value = values[at++];
        if (value === null || value === undefined) continue;
        const wrong = options.wrong.find(([ri, pj]) => ri === i && pj === j)?.[2];
        const shown = typed(value * FACTOR[row.fdq.scale] * (row.fdq.flip ? -1 : 1), row.fdq.style, wrong);
        sheet.set(r, col, { v: shown, style: row.fdq.style });
        sheet.truth.push({
          sheet: sheet.name,
          cell: ref,
          kind: wrong ? "wrong" : "fdq",
          datapoint: row.fdq.name,
        });
      } else if (row.other) {
        sheet.set(r, col, { v: row.other[j] ?? 0, style: row.style ?? "general" });
        sheet.truth.push({ sheet: sheet.name, cell: ref, kind: "other" });
      } else if (row.formula) {
        sheet.set(r, col, { v: 0.5, f: row.formula(colName(col)) });
      } else if (row.dates) {
        sheet.set(r, col, { v: 43830 + 365 * j, style: "date" });
      }
    }
  }
}

const years = (from: number, to: number, header: (y: number) => number | string): PeriodColumn[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ header: header(from + i), args: [from + i] }));

/** Builds the corpus, fetching the values it types through `fetch`. */
export async function retrofitCorpus(fetch: FetchValues): Promise<RetrofitCorpus> {
  const sheets: SheetBuilder[] = [];

  // AAPL: 'Ticker: AAPL' in A1, FY headers, millions with one decimal.
  const aapl = new SheetBuilder("Apple model");
  aapl.set(1, 1, { v: "Ticker: AAPL" });
  aapl.set(2, 1, { v: "($ in millions, except per share)" });
  await companySheet(fetch, aapl, {
    ticker: "AAPL",
    top: 5,
    periods: years(2019, 2023, (y) => `FY${y}`),
    rows: [
      {
        label: "Net sales ($m)",
        fdq: { dataset: "screens/traditional", name: "REVENUE", scale: "millions", style: "oneDecimal" },
      },
      { label: "Revenue growth %", other: [0.05, 0.061, 0.074, 0.032, 0.028], style: "percent" },
      {
        label: "COGS",
        fdq: { dataset: "screens/traditional", name: "SALES_COST", scale: "millions", style: "oneDecimal" },
      },
      {
        label: "Gross profit",
        fdq: { dataset: "screens/traditional", name: "PROFIT_GROSS", scale: "millions", style: "oneDecimal" },
      },
      { label: "Gross margin %", formula: (c) => `${c}8/${c}5` },
      {
        label: "SG&A*",
        fdq: {
          dataset: "screens/traditional",
          name: "EXPENSES_SGA",
          scale: "millions",
          style: "oneDecimal",
          flip: true,
        },
      },
      {
        label: "R&D",
        fdq: {
          dataset: "screens/traditional",
          name: "RESEARCH_AND_DEVELOPMENT_EXPENSE",
          scale: "millions",
          style: "oneDecimal",
        },
      },
      {
        label: "Adj. EBITDA",
        fdq: { dataset: "screens/enhanced", name: "EBITDA", scale: "millions", style: "oneDecimal" },
      },
      {
        label: "Net income (1)",
        fdq: { dataset: "screens/traditional", name: "INCOME_NET", scale: "millions", style: "oneDecimal" },
      },
      {
        label: "Diluted EPS",
        fdq: {
          dataset: "screens/traditional",
          name: "INCOME_NET_PER_WADSO",
          scale: "ones",
          style: "twoDecimals",
        },
      },
      { label: "Headcount (000s)", other: [147, 154, 161, 164, 161], style: "grouped" },
      {
        label: "NOPAT",
        fdq: { dataset: "metrics/roic", name: "NOPAT", scale: "millions", style: "oneDecimal" },
      },
      { label: "ROIC %", fdq: { dataset: "metrics/roic", name: "ROIC", scale: "percent", style: "decimal" } },
      { label: "Fiscal year end", dates: true },
      { label: "Tax rate assumption", other: [0.21, 0.21, 0.21, 0.21, 0.21], style: "percent" },
    ],
    wrong: [
      [0, 2, 1.07],
      [11, 4, 0.93],
    ],
  });
  sheets.push(aapl);

  // MSFT: the sheet named after its ticker, years as numbers, thousands, costs typed negative.
  const msft = new SheetBuilder("MSFT");
  msft.set(1, 1, { v: "Microsoft - annual model (USD 000s)" });
  await companySheet(fetch, msft, {
    ticker: "MSFT",
    top: 4,
    periods: years(2020, 2023, (y) => y),
    rows: [
      {
        label: "Total revenues",
        fdq: { dataset: "screens/traditional", name: "REVENUE", scale: "thousands", style: "grouped" },
      },
      {
        label: "Cost of sales",
        fdq: {
          dataset: "screens/traditional",
          name: "SALES_COST",
          scale: "thousands",
          style: "grouped",
          flip: true,
        },
      },
      {
        label: "Stock based compensation",
        fdq: {
          dataset: "fundamentals/reported",
          name: "EXPENSES_STOCK_COMPENSATION",
          scale: "thousands",
          style: "grouped",
        },
      },
      {
        label: "EBIT",
        fdq: { dataset: "screens/enhanced", name: "EBIT", scale: "thousands", style: "grouped" },
      },
      {
        label: "Free cash flow",
        fdq: { dataset: "screens/enhanced", name: "FREE_CASH_FLOW", scale: "thousands", style: "grouped" },
      },
      {
        label: "Invested capital",
        fdq: { dataset: "metrics/roic", name: "CAPITAL_INVESTED", scale: "thousands", style: "grouped" },
      },
      {
        label: "Return on invested capital",
        fdq: { dataset: "metrics/roic", name: "ROIC", scale: "ones", style: "percent" },
      },
      { label: "WACC", fdq: { dataset: "metrics/ebv", name: "WACC", scale: "ones", style: "percent" } },
      { label: "Capex guidance", other: [21000000, 24000000, 28000000, 32000000], style: "grouped" },
      {
        label: "Total debt",
        fdq: { dataset: "screens/traditional", name: "DEBT", scale: "thousands", style: "grouped" },
      },
      { label: "Dividend per share", other: [2.04, 2.24, 2.48, 2.72], style: "twoDecimals" },
      {
        label: "Op. income",
        fdq: {
          dataset: "fundamentals/reported",
          name: "INCOME_OPERATING",
          scale: "thousands",
          style: "grouped",
        },
      },
      {
        label: "EPS (diluted)",
        fdq: {
          dataset: "screens/traditional",
          name: "INCOME_NET_PER_WADSO",
          scale: "ones",
          style: "twoDecimals",
        },
      },
      {
        label: "Interest expense",
        fdq: {
          dataset: "fundamentals/reported",
          name: "EXPENSES_INTEREST",
          scale: "thousands",
          style: "grouped",
        },
      },
      {
        label: "Diluted shares (m)",
        fdq: {
          dataset: "reconciliation/core-earnings-to-net-income",
          name: "WADSO_SPLIT_ADJUSTED",
          scale: "millions",
          style: "oneDecimal",
        },
      },
      { label: "Gross margin (%)", other: [68.4, 68.9, 69.8, 68.9], style: "decimal" },
    ],
    wrong: [[3, 1, 1.05]],
  });
  sheets.push(msft);

  // NFLX: quarters and LTM, the ticker beside a "Ticker" cell, millions with one decimal.
  const nflx = new SheetBuilder("Quarterly");
  nflx.set(1, 1, { v: "Ticker" });
  nflx.set(1, 2, { v: "NFLX" });
  const quarters: PeriodColumn[] = [1, 2, 3, 4].map((q) => ({ header: `Q${q} 2023`, args: [2023, q] }));
  await companySheet(fetch, nflx, {
    ticker: "NFLX",
    top: 4,
    periods: [...quarters, { header: "LTM", args: ["LTM"] }],
    rows: [
      {
        label: "Revenue ($m)",
        fdq: { dataset: "screens/traditional", name: "REVENUE", scale: "millions", style: "oneDecimal" },
      },
      {
        label: "Operating income",
        fdq: {
          dataset: "fundamentals/reported",
          name: "INCOME_OPERATING",
          scale: "millions",
          style: "oneDecimal",
        },
      },
      {
        label: "Net profit",
        fdq: { dataset: "screens/traditional", name: "INCOME_NET", scale: "millions", style: "oneDecimal" },
      },
      { label: "Paid memberships (m)", other: [232.5, 238.39, 247.15, 260.28, 260.28], style: "twoDecimals" },
      { label: "Content amortization", other: [3451, 3602, 3580, 3713, 14346], style: "grouped" },
    ],
    wrong: [[2, 1, 1.1]],
  });
  sheets.push(nflx);

  // Comps: tickers down, metrics across; the period in the headers or in 'Fiscal year: 2023'.
  const comps = new SheetBuilder("Comps");
  comps.set(1, 1, { v: "Fiscal year: 2023" });
  const tickers = ["AAPL", "MSFT", "NFLX", "K"];
  const metrics: { label: string; fdq?: Row["fdq"]; other?: number[] }[] = [
    {
      label: "Revenue FY2023 ($bn)",
      fdq: { dataset: "screens/traditional", name: "REVENUE", scale: "billions", style: "twoDecimals" },
    },
    {
      label: "Market cap ($m)",
      fdq: {
        dataset: "reconciliation/market-value-to-ev",
        name: "EQUITY_MARKET_VALUE",
        scale: "millions",
        style: "grouped",
      },
    },
    {
      label: "TEV ($m)",
      fdq: { dataset: "screens/enhanced", name: "ENTERPRISE_VALUE", scale: "millions", style: "grouped" },
    },
    { label: "ROIC (%)", fdq: { dataset: "metrics/roic", name: "ROIC", scale: "percent", style: "decimal" } },
    { label: "EV / EBITDA (x)", other: [21.3, 24.8, 30.1, 12.4] },
    { label: "Price target", other: [210, 420, 610, 65] },
  ];
  comps.set(3, 1, { v: "Ticker" });
  comps.set(3, 2, { v: "Company" });
  const calls: FdqCall[] = [];
  for (const m of metrics) {
    if (m.fdq)
      for (const t of tickers) calls.push({ name: "DATAPOINT", args: [t, m.fdq.dataset, m.fdq.name, 2023] });
  }
  const values = await fetch(calls);
  let at = 0;
  tickers.forEach((t, i) => {
    comps.set(4 + i, 1, { v: t });
    comps.set(4 + i, 2, { v: `${t} Synthetic` });
  });
  metrics.forEach((m, j) => {
    const col = 3 + j;
    comps.set(3, col, { v: m.label });
    tickers.forEach((_, i) => {
      const ref = `${colName(col)}${4 + i}`;
      if (m.fdq) {
        const value = values[at++];
        if (value === null || value === undefined) return;
        const wrong = m.fdq.name === "ENTERPRISE_VALUE" && i === 2 ? 1.06 : undefined;
        const shown = typed(value * FACTOR[m.fdq.scale], m.fdq.style, wrong);
        comps.set(4 + i, col, { v: shown, style: m.fdq.style });
        comps.truth.push({
          sheet: comps.name,
          cell: ref,
          kind: wrong ? "wrong" : "fdq",
          datapoint: m.fdq.name,
        });
      } else {
        comps.set(4 + i, col, { v: m.other?.[i] ?? 0, style: "decimal" });
        comps.truth.push({ sheet: comps.name, cell: ref, kind: "other" });
      }
    });
  });
  sheets.push(comps);

  // A sheet that names no ticker (fdq retrofit --ticker K gives it): balance-sheet and EVA labels, "2022A".
  const balance = new SheetBuilder("Balance sheet");
  balance.set(1, 1, { v: "Balance sheet and economic returns, $ in millions" });
  const num = (dataset: string, name: string, scale: Scale = "millions", style: Style = "oneDecimal") => ({
    dataset,
    name,
    scale,
    style,
  });
  await companySheet(fetch, balance, {
    ticker: "K",
    top: 4,
    periods: years(2020, 2023, (y) => `${y}A`),
    rows: [
      { label: "Cash & equivalents", fdq: num("screens/traditional", "ASSETS_CURRENT_CASH") },
      { label: "Goodwill", fdq: num("screens/traditional", "GOODWILL_NET") },
      { label: "Total assets", fdq: num("screens/traditional", "ASSETS_UNADJUSTED") },
      { label: "Current liabilities", fdq: num("screens/traditional", "LIABILITIES_CURRENT") },
      { label: "Shareholders' equity", fdq: num("screens/traditional", "EQUITY_SHAREHOLDER") },
      { label: "Retained earnings", fdq: num("screens/traditional", "EARNINGS_RETAINED") },
      { label: "Minority interest", fdq: num("screens/traditional", "INTEREST_MINORITY") },
      { label: "D&A", fdq: num("screens/traditional", "EXPENSES_DEPRECIATION_AND_AMORTIZATION") },
      { label: "Capex, $m", fdq: num("fundamentals/adjusted", "CAPEX") },
      { label: "NOPBT", fdq: num("screens/enhanced", "NOPBT") },
      { label: "Economic profit", fdq: num("screens/enhanced", "ECONOMIC_PROFIT") },
      { label: "Economic book value", fdq: num("screens/enhanced", "BOOK_VALUE_ECONOMIC") },
      { label: "Excess cash", fdq: num("metrics/ebv", "EXCESS_CASH") },
      { label: "Working capital days", other: [41, 39, 44, 47], style: "grouped" },
      { label: "Net debt / EBITDA (x)", other: [2.8, 2.6, 2.4, 2.9], style: "decimal" },
      { label: "Interest coverage", other: [7.1, 7.9, 8.4, 6.6], style: "decimal" },
    ],
    wrong: [
      [2, 3, 1.04],
      [9, 0, 0.95],
    ],
  });
  sheets.push(balance);

  // A protected sheet: reported and skipped, its numbers never linked.
  const locked = new SheetBuilder("Locked", true);
  locked.set(1, 1, { v: "Ticker: AAPL" });
  await companySheet(fetch, locked, {
    ticker: "AAPL",
    top: 3,
    periods: years(2022, 2023, (y) => `${y}A`),
    rows: [
      {
        label: "Revenue",
        fdq: { dataset: "screens/traditional", name: "REVENUE", scale: "millions", style: "oneDecimal" },
      },
    ],
    wrong: [],
  });
  sheets.push(locked);

  const strings: string[] = [];
  const sheetXml = sheets.map((s) => s.xml(strings));
  const o = (part: string, type: string): string => `<Override PartName="/${part}" ContentType="${type}"/>`;
  const rels = (list: [string, string, string][]): string =>
    `${DECLARATION}<Relationships xmlns="${PKG_REL}">` +
    list
      .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`)
      .join("") +
    "</Relationships>";
  const n = sheets.length;
  const parts: Parts = {
    "[Content_Types].xml":
      `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      o("xl/workbook.xml", `${SML}.sheet.main+xml`) +
      sheets.map((_, i) => o(`xl/worksheets/sheet${i + 1}.xml`, `${SML}.worksheet+xml`)).join("") +
      o("xl/styles.xml", `${SML}.styles+xml`) +
      o("xl/sharedStrings.xml", `${SML}.sharedStrings+xml`) +
      o("docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml") +
      o("docProps/app.xml", "application/vnd.openxmlformats-officedocument.extended-properties+xml") +
      "</Types>",
    "_rels/.rels": rels([
      ["rId1", `${REL}/officeDocument`, "xl/workbook.xml"],
      [
        "rId2",
        "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
        "docProps/core.xml",
      ],
      ["rId3", `${REL}/extended-properties`, "docProps/app.xml"],
    ]),
    "docProps/app.xml":
      `${DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
      "<Application>Microsoft Excel</Application><AppVersion>3.1</AppVersion></Properties>",
    "docProps/core.xml":
      `${DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>openpyxl</dc:creator>' +
      '<dcterms:created xsi:type="dcterms:W3CDTF">2026-01-05T09:00:00Z</dcterms:created></cp:coreProperties>',
    "xl/workbook.xml":
      `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr/><workbookProtection/><bookViews>` +
      '<workbookView visibility="visible" minimized="0" showHorizontalScroll="1" showVerticalScroll="1" showSheetTabs="1" tabRatio="600" firstSheet="0" activeTab="0" autoFilterDateGrouping="1"/>' +
      "</bookViews><sheets>" +
      sheets
        .map(
          (s, i) =>
            `<sheet xmlns:r="${REL}" name="${escape(s.name)}" sheetId="${i + 1}" state="visible" r:id="rId${i + 1}"/>`,
        )
        .join("") +
      '</sheets><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>',
    "xl/_rels/workbook.xml.rels": rels([
      ...sheets.map((_, i): [string, string, string] => [
        `rId${i + 1}`,
        `${REL}/worksheet`,
        `/xl/worksheets/sheet${i + 1}.xml`,
      ]),
      [`rId${n + 1}`, `${REL}/styles`, "/xl/styles.xml"],
      [`rId${n + 2}`, `${REL}/sharedStrings`, "/xl/sharedStrings.xml"],
    ]),
    "xl/styles.xml":
      `${DECLARATION}<styleSheet xmlns="${MAIN}"><numFmts count="5">` +
      '<numFmt numFmtId="164" formatCode="#,##0.0"/><numFmt numFmtId="165" formatCode="0.0%"/>' +
      '<numFmt numFmtId="166" formatCode="0.0"/><numFmt numFmtId="167" formatCode="yyyy-mm-dd"/>' +
      '<numFmt numFmtId="168" formatCode="#,##0.00;(#,##0.00)"/></numFmts>' +
      '<fonts count="1"><font><name val="Calibri"/><family val="2"/><sz val="11"/></font></fonts>' +
      '<fills count="2"><fill><patternFill/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="8">' +
      [0, 164, 3, 165, 2, 166, 167, 168]
        .map(
          (id) =>
            `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0"${id ? ' applyNumberFormat="1"' : ""} pivotButton="0" quotePrefix="0" xfId="0"/>`,
        )
        .join("") +
      '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0" hidden="0"/></cellStyles>' +
      '<tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>',
  };
  sheetXml.forEach((xml, i) => (parts[`xl/worksheets/sheet${i + 1}.xml`] = xml));
  parts["xl/sharedStrings.xml"] =
    `${DECLARATION}<sst xmlns="${MAIN}" uniqueCount="${strings.length}">` +
    strings.map((s) => `<si><t>${escape(s)}</t></si>`).join("") +
    "</sst>";
  return {
    bytes: zipParts(parts),
    truth: sheets.flatMap((s) => (s.protectedSheet ? [] : s.truth)),
    sheets: sheets.map((s) => s.name),
  };
}

/** A workbook with no layout fdq retrofit reads: notes and a few numbers, no periods, no tickers. */
export function noLayoutBook(): Uint8Array {
  const sheet = new SheetBuilder("Notes");
  sheet.set(1, 1, { v: "Meeting notes" });
  sheet.set(2, 1, { v: "Budget" });
  sheet.set(2, 2, { v: 1200 });
  const strings: string[] = [];
  const xml = sheet.xml(strings);
  return zipParts({
    "[Content_Types].xml":
      `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SML}.worksheet+xml"/>` +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="${SML}.sharedStrings+xml"/></Types>`,
    "_rels/.rels": `${DECLARATION}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Notes" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      `${DECLARATION}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="/xl/worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>`,
    "xl/worksheets/sheet1.xml": xml,
    "xl/sharedStrings.xml":
      `${DECLARATION}<sst xmlns="${MAIN}" uniqueCount="${strings.length}">` +
      strings.map((s) => `<si><t>${escape(s)}</t></si>`).join("") +
      "</sst>",
  });
}
