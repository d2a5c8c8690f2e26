// /v1/datapoint and /v1/ratings/component.
import { RATING_FIELDS, SPEC_ERRORS, datapointMetadata } from "../../../src/catalog";
import { pool, start, type Client } from "./helpers";

let client: Client;
beforeAll(async () => {
  client = await start();
});
afterAll(() => client.sandbox.close());

interface Meta {
  name: string;
  description: string;
  endpoints: string;
}

describe("GET /v1/datapoint", () => {
  it("lists one metadata record per datapoint name of every catalog", async () => {
    const list = await client.results<Meta[]>("/datapoint");
    expect(list.map((m) => m.name)).toEqual([...datapointMetadata().keys()]);
    for (const m of list) expect(Object.keys(m)).toEqual(["name", "description", "endpoints"]);
  });
});

describe("GET /v1/datapoint/:name", () => {
  it("answers the record object of every datapoint name", async () => {
    await pool([...datapointMetadata().values()], 16, async (meta) => {
      expect(await client.results<Meta>(`/datapoint/${meta.name}`)).toEqual(meta);
    });
  });

  it("an unknown (or lower-case) name is DataPointNotFound (404)", async () => {
    for (const name of ["NOPE", "roic", "ROIC%20"])
      expect(await client.error(`/datapoint/${name}`)).toEqual([404, SPEC_ERRORS.DataPointNotFound.message]);
  });
});

describe("GET /v1/ratings/component/:ticker", () => {
  const fieldsFor = (type: "stock" | "etf" | "mf"): string[] => [
    "ticker",
    "name",
    ...RATING_FIELDS.filter((f) => f.field !== "name" && f.appliesTo.includes(type)).map((f) => f.field),
  ];

  it.each([
    ["stock", "AAPL"],
    ["etf", "QQQ"],
    ["mf", "AUENX"],
  ] as const)("a %s carries exactly the fields that apply to it, each rating 1..5", async (type, ticker) => {
    const record = await client.results<Record<string, string | number>>(`/ratings/component/${ticker}`);
    expect(Object.keys(record)).toEqual(fieldsFor(type));
    expect(record.ticker).toBe(ticker);
    for (const field of fieldsFor(type).slice(2)) expect([1, 2, 3, 4, 5]).toContain(record[field]);
  });

  it("stocks carry six ratings, ETFs seven, mutual funds eight", () => {
    expect([fieldsFor("stock").length, fieldsFor("etf").length, fieldsFor("mf").length]).toEqual([8, 9, 10]);
  });

  it("a second share class answers the primary company's ratings", async () => {
    expect(await client.results("/ratings/component/BF.B")).toEqual(
      await client.results("/ratings/component/BF.A"),
    );
  });

  it("inactive stocks, sectors, industries and unknown tickers are RatingNotFound (404)", async () => {
    for (const ticker of ["ENRN:1", "X:2", "TECHNOLOGYSEC", "BEVERAGESI", "NOSUCH"])
      expect(await client.error(`/ratings/component/${ticker}`)).toEqual([
        404,
        SPEC_ERRORS.RatingNotFound.message,
      ]);
  });
});
