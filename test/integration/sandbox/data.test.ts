// The 16 data endpoints: record shape, modes, periods, and every error and "not shown" choice.
import { DATASETS, SPEC_ERRORS, findDataset } from "../../../src/catalog";
import { start, type Client, type DataRecord } from "./helpers";

const DATA_NOT_FOUND: [number, string] = [400, SPEC_ERRORS.DataNotFound.message];
const DP_NOT_FOUND: [number, string] = [404, SPEC_ERRORS.DataPointNotFound.message];

let client: Client;
beforeAll(async () => {
  client = await start();
});
afterAll(() => client.sandbox.close());

describe("GET /v1/<group>/<dataset>/:ticker", () => {
  it.each(DATASETS.map((d) => [d.path]))(
    "%s answers every catalog datapoint in single-datapoint mode",
    async (path) => {
      const dataset = findDataset(path)!;
      for (const dp of dataset.datapoints) {
        const results = await client.results<DataRecord | DataRecord[]>(
          `/${path}/AAPL?year=2023&datapoint=${dp.name}`,
        );
        // Fundamentals answer the record itself, the other groups an array of one.
        const record =
          dataset.group === "fundamentals" ? (results as DataRecord) : (results as DataRecord[])[0]!;
        if (dataset.group !== "fundamentals") expect(results).toHaveLength(1);
        expect(record.datapoint).toBe(dp.name);
        expect(record.datavalue).toMatch(/^-?\d+\.\d{17}$/);
        expect("filingtype" in record).toBe(dataset.hasFilingType);
      }
    },
  );

  it("all-datapoints mode returns one record per catalog datapoint, in catalog order", async () => {
    for (const dataset of DATASETS.filter((d) => d.allDatapointsMode)) {
      const records = await client.results<DataRecord[]>(`/${dataset.path}/MSFT?year=2022`);
      expect(records.map((r) => r.datapoint)).toEqual(dataset.datapoints.map((p) => p.name));
    }
  });

  it("annual, quarter=n and ttm=n set period, periodtype and periodstring per the spec's rules", async () => {
    const one = async (query: string): Promise<DataRecord> =>
      (await client.results<DataRecord[]>(`/metrics/roic/AAPL?datapoint=NOPAT&${query}`))[0]!;
    expect(await one("year=2024")).toMatchObject({
      year: 2024,
      period: 5,
      periodtype: "ANNUAL",
      periodstring: "ANNUAL",
    });
    expect(await one("year=2025&quarter=2")).toMatchObject({
      year: 2025,
      period: 2,
      periodtype: "QUARTERLY",
      periodstring: "QUARTERLY",
    });
    expect(await one("year=2025&ttm=1")).toMatchObject({
      year: 2025,
      period: 1,
      periodtype: "TTM",
      periodstring: "TTM",
    });
  });

  it("records carry exactly the documented fields, filingtype only where the catalog says so", async () => {
    const [withFiling] = await client.results<DataRecord[]>("/metrics/roic/AAPL?year=2024&datapoint=ROIC");
    expect(Object.keys(withFiling!)).toEqual([
      "ticker",
      "year",
      "period",
      "periodtype",
      "periodstring",
      "datapoint",
      "datavalue",
      "filingtype",
    ]);
    expect(withFiling!.filingtype).toBe("10-K");
    const quarterly = await client.results<DataRecord>(
      "/fundamentals/adjusted/AAPL?year=2025&quarter=1&datapoint=ASSETS",
    );
    expect(quarterly.filingtype).toBe("10-Q");
    const reported = await client.results<DataRecord>(
      "/fundamentals/reported/AAPL?year=2024&datapoint=INCOME_NET",
    );
    expect(Object.keys(reported)).not.toContain("filingtype");
  });

  it("the same request gives the same answer, and another seed gives other numbers", async () => {
    const path = "/screens/enhanced/NFLX?year=2021&quarter=3";
    expect(await client.results(path)).toEqual(await client.results(path));
    const other = await start({ seed: 2 });
    try {
      expect(await other.results(path)).not.toEqual(await client.results(path));
    } finally {
      await other.sandbox.close();
    }
  });

  it("a second share class answers with the primary ticker's data and ticker (spec fact 5)", async () => {
    const primary = await client.results<DataRecord[]>("/metrics/ebv/BF.A?year=2023");
    expect(await client.results("/metrics/ebv/BF.B?year=2023")).toEqual(primary);
    expect(primary[0]!.ticker).toBe("BF.A");
  });

  it("tickers are case-insensitive and results carry the upper-case ticker", async () => {
    const [r] = await client.results<DataRecord[]>("/metrics/roic/aapl?year=2024&datapoint=ROIC");
    expect(r!.ticker).toBe("AAPL");
  });

  it("inactive stocks answer up to their last fiscal year, with the colon ticker percent-encoded or not", async () => {
    const [plain] = await client.results<DataRecord[]>("/metrics/roic/ENRN:1?year=2011&datapoint=NOPAT");
    const [encoded] = await client.results<DataRecord[]>("/metrics/roic/ENRN%3A1?year=2011&datapoint=NOPAT");
    expect(plain).toEqual(encoded);
    expect(plain!.ticker).toBe("ENRN:1");
    expect(await client.error("/metrics/roic/ENRN:1?year=2012&datapoint=NOPAT")).toEqual(DATA_NOT_FOUND);
  });
});

