// RequestKey: the one identity of a request. Its path is the URL tail, the cache key and the serialised form.
import { RequestKey, dataKey, pathWithoutDatapoint, wholeDataKey } from "../../../src/api/request-key";
import { ANNUAL, DATASETS, findDataset, period, type Dataset } from "../../../src/catalog";

const roic = findDataset("metrics/roic")!;
const reported = findDataset("fundamentals/reported")!;

describe("RequestKey: URL", () => {
  it("builds a whole-dataset request with the period after the year", () => {
    expect(RequestKey.data(roic, "AAPL", 2023, ANNUAL).url("https://fdq.test/v1")).toBe(
      "https://fdq.test/v1/metrics/roic/AAPL?year=2023",
    );
    expect(RequestKey.data(roic, "AAPL", 2023, period("quarter", 2)).path).toBe(
      "metrics/roic/AAPL?year=2023&quarter=2",
    );
    expect(RequestKey.data(roic, "AAPL", 2023, period("ttm", 4)).path).toBe(
      "metrics/roic/AAPL?year=2023&ttm=4",
    );
  });

  it("puts a single datapoint before the year and percent-encodes tickers and names", () => {
    expect(RequestKey.data(reported, "BRK.B", 2022, ANNUAL, "REVENUE").path).toBe(
      "fundamentals/reported/BRK.B?datapoint=REVENUE&year=2022",
    );
    expect(RequestKey.data(reported, "A/B C", 2022, ANNUAL, "X&Y").path).toBe(
      "fundamentals/reported/A%2FB%20C?datapoint=X%26Y&year=2022",
    );
  });

  it("names every other endpoint as the spec's table does", () => {
    expect(RequestKey.sector("TECHNOLOGYSEC", "ROIC_AVG").path).toBe(
      "sector/TECHNOLOGYSEC?datapoint=ROIC_AVG",
    );
    expect(RequestKey.sector("TECHNOLOGYSEC", "ROIC_AVG", 2).path).toBe(
      "sector/TECHNOLOGYSEC?datapoint=ROIC_AVG&prior_year=2",
    );
    expect(RequestKey.ratings("AAPL").path).toBe("ratings/component/AAPL");
    expect(RequestKey.coverage("etf").path).toBe("coverage/etf");
    expect(RequestKey.security("stock", "AAPL").path).toBe("coverage/stock/AAPL");
    expect(RequestKey.metadata().path).toBe("datapoint");
    expect(RequestKey.metadata("ROIC").path).toBe("datapoint/ROIC");
  });
});

describe("RequestKey: cache and in-flight keys", () => {
  it("gives one cache key to equal requests and different ones to different requests", () => {
    const a = RequestKey.data(roic, "AAPL", 2023, ANNUAL);
    const b = RequestKey.data(roic, "AAPL", 2023, ANNUAL);
    expect(a.cacheKey).toBe(b.cacheKey);
    const others = [
      RequestKey.data(roic, "MSFT", 2023, ANNUAL),
      RequestKey.data(roic, "AAPL", 2022, ANNUAL),
      RequestKey.data(roic, "AAPL", 2023, period("quarter", 4)),
      RequestKey.data(roic, "AAPL", 2023, period("ttm", 4)),
      RequestKey.data(roic, "AAPL", 2023, ANNUAL, "ROIC"),
    ];
    expect(new Set([a, ...others].map((k) => k.cacheKey)).size).toBe(6);
  });

  it("never lets a call of one refresh day join a flight of another", () => {
    const key = RequestKey.ratings("AAPL");
    expect(key.inFlightKey("2026-11-23")).not.toBe(key.inFlightKey("2026-11-24"));
    expect(key.inFlightKey("2026-11-23")).toBe(RequestKey.ratings("AAPL").inFlightKey("2026-11-23"));
  });

  it("leaves the price unset until the quota pricing fills it", () => {
    expect(RequestKey.ratings("AAPL").units).toBeUndefined();
  });
});

describe("wholeDataKey: the whole dataset's key the cells of a worksheet share", () => {
  it("answers one key per dataset, ticker, year and period, equal to the key built alone", () => {
    const target = { dataset: roic, ticker: "AAPL", year: 2023, period: period("quarter", 2) };
    const shared = wholeDataKey(target);
    expect(wholeDataKey({ ...target })).toBe(shared);
    expect(shared.path).toBe(dataKey(target).path);
    expect(shared.fields).toEqual(dataKey(target).fields);
  });

  it("keeps different requests apart: another ticker, year, period or dataset is another key", () => {
    const target = { dataset: roic, ticker: "AAPL", year: 2023, period: ANNUAL };
    const paths = [
      target,
      { ...target, ticker: "MSFT" },
      { ...target, year: 2022 },
      { ...target, period: period("ttm", 4) },
      { ...target, dataset: reported },
    ].map((t) => wholeDataKey(t).path);
    expect(new Set(paths).size).toBe(5);
    expect(paths).toEqual([
      "metrics/roic/AAPL?year=2023",
      "metrics/roic/MSFT?year=2023",
      "metrics/roic/AAPL?year=2022",
      "metrics/roic/AAPL?year=2023&ttm=4",
      "fundamentals/reported/AAPL?year=2023",
    ]);
  });

  it("stays bounded: after 20,000 distinct keys the earlier ones are built again, still equal", () => {
    const first = wholeDataKey({ dataset: roic, ticker: "FIRST", year: 2023, period: ANNUAL });
    for (let i = 0; i < 20_000; i++)
      wholeDataKey({ dataset: roic, ticker: `T${i}`, year: 2023, period: ANNUAL });
    const again = wholeDataKey({ dataset: roic, ticker: "FIRST", year: 2023, period: ANNUAL });
    expect(again).not.toBe(first);
    expect(again.path).toBe(first.path);
  });
});

