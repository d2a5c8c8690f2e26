// /v1/sector/:ticker: the three prior-year groups, the named errors, and aggregates that agree with
// the member companies seen through the other endpoints.
import { SECTOR_DATAPOINTS, SPEC_ERRORS } from "../../../src/catalog";
import { pool, start, type Client, type DataRecord } from "./helpers";

interface SectorRecord {
  ticker: string;
  name: string;
  prior_year: number;
  datapoint: string;
  datavalue: string;
}

let client: Client;
beforeAll(async () => {
  client = await start();
});
afterAll(() => client.sandbox.close());

const sector = (id: string, query: string): Promise<SectorRecord> =>
  client.results<SectorRecord>(`/sector/${id}?${query}`);
const value = async (id: string, query: string): Promise<number> =>
  Number((await sector(id, query)).datavalue);

const NOT_IN_YEAR: [number, string] = [404, SPEC_ERRORS.SectorDataPointNotFound.message];
const BAD_PRIOR: [number, string] = [400, SPEC_ERRORS.InvalidPriorYear.message];

describe("GET /v1/sector/:ticker", () => {
  it("answers one record object; prior_year omitted means 0 (the last fiscal year)", async () => {
    const omitted = await sector("TECHNOLOGYSEC", "datapoint=REVENUE");
    expect(Object.keys(omitted)).toEqual(["ticker", "name", "prior_year", "datapoint", "datavalue"]);
    expect(omitted).toMatchObject({
      ticker: "TECHNOLOGYSEC",
      name: "Technology",
      prior_year: 0,
      datapoint: "REVENUE",
    });
    expect(omitted.datavalue).toMatch(/^\d+\.\d{17}$/);
    expect(await sector("TECHNOLOGYSEC", "datapoint=REVENUE&prior_year=0")).toEqual(omitted);
  });

  it("group none answers only without prior_year; current without it or with 0; all 0..5", async () => {
    // The boundaries of each group: omitted, 0 and 5 (every value 0..5 of group "all" is checked below).
    const expected = { none: [200, 404, 404], current: [200, 200, 404], all: [200, 200, 200] };
    await pool(SECTOR_DATAPOINTS, 4, async (dp) => {
      const statuses: number[] = [];
      for (const query of ["", "&prior_year=0", "&prior_year=5"]) {
        const reply = await client.get(`/sector/BEVERAGESI?datapoint=${dp.name}${query}`);
        statuses.push(reply.status);
        if (reply.status === 404) expect((reply.json as { message: string }).message).toBe(NOT_IN_YEAR[1]);
      }
      expect([dp.name, statuses]).toEqual([dp.name, expected[dp.group]]);
    });
  });

  it("prior_year=n answers the last fiscal year minus n for group all, and only 0 for group current", async () => {
    const revenue = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) => value("WATERUTILITIESI", `datapoint=REVENUE&prior_year=${n}`)),
    );
    expect(new Set(revenue).size).toBe(6);
    for (const n of [1, 2, 3, 4])
      expect(await client.error(`/sector/WATERUTILITIESI?datapoint=COUNT_COMPANY&prior_year=${n}`)).toEqual(
        NOT_IN_YEAR,
      );
  });

  it("a year before any member's coverage is DataNotFound", async () => {
    const early = await start({ now: () => new Date("2010-06-01T12:00:00Z") });
    try {
      expect(await early.error("/sector/TECHNOLOGYSEC?datapoint=REVENUE&prior_year=5")).toEqual([
        400,
        SPEC_ERRORS.DataNotFound.message,
      ]);
      expect((await early.get("/sector/TECHNOLOGYSEC?datapoint=REVENUE&prior_year=1")).status).toBe(200);
    } finally {
      await early.sandbox.close();
    }
  });

  it("CATEGORY_TYPE and MODEL_DATE are text", async () => {
    expect((await sector("TECHNOLOGYSEC", "datapoint=CATEGORY_TYPE")).datavalue).toBe("sector");
    expect((await sector("BEVERAGESI", "datapoint=CATEGORY_TYPE")).datavalue).toBe("industry");
    expect((await sector("BEVERAGESI", "datapoint=MODEL_DATE")).datavalue).toBe("2025-08-15");
  });

  it("prior_year outside 0..5 or not an integer is InvalidPriorYear (400)", async () => {
    for (const prior of ["6", "-1", "1.5", "abc", "", "%201"])
      expect(await client.error(`/sector/TECHNOLOGYSEC?datapoint=REVENUE&prior_year=${prior}`)).toEqual(
        BAD_PRIOR,
      );
  });

  it("unknown ids are DataNotFound, unknown datapoints DataPointNotFound, a missing datapoint 400", async () => {
    const notFound: [number, string] = [400, SPEC_ERRORS.DataNotFound.message];
    expect(await client.error("/sector/NOSUCHSEC?datapoint=REVENUE")).toEqual(notFound);
    expect(await client.error("/sector/AAPL?datapoint=REVENUE")).toEqual(notFound);
    expect(await client.error("/sector/TECHNOLOGYSEC?datapoint=ROIC")).toEqual([
      404,
      SPEC_ERRORS.DataPointNotFound.message,
    ]);
    expect(await client.error("/sector/TECHNOLOGYSEC")).toEqual([
      400,
      "Missing required query parameter: datapoint.",
    ]);
    // InvalidPriorYear is checked first, then the id, then the datapoint.
    expect(await client.error("/sector/NOSUCHSEC?datapoint=NOPE&prior_year=9")).toEqual(BAD_PRIOR);
    expect(await client.error("/sector/NOSUCHSEC?datapoint=NOPE")).toEqual(notFound);
  });
});

