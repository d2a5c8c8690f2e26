// The layouts fdq retrofit reads, found from a sheet's cells:
//
// - a company per sheet: line items down (a column of labels), fiscal years or quarters across (a header row
//   of periods: FY2023, 2023, 2023A, Q3 2024, LTM); the ticker from a cell ("Ticker: AAPL", or "Ticker" beside
//   "AAPL"), else the sheet's name when it is written as a ticker (AAPL), else the one given (--ticker);
// - a comps table: tickers down (a column headed Ticker or Symbol), metrics across (a header row of labels);
//   the period from each metric's header ("ROIC FY2023", "EBITDA LTM") or from the sheet ("Fiscal year: 2023").
//
// Each layout gives lines: a label and the numbers that go with it, each with its ticker and period. Computed
// cells, text, dates and cells outside the table are never numbers of a line.
import { addressOf, type GridCell, type GridSheet } from "./grid";
import { parsePeriod, periodInLabel, type ModelPeriod } from "./periods";
import { isDateFormat } from "./scale";

export interface LineCell {
  readonly row: number;
  readonly col: number;
  /** "C7" */
  readonly address: string;
  readonly value: number;
  readonly format: string | undefined;
  readonly ticker: string;
  readonly period: ModelPeriod;
}

export interface Line {
  readonly sheet: string;
  readonly label: string;
  /** Where the label is ("A7"). */
  readonly labelCell: string;
  readonly cells: readonly LineCell[];
}

export type LayoutKind = "company" | "comps";

export interface SheetLayoutResult {
  readonly sheet: string;
  readonly kind?: LayoutKind;
  readonly lines: readonly Line[];
  /** Why the sheet gave no lines ("no ticker: ..."), when it gave none. */
  readonly problem?: string;
}

/** What the layouts are, for a file in which none is found. */
export const LAYOUTS_READ =
  "fdq retrofit reads two layouts: a company per sheet, with line items down a column of labels and fiscal " +
  "years or quarters across a header row (FY2023, 2023, 2023A, Q3 2024, LTM), the ticker in a cell such as " +
  "'Ticker: AAPL', in the sheet's name or given with --ticker; and a comps table, with tickers down a column " +
  "headed Ticker or Symbol and metrics across its header row, the period in each metric's header (ROIC FY2023) " +
  "or in a cell such as 'Fiscal year: 2023'";

const TICKER = /^[A-Z][A-Z0-9]{0,5}(?:[.-][A-Z]{1,2})?$/;
const TICKER_LABEL = /^(?:ticker|symbol)\s*:?$/i;
const TICKER_CELL = /^(?:ticker|symbol)\s*[:=]\s*([A-Za-z][A-Za-z0-9.-]{0,9})$/i;
const PERIOD_LABEL = /^(?:fiscal\s+year|period|fy|as\s+of)\s*:?$/i;
const PERIOD_CELL = /^(?:fiscal\s+year|period|fy|as\s+of)\s*[:=]\s*(.+)$/i;

type Grid = Map<number, Map<number, GridCell>>;

function gridOf(cells: readonly GridCell[]): Grid {
  const grid: Grid = new Map();
  for (const c of cells) {
    let row = grid.get(c.row);
    if (!row) grid.set(c.row, (row = new Map()));
    row.set(c.col, c);
  }
  return grid;
}

const textOf = (c: GridCell | undefined): string | undefined =>
  c && typeof c.value === "string" && c.value.trim() !== "" ? c.value.trim() : undefined;

/** A number a line may hold: a typed number (not a formula), not shown as a date. */
const numberOf = (c: GridCell | undefined): number | undefined =>
  c && !c.formula && typeof c.value === "number" && !isDateFormat(c.format) ? c.value : undefined;

/** The ticker the sheet names in a cell, if any. */
function tickerInCells(grid: Grid): string | undefined {
  for (const [, row] of [...grid].sort((a, b) => a[0] - b[0])) {
    for (const [col, cell] of [...row].sort((a, b) => a[0] - b[0])) {
      const text = textOf(cell);
      if (text === undefined) continue;
      const inline = TICKER_CELL.exec(text);
      if (inline) return inline[1]?.toUpperCase();
      if (TICKER_LABEL.test(text)) {
        const next = textOf(row.get(col + 1));
        if (next !== undefined && TICKER.test(next.toUpperCase())) return next.toUpperCase();
      }
    }
  }
  return undefined;
}

/** The period the sheet names in a cell ("Fiscal year: 2023", "Period" beside "FY2023"), if any. */
function periodInCells(grid: Grid): ModelPeriod | undefined {
  for (const [, row] of [...grid].sort((a, b) => a[0] - b[0])) {
    for (const [col, cell] of [...row].sort((a, b) => a[0] - b[0])) {
      const text = textOf(cell);
      if (text === undefined) continue;
      const inline = PERIOD_CELL.exec(text);
      if (inline) return parsePeriod(inline[1] ?? "");
      if (PERIOD_LABEL.test(text)) {
        const next = row.get(col + 1);
        const period = next ? parsePeriod(next.value) : undefined;
        if (period) return period;
      }
    }
  }
  return undefined;
}

/** The comps table: its Ticker column's header cell, when a column so headed holds at least 2 tickers. */
function compsHeader(grid: Grid): { row: number; col: number } | undefined {
  for (const [r, row] of [...grid].sort((a, b) => a[0] - b[0])) {
    for (const [col, cell] of row) {
      if (!TICKER_LABEL.test(textOf(cell) ?? "")) continue;
      let tickers = 0;
      for (const [r2, row2] of grid) {
        const text = r2 > r ? textOf(row2.get(col)) : undefined;
        if (text !== undefined && TICKER.test(text)) tickers++;
      }
      if (tickers >= 2) return { row: r, col };
    }
  }
  return undefined;
}