describe("pathWithoutDatapoint: a data request's path without its datapoint, read from the text", () => {
  it("is the whole dataset's path for every period, and leaves a sector's or a whole answer's path alone", () => {
    const targets = [
      { dataset: roic, ticker: "BF.B", year: 2023, period: ANNUAL },
      { dataset: roic, ticker: "A/B", year: 2024, period: period("quarter", 2) },
      { dataset: roic, ticker: "AAPL", year: 2024, period: period("ttm", 3) },
    ];
    for (const t of targets) {
      expect(pathWithoutDatapoint(dataKey(t, "ROIC & NOPAT").path)).toBe(dataKey(t).path);
      expect(pathWithoutDatapoint(dataKey(t).path)).toBe(dataKey(t).path);
    }
    const sector = RequestKey.sector("TECHNOLOGYSEC", "ROIC_AVG", 2).path;
    expect(pathWithoutDatapoint(sector)).toBe(sector);
  });
});

describe("RequestKey: invalidation by ticker", () => {
  it("matches the answers about a ticker or a sector id, and not lists or metadata", () => {
    expect(RequestKey.data(roic, "AAPL", 2023, ANNUAL).matches("AAPL")).toBe(true);
    expect(RequestKey.data(roic, "AAPL", 2023, ANNUAL).matches("AAP")).toBe(false);
    expect(RequestKey.ratings("AAPL").matches("AAPL")).toBe(true);
    expect(RequestKey.security("stock", "AAPL").matches("AAPL")).toBe(true);
    expect(RequestKey.sector("TECHNOLOGYSEC", "ROIC_AVG").matches("TECHNOLOGYSEC")).toBe(true);
    expect(RequestKey.coverage("stock").matches("STOCK")).toBe(false);
    expect(RequestKey.metadata("AAPL").matches("AAPL")).toBe(false);
  });
});

describe("RequestKey: serialised form", () => {
  const every: RequestKey[] = [
    ...DATASETS.flatMap((d: Dataset) => [
      RequestKey.data(d, "AAPL", 2023, ANNUAL),
      RequestKey.data(d, "BRK.B", 2019, period("quarter", 3), d.datapoints[0]?.name ?? "X"),
      RequestKey.data(d, "X:1", 2008, period("ttm", 1)),
    ]),
    RequestKey.sector("TECHNOLOGYSEC", "ROIC_AVG"),
    RequestKey.sector("SOFTWAREIND", "ROIC_MEDIAN", 5),
    RequestKey.ratings("A/B"),
    RequestKey.coverage("mf"),
    RequestKey.security("inactive", "ENRN:1"),
    RequestKey.metadata(),
    RequestKey.metadata("BOOK_VALUE_ECONOMIC"),
  ];

  it("round-trips every kind of request through serialize and parse", () => {
    for (const key of every) {
      const back = RequestKey.parse(key.serialize());
      expect(back?.serialize()).toBe(key.serialize());
      expect(back?.fields).toEqual(key.fields);
    }
  });

  it("reads a URL tail in another parameter order and case as the same request", () => {
    expect(RequestKey.parse("/metrics/roic/aapl?quarter=2&year=2023")?.serialize()).toBe(
      "metrics/roic/AAPL?year=2023&quarter=2",
    );
    expect(RequestKey.parse("sector/technologysec?prior_year=1&datapoint=roic_avg")?.serialize()).toBe(
      "sector/TECHNOLOGYSEC?datapoint=ROIC_AVG&prior_year=1",
    );
    expect(RequestKey.parse("coverage/STOCK/aapl")?.serialize()).toBe("coverage/stock/AAPL");
  });

  it("reads nothing that names no request of the spec", () => {
    for (const text of [
      "",
      "metrics/unknown/AAPL?year=2023",
      "metrics/roic/AAPL",
      "metrics/roic/AAPL?year=20x3",
      "metrics/roic/AAPL?year=2023&quarter=5",
      "metrics/roic/AAPL?year=2023&quarter=1&ttm=1",
      "metrics/roic/AAPL?year=2023&extra=1",
      "metrics/roic/..?year=2023",
      "coverage/bond",
      "coverage/stock/AAPL/more",
      "ratings/overall/AAPL",
      "sector/TECHNOLOGYSEC",
      "sector/TECHNOLOGYSEC?datapoint=ROIC_AVG&prior_year=6",
      "datapoint/ROIC/extra",
      "metrics/roic/%E0%A4%A?year=2023",
    ]) {
      expect([text, RequestKey.parse(text)]).toEqual([text, undefined]);
    }
  });
});