describe("sector aggregates agree with the members", () => {
  it("COUNT_COMPANY of each sector equals the coverage count of that sector's stocks", async () => {
    const stocks = await client.results<Array<{ sector: string }>>("/coverage/stock");
    const etfs = await client.results<Array<{ sector: string }>>("/coverage/etf");
    const sectors = await client.results<Array<{ ticker: string }>>("/coverage/sector");
    for (const { ticker } of sectors) {
      const companies = await value(ticker, "datapoint=COUNT_COMPANY");
      expect([ticker, companies]).toEqual([ticker, stocks.filter((s) => s.sector === ticker).length]);
      expect(await value(ticker, "datapoint=COUNT_ETF")).toBe(etfs.filter((s) => s.sector === ticker).length);
      const byRating = await Promise.all(
        [1, 2, 3, 4, 5].map((n) => value(ticker, `datapoint=COUNT_RATING_${n}`)),
      );
      expect(byRating.reduce((a, b) => a + b, 0)).toBe(companies);
      const mfByRating = await Promise.all(
        [1, 2, 3, 4, 5].map((n) => value(ticker, `datapoint=COUNT_MF_RATING_${n}`)),
      );
      expect(mfByRating.reduce((a, b) => a + b, 0)).toBe(await value(ticker, "datapoint=COUNT_MF"));
    }
  });

  it("an industry's counts and revenue match its member stocks' records and ratings", async () => {
    const sectorStocks = (
      await client.results<Array<{ ticker: string; sector: string }>>("/coverage/stock")
    ).filter((s) => s.sector === "CONSUMERSTAPLESSEC");
    const members: string[] = [];
    await pool(sectorStocks, 16, async (s) => {
      const [record] = await client.results<Array<{ industry: string }>>(
        `/coverage/stock/${encodeURIComponent(s.ticker)}`,
      );
      if (record!.industry === "BEVERAGESI") members.push(s.ticker);
    });
    expect(await value("BEVERAGESI", "datapoint=COUNT_COMPANY")).toBe(members.length);
    const ratings = new Map<number, number>();
    let revenue = 0;
    await pool(members, 16, async (ticker) => {
      const r = await client.results<{ rating_overall: number }>(
        `/ratings/component/${encodeURIComponent(ticker)}`,
      );
      ratings.set(r.rating_overall, (ratings.get(r.rating_overall) ?? 0) + 1);
      const reply = await client.get(`/metrics/roic/${encodeURIComponent(ticker)}?year=2023&datapoint=NOPAT`);
      if (reply.status !== 200) return; // coverage starts later
      const rec = await client.results<DataRecord>(
        `/fundamentals/adjusted/${encodeURIComponent(ticker)}?year=2023&datapoint=ASSETS`,
      );
      expect(rec.ticker).toBe(ticker);
      const [rev] = await client.results<DataRecord[]>(
        `/screens/traditional/${encodeURIComponent(ticker)}?year=2023&datapoint=REVENUE`,
      );
      revenue += Number(rev!.datavalue);
    });
    for (const n of [1, 2, 3, 4, 5])
      expect(await value("BEVERAGESI", `datapoint=COUNT_RATING_${n}`)).toBe(ratings.get(n) ?? 0);
    const total = await value("BEVERAGESI", "datapoint=REVENUE&prior_year=1");
    expect(Math.abs(total - revenue)).toBeLessThanOrEqual(1e-6 * total);
  });

  it("RATING_RANK orders the groups of a type 1..n without gaps", async () => {
    const sectors = await client.results<Array<{ ticker: string }>>("/coverage/sector");
    const ranks = await Promise.all(sectors.map((s) => value(s.ticker, "datapoint=RATING_RANK")));
    expect(ranks.sort((a, b) => a - b)).toEqual(sectors.map((_, i) => i + 1));
  });
});
