import { readFdqCall } from "../../../src/functions/formula";
import { isSpCell } from "../../../bench/staleness";
import {
  buildWorkload,
  cellFetches,
  formulaText,
  M1_SHAPE,
  monthModelWorkload,
  spread,
  workloadCells,
  type CellFetch,
  type WorkloadId,
} from "../../../bench/workloads";
import { fixtureUniverse } from "./universe-fixture";

const universe = fixtureUniverse();

function cellsOf(id: WorkloadId): CellFetch[] {
  return workloadCells(buildWorkload(id, universe));
}

describe("workload generators", () => {
  it("W1 is 50 tickers x 10 fiscal years x 3 datasets x 15 datapoints = 22,500 cells", () => {
    const cells = cellsOf("W1");
    expect(cells).toHaveLength(22_500);
    const tickers = new Set(cells.map((c) => c.ticker));
    const datasets = new Set(cells.map((c) => (c.kind === "datapoint" ? c.dataset.path : "")));
    const years = new Set(cells.map((c) => (c.kind === "datapoint" ? c.period.year : 0)));
    const names = new Set(cells.map((c) => (c.kind === "datapoint" ? `${c.dataset.path}/${c.name}` : "")));
    expect([tickers.size, datasets.size, years.size, names.size]).toEqual([50, 3, 10, 45]);
    expect([...years]).toEqual([2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024]);
  });

  it("picks only tickers with data in every year a workload asks for", () => {
    const late = new Set(
      fixtureUniverse()
        .stocks.filter((s) => s.firstYear > 2015)
        .map((s) => s.ticker),
    );
    for (const id of ["W1", "W4"] as const) {
      expect(cellsOf(id).filter((c) => late.has(c.ticker))).toEqual([]);
    }
    // The one-year screen may use late starters: 2,700 of 3,000 stocks, more than the 2,000 early ones.
    expect(cellsOf("W2").some((c) => late.has(c.ticker))).toBe(true);
  });

  it("W2 is 2,700 tickers x 1 year x 5 datapoints of screens/enhanced = 13,500 cells", () => {
    const cells = cellsOf("W2");
    expect(cells).toHaveLength(13_500);
    expect(new Set(cells.map((c) => c.ticker)).size).toBe(2700);
    expect(new Set(cells.map((c) => (c.kind === "datapoint" ? c.dataset.path : "")))).toEqual(
      new Set(["screens/enhanced"]),
    );
    expect(new Set(cells.map((c) => (c.kind === "datapoint" ? c.period.year : 0)))).toEqual(new Set([2024]));
  });

  it("W3 is 3,000 distinct securities x FDQ.RATING overall", () => {
    const workload = buildWorkload("W3", universe);
    expect(workload.formulas).toHaveLength(3000);
    expect(new Set(workload.formulas.map((f) => f.ticker)).size).toBe(3000);
    expect(workload.formulas.every((f) => f.fn === "RATING" && f.field === "overall")).toBe(true);
  });

  it("W4 mixes quarters, TTM, FDQ.SERIES and FDQ.DATASET: 139 cells per ticker over 20 tickers", () => {
    const workload = buildWorkload("W4", universe);
    const kinds = new Set(workload.formulas.map((f) => f.fn));
    expect(kinds).toEqual(new Set(["DATAPOINT", "SERIES", "DATASET"]));
    const periods = workloadCells(workload).flatMap((c) => (c.kind === "datapoint" ? [c.period] : []));
    expect(periods.filter((p) => p.quarter !== undefined)).toHaveLength(20 * (8 * 5 + 13));
    expect(periods.filter((p) => p.ttm !== undefined)).toHaveLength(20 * 4 * 5);
    // 40 quarterly + 20 TTM + 3 x 10 series + 2 x 10 series + 12 + 13 dataset values + 4 annual cells.
    expect(workloadCells(workload)).toHaveLength(20 * 139);
  });

  it("FDQ.SERIES fills one cell per year and FDQ.DATASET one per catalog datapoint", () => {
    const series = cellFetches({
      fn: "SERIES",
      ticker: "AAPL",
      dataset: "metrics/roic",
      name: "ROIC",
      fromYear: 2015,
      toYear: 2024,
    });
    expect(series.map((c) => (c.kind === "datapoint" ? c.period.year : 0))).toEqual([
      2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024,
    ]);
    const spill = cellFetches({
      fn: "DATASET",
      ticker: "AAPL",
      dataset: "metrics/roic",
      period: { year: 2024 },
    });
    expect(spill).toHaveLength(19);
  });

  it("writes formulas as an analyst types them, parseable by the add-in's formula parser", () => {
    const annual = formulaText({
      fn: "DATAPOINT",
      ticker: "AAPL",
      dataset: "metrics/roic",
      name: "ROIC",
      period: { year: 2023 },
    });
    const ttm = formulaText({
      fn: "DATAPOINT",
      ticker: "AAPL",
      dataset: "metrics/roic",
      name: "ROIC",
      period: { year: 2023, ttm: 3 },
    });
    const quarter = formulaText({
      fn: "DATASET",
      ticker: "MSFT",
      dataset: "metrics/ebv",
      period: { year: 2022, quarter: 4 },
    });
    expect(annual).toBe('=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)');
    expect(ttm).toBe('=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023,,3)');
    expect(quarter).toBe('=FDQ.DATASET("MSFT","metrics/ebv",2022,4)');
    expect(formulaText({ fn: "RATING", ticker: "XLF", field: "overall" })).toBe(
      '=FDQ.RATING("XLF","overall")',
    );
    expect(readFdqCall(ttm).args).toEqual(["AAPL", "metrics/roic", "ROIC", 2023, null, 3]);
  });

  it("spreads picks over the whole list and refuses a list that is too short", () => {
    expect(spread(["a", "b", "c", "d", "e", "f"], 3)).toEqual(["a", "c", "e"]);
    expect(() => spread(["a"], 2)).toThrow("A workload needs 2 items; the universe has 1");
  });
});

describe("M1, the month's model", () => {
  const workload = monthModelWorkload(universe);
  const cells = workloadCells(workload);

  it("is 3 tickers x 10 fiscal years x 90 names of 4 datasets = 2,700 cells, none asking a whole dataset", () => {
    expect(workload.id).toBe("M1");
    expect(cells).toHaveLength(2700);
    const datapoints = cells.flatMap((c) => (c.kind === "datapoint" ? [c] : []));
    expect(new Set(datapoints.map((c) => c.ticker)).size).toBe(3);
    expect(new Set(datapoints.map((c) => c.period.year))).toEqual(
      new Set([2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024]),
    );
    const groups = new Set(datapoints.map((c) => c.dataset.group));
    expect(groups).toEqual(new Set(["metrics", "screens", "reconciliation"]));
    for (const [path, count] of M1_SHAPE) {
      const dataset = datapoints.find((c) => c.dataset.path === path)!.dataset;
      expect(count).toBeLessThan(dataset.datapoints.length);
    }
  });

  it("includes (SP) names, on 2.2% of the cells", () => {
    const sp = cells.filter(isSpCell);
    expect(new Set(sp.map((c) => (c.kind === "datapoint" ? c.name : "")))).toEqual(
      new Set(["BOOK_VALUE_ECONOMIC", "ENTERPRISE_VALUE"]),
    );
    expect(sp).toHaveLength(3 * 10 * 2);
  });
});
