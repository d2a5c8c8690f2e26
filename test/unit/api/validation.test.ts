import { excelCodeOf } from "../../../src/functions/errors";
// Arguments are checked before any request, with the spec's error name and message where it has one.
import {
  DataPointNotFoundError,
  FdqError,
  InvalidArgumentError,
  InvalidPriorYearError,
  InvalidSecurityTypeError,
  SectorDataPointNotFoundError,
} from "../../../src/api";
import { DATASETS, SPEC_ERRORS } from "../../../src/catalog";
import { FakeFetch, envelope, makeClient } from "./fake-fetch";

const roic = { ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2023 };

async function rejection(promise: Promise<unknown>): Promise<FdqError> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(outcome instanceof FdqError)) throw new Error(`expected an FdqError, got ${String(outcome)}`);
  return outcome;
}

describe("argument checks (no request is sent)", () => {
  let fake: FakeFetch;
  beforeEach(() => {
    fake = new FakeFetch();
  });

  it.each([
    [{ quarter: 5 }, "quarter", "quarter must be 1, 2, 3 or 4 (got 5)."],
    [{ quarter: 0 }, "quarter", "quarter must be 1, 2, 3 or 4 (got 0)."],
    [{ ttm: 1.5 }, "ttm", "ttm must be 1, 2, 3 or 4 (got 1.5)."],
    [{ ttm: "2" }, "ttm", 'ttm must be 1, 2, 3 or 4 (got "2").'],
    [{ quarter: 1, ttm: 1 }, "quarter", "quarter and ttm cannot both be given: choose one period."],
    [{ year: 2023.5 }, "year", "year must be a whole fiscal year such as 2023 (got 2023.5)."],
    // Text is read as a relative period; a number typed as text is the functions' to convert.
    [
      { year: "2023" },
      "year",
      'year must be a fiscal year such as 2023 or a relative period: FY0 (latest fiscal year), FY-1..FY-30, FQ0 (latest quarter), FQ-1..FQ-120, LTM (last twelve months), LTM-1..LTM-120 (got "2023").',
    ],
    [
      { year: "FY+1" },
      "year",
      'year must be a fiscal year such as 2023 or a relative period: FY0 (latest fiscal year), FY-1..FY-30, FQ0 (latest quarter), FQ-1..FQ-120, LTM (last twelve months), LTM-1..LTM-120 (got "FY+1").',
    ],
    [
      { year: "FQ0", quarter: 2 },
      "quarter",
      "quarter must be omitted with FQ0: FQ periods are quarters of their own (use FY0 with a quarter for a quarter of the latest fiscal year).",
    ],
    [{ ticker: "  " }, "ticker", 'ticker must be non-empty text (got "  ").'],
    [{ ticker: ".." }, "ticker", 'ticker ".." is not a valid identifier.'],
    [{ name: "" }, "name", 'name must be non-empty text (got "").'],
    [{ dataset: null }, "dataset", "dataset must be non-empty text (got nothing)."],
    [{ dataset: true }, "dataset", "dataset must be non-empty text (got TRUE)."],
    [
      { year: true },
      "year",
      `year must be a fiscal year such as 2023 or a relative period: ${"FY0 (latest fiscal year), FY-1..FY-30, FQ0 (latest quarter), FQ-1..FQ-120, LTM (last twelve months), LTM-1..LTM-120"} (got TRUE).`,
    ],
    [{ year: 3001 }, "year", "year must be a fiscal year from 1900 to 2100 (got 3001)."],
  ])("rejects %j as InvalidArgumentError (#VALUE!) naming %s", async (change, argument, message) => {
    const client = makeClient(fake);
    const error = await rejection(client.datapoint({ ...roic, ...(change as object) }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(argument);
    expect(error.message).toBe(message);
    expect(excelCodeOf(error)).toBe("#VALUE!");
    expect(fake.count).toBe(0);
  });

  it("refuses identifiers over their length limit before any request (40 for tickers and ids, 120 for names)", async () => {
    const client = makeClient(fake);
    const long = await rejection(client.datapoint({ ...roic, ticker: "A".repeat(20_000) }));
    expect([(long as InvalidArgumentError).argument, long.message]).toEqual([
      "ticker",
      "ticker is 20000 characters long; at most 40 are allowed.",
    ]);
    const name = await rejection(client.datapoint({ ...roic, name: "N".repeat(121) }));
    expect(name.message).toBe("name is 121 characters long; at most 120 are allowed.");
    const sector = await rejection(client.sector({ id: "S".repeat(41), name: "ROIC_AVG" }));
    expect(sector.message).toBe("id is 41 characters long; at most 40 are allowed.");
    expect(fake.count).toBe(0);
  });

  it("rejects an unknown dataset and lists the known ones", async () => {
    const error = await rejection(makeClient(fake).datapoint({ ...roic, dataset: "roe" }));
    expect(error.message).toBe(
      `dataset "roe" is not known. Use one of: ${DATASETS.map((d) => d.path).join(", ")}.`,
    );
    expect(fake.count).toBe(0);
  });

  it("accepts a dataset by full path or unique last part in any case, and upper-cases trimmed names and tickers", async () => {
    const client = makeClient(fake);
    const a = await client.datapoint({ ticker: " aapl ", dataset: "ROIC", name: " roic ", year: 2023 });
    const b = await client.datapoint({
      ticker: "AAPL",
      dataset: "/v1/Metrics/Roic/",
      name: "ROIC",
      year: 2023,
    });
    expect(a.record.datapoint).toBe("ROIC");
    expect(a.value).toBe(b.value);
    expect(fake.seen.map((s) => s.url.pathname)).toEqual(["/v1/metrics/roic/AAPL"]);
  });

  it("refuses a name unknown to a complete catalog as an argument (#VALUE!) with the nearest names, without a request", async () => {
    const error = await rejection(makeClient(fake).datapoint({ ...roic, name: "ROIC_GAPA" }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe("name");
    expect(error.message).toBe(
      'datapoint "ROIC_GAPA" is not in dataset metrics/roic. Did you mean ROIC_GAAP?',
    );
    expect(excelCodeOf(error)).toBe("#VALUE!");
    expect(fake.count).toBe(0);
  });

  it("asks the service about a name unknown to a cut-off catalog (fundamentals: single-datapoint request)", async () => {
    const client = makeClient(fake);
    const error = await rejection(
      client.datapoint({
        ticker: "AAPL",
        dataset: "fundamentals/adjusted",
        name: "NOT_IN_CATALOG",
        year: 2023,
      }),
    );
    expect(error).toBeInstanceOf(DataPointNotFoundError);
    expect(error.status).toBe(404);
    expect(fake.seen.map((s) => s.url.searchParams.get("datapoint"))).toEqual(["NOT_IN_CATALOG"]);
  });

  it("asks the service about a name unknown to a cut-off catalog with all-datapoints mode, and finds it there", async () => {
    const answer = [
      {
        ticker: "AAPL",
        year: 2023,
        period: 5,
        periodtype: "ANNUAL",
        datapoint: "REVENUE_TOTAL",
        datavalue: "12.5",
      },
    ];
    fake = new FakeFetch(() => envelope(answer));
    const result = await makeClient(fake).datapoint({
      ticker: "AAPL",
      dataset: "core-earnings-to-net-income",
      name: "revenue_total",
      year: 2023,
    });
    expect(result.value).toBe(12.5);
    expect(fake.count).toBe(1);
  });

  it("rejects a security type outside the allowed set with InvalidSecurityType (spec message, #VALUE!)", async () => {
    const client = makeClient(fake);
    for (const call of [client.coverageList("bond"), client.security("fund", "AAPL")]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(InvalidSecurityTypeError);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(SPEC_ERRORS.InvalidSecurityType.message);
      expect(excelCodeOf(error)).toBe("#VALUE!");
    }
    expect(fake.count).toBe(0);
  });

  it.each([6, -1, 1.5, "2"])(
    "rejects prior_year %j with InvalidPriorYear (spec message)",
    async (priorYear) => {
      const error = await rejection(
        makeClient(fake).sector({ id: "TECHNOLOGYSEC", name: "ROIC_AVG", priorYear: priorYear as number }),
      );
      expect(error).toBeInstanceOf(InvalidPriorYearError);
      expect(error.message).toBe(SPEC_ERRORS.InvalidPriorYear.message);
      expect(fake.count).toBe(0);
    },
  );

  it.each([
    ["RATING_RANK", 0],
    ["COUNT_COMPANY", 1],
    ["MODEL_DATE", 5],
  ])(
    "rejects %s with prior_year %i outside its availability group (SectorDataPointNotFound)",
    async (name, py) => {
      const error = await rejection(makeClient(fake).sector({ id: "TECHNOLOGYSEC", name, priorYear: py }));
      expect(error).toBeInstanceOf(SectorDataPointNotFoundError);
      expect(error.message).toBe(SPEC_ERRORS.SectorDataPointNotFound.message);
      expect(fake.count).toBe(0);
    },
  );

  it("refuses an unknown sector datapoint as an argument (#VALUE!) with the nearest names, before any request", async () => {
    const error = await rejection(
      makeClient(fake).sector({ id: "TECHNOLOGYSEC", name: "NOT_A_SECTOR_POINT" }),
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe('datapoint "NOT_A_SECTOR_POINT" is not a sector or industry datapoint.');
    const typo = await rejection(makeClient(fake).sector({ id: "TECHNOLOGYSEC", name: "roic_avgg" }));
    expect([(typo as InvalidArgumentError).argument, typo.message, excelCodeOf(typo)]).toEqual([
      "datapoint",
      'datapoint "roic_avgg" is not a sector or industry datapoint. Did you mean ROIC_AVG or ROIC_WAVG?',
      "#VALUE!",
    ]);
    expect(fake.count).toBe(0);
  });

  it("refuses a whole-dataset call for fundamentals (all-datapoints mode not documented)", async () => {
    const error = await rejection(
      makeClient(fake).dataset({ ticker: "AAPL", dataset: "adjusted", year: 2023 }),
    );
    expect(error.message).toBe(
      "dataset fundamentals/adjusted has no all-datapoints mode in the spec: ask for one datapoint at a time.",
    );
    expect(fake.count).toBe(0);
  });
});