describe("data endpoint errors", () => {
  it("an unknown datapoint is DataPointNotFound (404), names are case-sensitive, empty is unknown", async () => {
    expect(await client.error("/metrics/roic/AAPL?year=2024&datapoint=NOPE")).toEqual(DP_NOT_FOUND);
    expect(await client.error("/metrics/roic/AAPL?year=2024&datapoint=roic")).toEqual(DP_NOT_FOUND);
    expect(await client.error("/metrics/roic/AAPL?year=2024&datapoint=")).toEqual(DP_NOT_FOUND);
    // A datapoint of another dataset is not a datapoint of this one.
    expect(await client.error("/metrics/roic/AAPL?year=2024&datapoint=EBITDA")).toEqual(DP_NOT_FOUND);
  });

  it("an unknown ticker, a fund, a sector or a period without data is DataNotFound (400)", async () => {
    for (const path of [
      "/metrics/roic/NOSUCH?year=2024",
      "/metrics/roic/QQQ?year=2024",
      "/metrics/roic/GAFFX?year=2024",
      "/metrics/roic/TECHNOLOGYSEC?year=2024",
      "/metrics/roic/AAPL?year=2007",
      "/metrics/roic/AAPL?year=2025", // the current fiscal year has no annual data yet
      "/metrics/roic/AAPL?year=2025&quarter=3", // not ended on the test clock
      "/metrics/roic/AAPL?year=2008&ttm=3", // needs 2007 quarters
      "/metrics/roic/NFLX?year=2009", // coverage starts in 2010
    ])
      expect([path, await client.error(path)]).toEqual([path, DATA_NOT_FOUND]);
  });

  it("year is required and must be an integer; quarter and ttm must be integers 1..4 and not both", async () => {
    const cases: Array<[string, string]> = [
      ["/metrics/roic/AAPL", "Missing required query parameter: year."],
      ["/metrics/roic/AAPL?year=", "Missing required query parameter: year."],
      ["/metrics/roic/AAPL?year=20x4", "Invalid year: must be an integer."],
      ["/metrics/roic/AAPL?year=2024.0", "Invalid year: must be an integer."],
      ["/metrics/roic/AAPL?year=2024&quarter=5", "Invalid quarter: must be an integer from 1 to 4."],
      ["/metrics/roic/AAPL?year=2024&quarter=0", "Invalid quarter: must be an integer from 1 to 4."],
      ["/metrics/roic/AAPL?year=2024&quarter=1.5", "Invalid quarter: must be an integer from 1 to 4."],
      ["/metrics/roic/AAPL?year=2024&ttm=", "Invalid ttm: must be an integer from 1 to 4."],
      ["/metrics/roic/AAPL?year=2024&ttm=-1", "Invalid ttm: must be an integer from 1 to 4."],
      ["/metrics/roic/AAPL?year=2024&quarter=1&ttm=1", "Invalid request: send quarter or ttm, not both."],
    ];
    for (const [path, message] of cases)
      expect([path, await client.error(path)]).toEqual([path, [400, message]]);
  });

  it("fundamentals without datapoint is a 400 (the spec does not show all-datapoints mode there)", async () => {
    for (const slug of ["adjusted", "reported"])
      expect(await client.error(`/fundamentals/${slug}/AAPL?year=2024`)).toEqual([
        400,
        "Missing required query parameter: datapoint.",
      ]);
  });

  it("parameter errors come before datapoint errors, which come before ticker and period errors", async () => {
    expect(await client.error("/metrics/roic/NOSUCH?datapoint=NOPE")).toEqual([
      400,
      "Missing required query parameter: year.",
    ]);
    expect(await client.error("/metrics/roic/NOSUCH?year=2024&datapoint=NOPE")).toEqual(DP_NOT_FOUND);
  });

  it("an encoded slash stays inside the ticker segment and cannot reach another route", async () => {
    expect(await client.error("/metrics/roic/..%2Fdatapoint?year=2024")).toEqual(DATA_NOT_FOUND);
    expect(await client.error("/metrics/roic/..%2F..%2Fdatapoint%2FROIC?year=2024")).toEqual(DATA_NOT_FOUND);
  });
});
