// What goes over the wire: headers, URL-encoded path segments, one URL per endpoint group.
import { FakeFetch, API_KEY, BASE_URL, envelope, makeClient } from "./fake-fetch";

describe("requests on the wire", () => {
  it("sends x-api-key, Content-Type and Accept application/json", async () => {
    const fake = new FakeFetch();
    await makeClient(fake).datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 });
    const [request] = fake.seen;
    expect(request?.headers.get("x-api-key")).toBe(API_KEY);
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(request?.headers.get("accept")).toBe("application/json");
  });

  it.each([
    ["../datapoint", "..%2FDATAPOINT"],
    ["A/B", "A%2FB"],
    ["BF.B", "BF.B"],
    ["ENRN:1", "ENRN%3A1"],
    ["a b?c#d", "A%20B%3FC%23D"],
  ])("keeps ticker %s one URL-encoded path segment", async (ticker, segment) => {
    const fake = new FakeFetch();
    await makeClient(fake)
      .datapoint({ ticker, dataset: "fundamentals/adjusted", name: "ACCOUNTS_PAYABLE", year: 2023 })
      .catch(() => undefined);
    const url = fake.seen[0]!.url;
    expect(url.pathname).toBe(`/v1/fundamentals/adjusted/${segment}`);
    expect(url.searchParams.get("datapoint")).toBe("ACCOUNTS_PAYABLE");
  });

  it("builds the URL of every endpoint group under the base URL (which includes /v1)", async () => {
    const fake = new FakeFetch((url) => {
      if (url.pathname.startsWith("/v1/sector/")) {
        return envelope({
          ticker: "TECHNOLOGYSEC",
          name: "Tech",
          prior_year: 2,
          // The datapoint asked: an answer for another is a BadResponse.
          datapoint: url.searchParams.get("datapoint"),
          datavalue: "0.1",
        });
      }
      if (url.pathname.startsWith("/v1/ratings/"))
        return envelope({ ticker: "AAPL", name: "Apple", rating_overall: 2 });
      if (url.pathname === "/v1/datapoint/ROIC")
        return envelope({ name: "ROIC", description: "d", endpoints: "e" });
      if (url.pathname === "/v1/datapoint") return envelope([]);
      if (url.pathname === "/v1/coverage/etf") return envelope([]);
      if (!url.pathname.startsWith("/v1/coverage/")) return "default";
      return envelope([
        { ticker: "XLF", name: "x", type: "etf", sector: "s", last_trade_date: "2024-01-02" },
      ]);
    });
    const client = makeClient(fake);
    await client.sector({ id: "technologysec", name: "roic_avg", priorYear: 2 });
    await client.sector({ id: "TECHNOLOGYSEC", name: "RATING_RANK" });
    await client.ratings("aapl");
    await client.datapointInfo("roic");
    await client.datapointList();
    await client.coverageList("ETF");
    await client.security("etf", "xlf");
    await client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022, ttm: 3 });
    await client.datapoint({
      ticker: "AAPL",
      dataset: "adjusted",
      name: "ACCOUNTS_PAYABLE",
      year: 2022,
      quarter: 1,
    });
    expect(fake.seen.map((s) => s.url.href)).toEqual([
      `${BASE_URL}/sector/TECHNOLOGYSEC?datapoint=ROIC_AVG&prior_year=2`,
      `${BASE_URL}/sector/TECHNOLOGYSEC?datapoint=RATING_RANK`,
      `${BASE_URL}/ratings/component/AAPL`,
      `${BASE_URL}/datapoint/ROIC`,
      `${BASE_URL}/datapoint`,
      `${BASE_URL}/coverage/etf`,
      `${BASE_URL}/coverage/etf/XLF`,
      `${BASE_URL}/metrics/roic/AAPL?year=2022&ttm=3`,
      `${BASE_URL}/fundamentals/adjusted/AAPL?datapoint=ACCOUNTS_PAYABLE&year=2022&quarter=1`,
    ]);
  });

  it("never puts the API key in a URL, a result, a plan's cache key or an event", async () => {
    const events: string[] = [];
    const fake = new FakeFetch();
    const client = makeClient(fake, { onEvent: (e) => events.push(JSON.stringify(e)) });
    const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };
    const result = await client.datapoint(request);
    const plan = client.plan({ kind: "datapoint", request });
    expect(plan.key.serialize()).toBe("metrics/roic/AAPL?year=2023");
    const everything = [JSON.stringify(result), JSON.stringify(plan), fake.seen[0]!.url.href, ...events].join(
      "\n",
    );
    expect(everything).not.toContain(API_KEY);
    expect(events.length).toBeGreaterThan(0);
  });

  it("refuses a base URL that is not https, except for localhost and 127.0.0.1", () => {
    const fake = new FakeFetch();
    expect(() => makeClient(fake, { baseUrl: "http://fdq.example.com/v1" })).toThrow(
      "baseUrl must start with https:// (http:// is allowed only for localhost and 127.0.0.1).",
    );
    expect(() => makeClient(fake, { baseUrl: "http://127.0.0.1:4010/v1" })).not.toThrow();
    expect(() => makeClient(fake, { baseUrl: "http://localhost:4010/v1/" })).not.toThrow();
  });
});
