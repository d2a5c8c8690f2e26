import { idealSeconds, lowerBoundRequests, requestKey, unitsBound } from "../../../bench/lower-bound";
import { boundUrl } from "../../../bench/wire";
import {
  buildWorkload,
  cellFetches,
  monthModelWorkload,
  workloadCells,
  type Formula,
  type WorkloadId,
} from "../../../bench/workloads";
import { fixtureUniverse } from "./universe-fixture";

const universe = fixtureUniverse();

function bound(formulas: readonly Formula[]): number {
  return lowerBoundRequests(formulas.flatMap(cellFetches)).length;
}

const point = (dataset: string, name: string, year: number, extra: object = {}): Formula => ({
  fn: "DATAPOINT",
  ticker: "AAPL",
  dataset,
  name,
  period: { year, ...extra },
});

describe("lower-bound calculator", () => {
  it("counts one request per ticker x dataset x period where all-datapoints mode exists", () => {
    expect(bound([point("metrics/roic", "ROIC", 2023), point("metrics/roic", "NOPAT", 2023)])).toBe(1);
    expect(bound([point("metrics/roic", "ROIC", 2023), point("metrics/roic", "ROIC", 2022)])).toBe(2);
    expect(bound([point("metrics/roic", "ROIC", 2023), point("metrics/ebv", "EBV", 2023)])).toBe(2);
  });

  it("counts annual, each quarter and each TTM period of one year as different periods", () => {
    const periods = [{}, { quarter: 1 }, { quarter: 2 }, { ttm: 1 }, { ttm: 2 }, { quarter: 1 }];
    expect(bound(periods.map((p) => point("metrics/roic", "ROIC", 2023, p)))).toBe(5);
  });

  it("counts fundamentals once per datapoint, since they have no all-datapoints mode", () => {
    const names = ["REVENUE", "REVENUE", "NET_INCOME"];
    expect(bound(names.map((n) => point("fundamentals/reported", n, 2023)))).toBe(2);
    expect(requestKey(cellFetches(point("fundamentals/adjusted", "X", 2023))[0]!)).toBe(
      "fundamentals/adjusted|AAPL|2023|X",
    );
  });

  it("counts ratings once per security whatever the fields, and tickers in any case as one", () => {
    const ratings: Formula[] = [
      { fn: "RATING", ticker: "AAPL", field: "overall" },
      { fn: "RATING", ticker: "aapl", field: "roic" },
      { fn: "RATING", ticker: "XLF", field: "overall" },
    ];
    expect(bound(ratings)).toBe(2);
  });

  it.each([
    ["W1", 50 * 10 * 3],
    ["W2", 2700],
    ["W3", 3000],
    // Per ticker: 8 quarters + 4 TTM of metrics/roic, 10 years of screens/traditional, 2 x 10 years of
    // reported fundamentals, 1 market-value-to-ev and 1 metrics/ebv Q4.
    ["W4", 20 * 44],
  ])("gives %s its stated lower bound of %i requests", (id, expected) => {
    expect(lowerBoundRequests(workloadCells(buildWorkload(id as WorkloadId, universe)))).toHaveLength(
      expected,
    );
  });

  it("asks for a whole dataset only when one request answers several cells", () => {
    const [many] = lowerBoundRequests(
      [point("metrics/roic", "ROIC", 2023), point("metrics/roic", "NOPAT", 2023)].flatMap(cellFetches),
    );
    const [one] = lowerBoundRequests(cellFetches(point("metrics/roic", "ROIC", 2023, { ttm: 2 })));
    expect(boundUrl("http://h/v1", many!)).toBe("http://h/v1/metrics/roic/AAPL?year=2023");
    expect(boundUrl("http://h/v1", one!)).toBe(
      "http://h/v1/metrics/roic/AAPL?datapoint=ROIC&year=2023&ttm=2",
    );
  });

  it("times the lower bound at whole rounds of the concurrency limit, one latency each", () => {
    // W1: 1,500 requests 6 at a time = 250 rounds of 80 ms.
    expect(idealSeconds(1500, 6, 80)).toBe(20);
    expect(idealSeconds(880, 6, 80)).toBeCloseTo(11.76, 10);
  });
});

describe("units bound", () => {
  const units = (formulas: readonly Formula[]): number => unitsBound(formulas.flatMap(cellFetches));

  it("counts one unit per distinct datapoint x security x period, even where one request answers several", () => {
    const roic = point("metrics/roic", "ROIC", 2023);
    const nopat = point("metrics/roic", "NOPAT", 2023);
    expect(units([roic, nopat])).toBe(2);
    expect(bound([roic, nopat])).toBe(1);
    expect(units([roic, roic, { ...roic, ticker: "aapl" }])).toBe(1);
    expect(units([roic, point("metrics/roic", "ROIC", 2023, { quarter: 1 })])).toBe(2);
    expect(units([roic, { ...roic, ticker: "MSFT" }, point("metrics/ebv", "ROIC", 2023)])).toBe(3);
  });

  it("counts a whole dataset as its catalog's datapoints, once with the cells that ask some of them", () => {
    const spill: Formula = { fn: "DATASET", ticker: "AAPL", dataset: "metrics/roic", period: { year: 2023 } };
    expect(units([spill])).toBe(19);
    expect(units([spill, point("metrics/roic", "ROIC", 2023), point("metrics/roic", "ROIC", 2022)])).toBe(20);
  });

  it("counts each year of a series and one unit per rated security whatever the fields", () => {
    const series: Formula = {
      fn: "SERIES",
      ticker: "AAPL",
      dataset: "fundamentals/reported",
      name: "REVENUE",
      fromYear: 2015,
      toYear: 2024,
    };
    expect(units([series, point("fundamentals/reported", "REVENUE", 2024)])).toBe(10);
    const ratings: Formula[] = [
      { fn: "RATING", ticker: "AAPL", field: "overall" },
      { fn: "RATING", ticker: "aapl", field: "roic" },
      { fn: "RATING", ticker: "XLF", field: "overall" },
    ];
    expect(units(ratings)).toBe(2);
  });

  it.each([
    ["W1", 22_500],
    ["W2", 13_500],
    ["W3", 3000],
    // Per ticker, 139 cells of which 4 annual cells repeat a series year or a spilled datapoint: 135.
    ["W4", 20 * 135],
  ])("gives %s a bound of %i units", (id, expected) => {
    expect(unitsBound(workloadCells(buildWorkload(id as WorkloadId, universe)))).toBe(expected);
  });

  it("gives M1 one unit per cell: 2,700", () => {
    expect(unitsBound(workloadCells(monthModelWorkload(universe)))).toBe(2700);
  });
});
