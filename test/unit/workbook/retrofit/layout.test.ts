// fdq retrofit's layout detection: a company per sheet (periods across, labels down) and a comps table (tickers
// down, metrics across), the ticker and the period from the sheet or the options (src/workbook/retrofit/layout.ts,
// periods.ts).
import type { GridCell, GridSheet } from "../../../../src/workbook/retrofit/grid";
import { readLayout } from "../../../../src/workbook/retrofit/layout";
import { parsePeriod } from "../../../../src/workbook/retrofit/periods";

type Value = GridCell["value"] | { f: number } | { date: number };

/** A sheet from rows of values from A1 ({f}: a formula's cached value; {date}: a date). */
function sheet(name: string, rows: readonly (readonly Value[])[], locked = false): GridSheet {
  const cells: GridCell[] = [];
  rows.forEach((row, r) =>
    row.forEach((v, c) => {
      if (v === null) return;
      if (typeof v === "object" && "f" in v)
        cells.push({ row: r + 1, col: c + 1, value: v.f, formula: true });
      else if (typeof v === "object" && "date" in v)
        cells.push({ row: r + 1, col: c + 1, value: v.date, formula: false, format: "yyyy-mm-dd" });
      else cells.push({ row: r + 1, col: c + 1, value: v, formula: false });
    }),
  );
  return { name, cells, protected: locked };
}

const linesOf = (s: GridSheet, ticker?: string) =>
  readLayout(s, { ticker }).lines.map((l) => ({
    label: l.label,
    cells: l.cells.map((c) => `${c.address}:${c.ticker}:${JSON.stringify(c.period)}`),
  }));

describe("layout detection", () => {
  it("reads period headers: FY2023, FY23, 2023, 2023A, a year as a number, Q3 2024, 3Q24, LTM", () => {
    expect(parsePeriod("FY2023")).toEqual({ kind: "year", year: 2023 });
    expect(parsePeriod("FY23")).toEqual({ kind: "year", year: 2023 });
    expect(parsePeriod("2023")).toEqual({ kind: "year", year: 2023 });
    expect(parsePeriod("2023A")).toEqual({ kind: "year", year: 2023 });
    expect(parsePeriod(2023)).toEqual({ kind: "year", year: 2023 });
    expect(parsePeriod("Q3 2024")).toEqual({ kind: "quarter", year: 2024, quarter: 3 });
    expect(parsePeriod("3Q24")).toEqual({ kind: "quarter", year: 2024, quarter: 3 });
    expect(parsePeriod("LTM")).toEqual({ kind: "ltm" });
    expect(parsePeriod("TTM")).toEqual({ kind: "ltm" });
  });

  it("reads no period in estimates, labels and other numbers", () => {
    expect(parsePeriod("2025E")).toBeUndefined();
    expect(parsePeriod("Revenue")).toBeUndefined();
    expect(parsePeriod(2023.5)).toBeUndefined();
    expect(parsePeriod(150)).toBeUndefined();
  });

  it("reads a company sheet: labels down, periods across, the ticker from 'Ticker: AAPL'", () => {
    const s = sheet("Model", [
      ["Ticker: AAPL"],
      [null, "FY2022", "FY2023"],
      ["Revenue", 100.5, 120.25],
      ["ROIC %", 14.6, null],
    ]);
    expect(readLayout(s).kind).toBe("company");
    expect(linesOf(s)).toEqual([
      {
        label: "Revenue",
        cells: ['B3:AAPL:{"kind":"year","year":2022}', 'C3:AAPL:{"kind":"year","year":2023}'],
      },
      { label: "ROIC %", cells: ['B4:AAPL:{"kind":"year","year":2022}'] },
    ]);
  });

  it("takes the ticker beside a 'Ticker' cell, else the sheet's name written as a ticker, else --ticker", () => {
    const rows = [
      [null, 2022, 2023],
      ["Revenue", 1.5, 2.5],
    ];
    expect(linesOf(sheet("x", [["Ticker", "MSFT"], ...rows]))[0]?.cells[0]).toBe(
      'B3:MSFT:{"kind":"year","year":2022}',
    );
    expect(linesOf(sheet("NFLX", rows))[0]?.cells[0]).toBe('B2:NFLX:{"kind":"year","year":2022}');
    expect(linesOf(sheet("Model", rows), "K")[0]?.cells[0]).toBe('B2:K:{"kind":"year","year":2022}');
  });

  it("says how to give a ticker when a company sheet names none", () => {
    expect(
      readLayout(
        sheet("Model", [
          [null, 2022, 2023],
          ["Revenue", 1.5, 2.5],
        ]),
      ).problem,
    ).toBe("no ticker: write it in a cell such as 'Ticker: AAPL', name the sheet after it, or give --ticker");
  });

  it("leaves computed cells, dates, text and the header row out of the lines", () => {
    const s = sheet("AAPL", [
      [null, "FY2022", "FY2023"],
      ["Revenue", 100.5, { f: 120.25 }],
      ["Fiscal year end", { date: 44926 }, { date: 45291 }],
      ["Note", "n/a", "see text"],
    ]);
    expect(linesOf(s)).toEqual([{ label: "Revenue", cells: ['B2:AAPL:{"kind":"year","year":2022}'] }]);
  });

  it("reads a comps table: tickers down a Ticker column, metrics across, the period from the header", () => {
    const s = sheet("Comps", [
      ["Ticker", "Company", "Revenue FY2023 ($bn)", "ROIC LTM"],
      ["AAPL", "Apple", 25.24, 14.6],
      ["MSFT", "Microsoft", 30.1, 12.2],
    ]);
    expect(readLayout(s).kind).toBe("comps");
    expect(linesOf(s)).toEqual([
      {
        label: "Revenue ($bn)",
        cells: ['C2:AAPL:{"kind":"year","year":2023}', 'C3:MSFT:{"kind":"year","year":2023}'],
      },
      { label: "ROIC", cells: ['D2:AAPL:{"kind":"ltm"}', 'D3:MSFT:{"kind":"ltm"}'] },
    ]);
  });

  it("takes a comps table's period from a cell such as 'Fiscal year: 2023'", () => {
    const s = sheet("Comps", [["Fiscal year: 2023"], ["Symbol", "Market cap"], ["AAPL", 2800], ["K", 21]]);
    expect(linesOf(s)).toEqual([
      {
        label: "Market cap",
        cells: ['B3:AAPL:{"kind":"year","year":2023}', 'B4:K:{"kind":"year","year":2023}'],
      },
    ]);
  });

  it("says a comps table needs a period when none is given", () => {
    const s = sheet("Comps", [
      ["Ticker", "Market cap"],
      ["AAPL", 2800],
      ["K", 21],
    ]);
    expect(readLayout(s).problem).toBe(
      "a comps table without a period: name it in the metrics' headers (ROIC FY2023) or in a cell such as 'Fiscal year: 2023'",
    );
  });

  it("reports a protected sheet and reads none of it", () => {
    const s = sheet(
      "AAPL",
      [
        [null, 2022, 2023],
        ["Revenue", 1.5, 2.5],
      ],
      true,
    );
    expect(readLayout(s)).toEqual({ sheet: "AAPL", lines: [], problem: "the sheet is protected; skipped" });
  });

  it("finds no layout in a sheet without periods or tickers", () => {
    expect(readLayout(sheet("Notes", [["Budget", 1200]])).problem).toBe("no layout fdq retrofit reads");
  });
});
