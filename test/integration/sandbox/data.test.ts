// The 16 data endpoints: record shape, modes, periods, names past the spec's cut-offs, and every error and
// "not shown" choice.
import { DATASETS, SPEC_ERRORS, findDatapoint, findDataset } from "../../../src/catalog";
import { close, start, valuesOf, type Client, type DataRecord } from "./helpers";

const DATA_NOT_FOUND: [number, string] = [400, SPEC_ERRORS.DataNotFound.message];
const DP_NOT_FOUND: [number, string] = [404, SPEC_ERRORS.DataPointNotFound.message];

/**
 * Names the sandbox serves past the spec's cut (all-datapoints order). Core earnings to net income stops
 * "from total revenue onward": the tail of its twin net-income-to-core-earnings. The sum-count walk stops
 * after the reported legal pair: the NOPAT adjustments of the detailed walk that follow EXPENSES_NON_OPERATING.
 */
const PAST_THE_CUT: Readonly<Record<string, readonly string[]>> = {
  "reconciliation/core-earnings-to-net-income": [
    "REVENUE",
    "CORE_EARNINGS_DISTORTION_TOTAL_PER_REVENUE",
    "CORE_EARNINGS_DISTORTION_TOTAL_PER_INCOME_NET",
    "CASH_TAX_RATE",
  ],
  "reconciliation/net-income-to-nopat-detailed-sum-count": [
    "RESERVES_YOY_DELTA",
    "GOODWILL_AMORTIZATION_ADJUSTED",
    "ESO_EXPENSE",
    "LEASES_OPERATING_OBLIGATION_INTEREST_IMPLIED",
    "CLASSIFICATION_DISCLOSURE_ADJUSTMENT",
    "NON_OPERATING_TAXES",
    "CHARGE_AFTER_TAX",
    "EXPENSES_INTEREST_MINORITY",
    "CHARGE_AFTER_TAX_DISCONTINUED_OPERATIONS",
    "DIVIDENDS_PREFERRED",
    "DIVIDENDS_PREFERRED_REDEEMABLE_MANDATORILY",
    "CHARGES_AFTER_TAX_OTHER",
  ],
};
/** "Entries after INCOME_OPERATING_OTHER": the sandbox continues the reported list alphabetically. */
const REPORTED_PAST_THE_CUT = [
  "INCOME_PRE_TAX",
  "INCOME_TAX",
  "INTEREST_MINORITY",
  "INVENTORY",
  "LIABILITIES_CURRENT",
  "LIABILITIES_NON_CURRENT",
  "OCI",
  "REVENUE",
  "SALES_COST",
  "STOCK_PREFERRED",
];

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

  it("all-datapoints mode returns one record per catalog datapoint, in catalog order, then the names past a cut", async () => {
    for (const dataset of DATASETS.filter((d) => d.allDatapointsMode)) {
      const records = await client.results<DataRecord[]>(`/${dataset.path}/MSFT?year=2022`);
      expect([dataset.path, records.map((r) => r.datapoint)]).toEqual([
        dataset.path,
        [...dataset.datapoints.map((p) => p.name), ...(PAST_THE_CUT[dataset.path] ?? [])],
      ]);
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

describe("names past the spec's cut-offs", () => {
  /** The value of one datapoint in single-datapoint mode (record object for fundamentals, array of one otherwise). */
  async function single(path: string, name: string, query = "year=2022"): Promise<number> {
    const results = await client.results<DataRecord | DataRecord[]>(
      `/${path}/MSFT?datapoint=${name}&${query}`,
    );
    const record = Array.isArray(results) ? results[0]! : results;
    expect([path, Array.isArray(results), record.datapoint]).toEqual([
      path,
      !path.startsWith("fundamentals/"),
      name,
    ]);
    return Number(record.datavalue);
  }

  it("the names past the cut are not in the catalog, which mirrors the spec", () => {
    const lists = { ...PAST_THE_CUT, "fundamentals/reported": REPORTED_PAST_THE_CUT };
    for (const [path, names] of Object.entries(lists))
      expect([path, names.filter((n) => findDatapoint(findDataset(path)!, n))]).toEqual([path, []]);
  });

  it("answer in single-datapoint mode with the value they have in all-datapoints mode", async () => {
    for (const [path, names] of Object.entries(PAST_THE_CUT)) {
      const all = valuesOf(await client.results<DataRecord[]>(`/${path}/MSFT?year=2022`));
      for (const name of names)
        expect([path, name, await single(path, name)]).toEqual([path, name, all.get(name)]);
    }
  });

  it("fundamentals/reported answers names after INCOME_OPERATING_OTHER, with the values other datasets give them", async () => {
    const screens = valuesOf(await client.results<DataRecord[]>("/screens/traditional/MSFT?year=2022"));
    const values = new Map<string, number>();
    for (const name of REPORTED_PAST_THE_CUT) values.set(name, await single("fundamentals/reported", name));
    const shared = REPORTED_PAST_THE_CUT.filter((name) => screens.has(name));
    expect(shared).toHaveLength(7);
    for (const name of shared) expect([name, values.get(name)]).toEqual([name, screens.get(name)]);
    const [pretax, net, tax] = await Promise.all(
      ["INCOME_PRE_TAX", "INCOME_NET", "INCOME_TAX"].map((n) => single("fundamentals/reported", n)),
    );
    expect(close(pretax!, net! + tax!)).toBe(true);
  });

  it("fundamentals/adjusted answers every reported datapoint it does not list, including those past the cut", async () => {
    const adjusted = findDataset("fundamentals/adjusted")!;
    const reported = findDataset("fundamentals/reported")!.datapoints.map((p) => p.name);
    const unlisted = [...reported, ...REPORTED_PAST_THE_CUT].filter((n) => !findDatapoint(adjusted, n));
    expect(unlisted.length).toBeGreaterThan(40);
    for (const name of unlisted)
      expect([name, await single("fundamentals/adjusted", name)]).toEqual([
        name,
        await single("fundamentals/reported", name),
      ]);
  });

  it("keep the period rules: flows add up over quarters, balances read the last quarter", async () => {
    const quarters = (name: string): Promise<number[]> =>
      Promise.all([1, 2, 3, 4].map((q) => single("fundamentals/adjusted", name, `year=2021&quarter=${q}`)));
    const tax = await quarters("INCOME_TAX");
    expect(
      close(
        await single("fundamentals/adjusted", "INCOME_TAX", "year=2021"),
        tax.reduce((a, b) => a + b),
      ),
    ).toBe(true);
    const inventory = await quarters("INVENTORY");
    expect(await single("fundamentals/reported", "INVENTORY", "year=2021")).toBe(inventory[3]);
    expect(await single("fundamentals/reported", "INVENTORY", "year=2021&ttm=2")).toBe(inventory[1]);
  });

  it("stay within their datasets: elsewhere they are DataPointNotFound (404)", async () => {
    for (const path of [
      "/metrics/roic/MSFT?year=2022&datapoint=INVENTORY",
      "/reconciliation/net-income-to-core-earnings/MSFT?year=2022&datapoint=CORE_EARNINGS_DISTORTION_TOTAL_PER_REVENUE",
      "/fundamentals/reported/MSFT?year=2022&datapoint=INVENTORY_X",
      "/fundamentals/reported/MSFT?year=2022&datapoint=EQUITY_EQUIVALENTS",
    ])
      expect([path, await client.error(path)]).toEqual([path, DP_NOT_FOUND]);
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
