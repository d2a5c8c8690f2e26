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
  api_data_key_name: string;
  description: string;
  endpoints: string;
}

/** Names served past the spec's cut-offs that no catalog of the spec lists at all. */
const NEW_PAST_THE_CUT = [
  "CORE_EARNINGS_DISTORTION_TOTAL_PER_INCOME_NET",
  "CORE_EARNINGS_DISTORTION_TOTAL_PER_REVENUE",
  "INCOME_PRE_TAX",
  "INCOME_TAX",
  "INVENTORY",
];

describe("GET /v1/datapoint", () => {
  it("lists one metadata record per datapoint name of every catalog and per name served past a cut, by name", async () => {
    const list = await client.results<Meta[]>("/datapoint");
    expect(list.map((m) => m.name)).toEqual([...datapointMetadata().keys(), ...NEW_PAST_THE_CUT].sort());
    for (const m of list) {
      expect(Object.keys(m)).toEqual(["name", "api_data_key_name", "description", "endpoints"]);
      // Production's field (wire-notes 5, 15) carries the spec's name.
      expect(m.api_data_key_name).toBe(m.name);
    }
  });

  it("catalog names keep their description; endpoints add the datasets that serve them past a cut", async () => {
    const byName = new Map((await client.results<Meta[]>("/datapoint")).map((m) => [m.name, m]));
    for (const meta of datapointMetadata().values())
      expect(byName.get(meta.name)?.description).toBe(meta.description);
    expect(byName.get("INVENTORY")).toEqual({
      name: "INVENTORY",
      api_data_key_name: "INVENTORY",
      description: "Inventory.",
      endpoints: "fundamentals/adjusted, fundamentals/reported",
    });
    expect(byName.get("CASH_TAX_RATE")?.endpoints).toBe(
      "reconciliation/core-earnings-to-net-income, reconciliation/net-income-to-core-earnings",
    );
    expect(byName.get("CHARGE_AFTER_TAX")?.endpoints).toBe(
      [
        "reconciliation/net-income-to-nopat",
        "reconciliation/net-income-to-nopat-detailed",
        "reconciliation/net-income-to-nopat-detailed-sum-count",
        "fundamentals/adjusted",
        "fundamentals/reported",
      ].join(", "),
    );
    expect(byName.get("EXPENSES_SGA")?.endpoints).toBe(
      "screens/traditional, fundamentals/adjusted, fundamentals/reported",
    );
  });
});

describe("GET /v1/datapoint/:name", () => {
  it("answers the record object of every listed name", async () => {
    await pool(await client.results<Meta[]>("/datapoint"), 16, async (meta) => {
      expect(await client.results<Meta>(`/datapoint/${meta.name}`)).toEqual(meta);
    });
  });

  it("an unknown (or lower-case) name is DataPointNotFound (404)", async () => {
    for (const name of ["NOPE", "roic", "ROIC%20", "inventory"])
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

  it("stocks carry six ratings, ETFs seven, mutual funds eight (several of each, over HTTP)", async () => {
    // The spec's ratings table: six fields for all, then one for ETFs and funds, one for funds only.
    const stock = [
      "rating_overall",
      "rating_stock_price_sa_p_ebv_p_sosa",
      "rating_gap",
      "rating_fcf_yield",
      "rating_roic",
      "rating_income_net_economic_profit",
    ];
    const etf = [...stock, "rating_expense_total_annualized"];
    const mf = [...etf, "rating_allocation_pct_cash"];
    for (const [type, fields] of [
      ["stock", stock],
      ["etf", etf],
      ["mf", mf],
    ] as const) {
      const listed = await client.results<Array<{ ticker: string }>>(`/coverage/${type}`);
      const tickers = listed.filter((_, i) => i % Math.floor(listed.length / 6) === 0).map((s) => s.ticker);
      expect(tickers.length).toBeGreaterThanOrEqual(6);
      for (const ticker of tickers) {
        const record = await client.results<Record<string, unknown>>(
          `/ratings/component/${encodeURIComponent(ticker)}`,
        );
        // Field order is not part of the contract; the set of fields is.
        expect([type, ticker, Object.keys(record).sort()]).toEqual([
          type,
          ticker,
          ["ticker", "name", ...fields].sort(),
        ]);
      }
    }
    expect([stock.length, etf.length, mf.length]).toEqual([6, 7, 8]);
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