function compsLines(sheet: GridSheet, grid: Grid, header: { row: number; col: number }): SheetLayoutResult {
  const sheetPeriod = periodInCells(grid);
  const headerRow = grid.get(header.row) ?? new Map<number, GridCell>();
  const tickerRows = [...grid.keys()]
    .filter((r) => r > header.row && TICKER.test(textOf(grid.get(r)?.get(header.col)) ?? ""))
    .sort((a, b) => a - b);
  const lines: Line[] = [];
  const noPeriod: string[] = [];
  for (const [col, cell] of [...headerRow].sort((a, b) => a[0] - b[0])) {
    const label = textOf(cell);
    if (col === header.col || label === undefined) continue;
    const inLabel = periodInLabel(label);
    const period = inLabel?.period ?? sheetPeriod;
    const cells: LineCell[] = [];
    for (const r of tickerRows) {
      const c = grid.get(r)?.get(col);
      const value = numberOf(c);
      if (value === undefined || period === undefined) continue;
      const ticker = (textOf(grid.get(r)?.get(header.col)) ?? "").toUpperCase();
      cells.push({ row: r, col, address: addressOf(r, col), value, format: c?.format, ticker, period });
    }
    if (period === undefined && tickerRows.some((r) => numberOf(grid.get(r)?.get(col)) !== undefined)) {
      noPeriod.push(label);
      continue;
    }
    if (cells.length > 0)
      lines.push({
        sheet: sheet.name,
        label: inLabel?.rest ?? label,
        labelCell: addressOf(header.row, col),
        cells,
      });
  }
  if (lines.length === 0 && noPeriod.length > 0) {
    return {
      sheet: sheet.name,
      kind: "comps",
      lines,
      problem: `a comps table without a period: name it in the metrics' headers (ROIC FY2023) or in a cell such as 'Fiscal year: 2023'`,
    };
  }
  return { sheet: sheet.name, kind: "comps", lines };
}

/** The row of period headers: the row with the most cells naming periods (2 at least). */
function periodHeader(grid: Grid): { row: number; periods: Map<number, ModelPeriod> } | undefined {
  let best: { row: number; periods: Map<number, ModelPeriod> } | undefined;
  for (const [r, row] of grid) {
    const periods = new Map<number, ModelPeriod>();
    for (const [col, cell] of row) {
      if (cell.formula && typeof cell.value !== "string" && typeof cell.value !== "number") continue;
      const period = parsePeriod(cell.value);
      if (period) periods.set(col, period);
    }
    if (periods.size >= 2 && (best === undefined || periods.size > best.periods.size))
      best = { row: r, periods };
  }
  return best;
}

function companyLines(
  sheet: GridSheet,
  grid: Grid,
  ticker: string | undefined,
): SheetLayoutResult | undefined {
  const header = periodHeader(grid);
  if (!header) return undefined;
  const firstPeriodCol = Math.min(...header.periods.keys());
  // The label column: the column left of the periods with the most labels under the header.
  const counts = new Map<number, number>();
  for (const [r, row] of grid) {
    if (r <= header.row) continue;
    for (const [col, cell] of row)
      if (col < firstPeriodCol && textOf(cell) !== undefined) counts.set(col, (counts.get(col) ?? 0) + 1);
  }
  const labelCol = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  if (labelCol === undefined) return undefined;
  const found = tickerInCells(grid) ?? (TICKER.test(sheet.name) ? sheet.name : undefined) ?? ticker;
  if (found === undefined) {
    return {
      sheet: sheet.name,
      kind: "company",
      lines: [],
      problem:
        "no ticker: write it in a cell such as 'Ticker: AAPL', name the sheet after it, or give --ticker",
    };
  }
  const lines: Line[] = [];
  for (const r of [...grid.keys()].filter((r) => r > header.row).sort((a, b) => a - b)) {
    const row = grid.get(r)!;
    const label = textOf(row.get(labelCol));
    if (label === undefined || /^(?:fiscal\s+)?years?$/i.test(label)) continue;
    const cells: LineCell[] = [];
    for (const [col, period] of header.periods) {
      const c = row.get(col);
      const value = numberOf(c);
      if (value === undefined) continue;
      cells.push({
        row: r,
        col,
        address: addressOf(r, col),
        value,
        format: c?.format,
        ticker: found,
        period,
      });
    }
    if (cells.length > 0) lines.push({ sheet: sheet.name, label, labelCell: addressOf(r, labelCol), cells });
  }
  return { sheet: sheet.name, kind: "company", lines };
}

/** The lines of one sheet, or why it has none. */
export function readLayout(
  sheet: GridSheet,
  options: { ticker?: string | undefined } = {},
): SheetLayoutResult {
  if (sheet.protected) return { sheet: sheet.name, lines: [], problem: "the sheet is protected; skipped" };
  const grid = gridOf(sheet.cells);
  const comps = compsHeader(grid);
  if (comps) return compsLines(sheet, grid, comps);
  return (
    companyLines(sheet, grid, options.ticker?.toUpperCase()) ?? {
      sheet: sheet.name,
      lines: [],
      problem: "no layout fdq retrofit reads",
    }
  );
}
