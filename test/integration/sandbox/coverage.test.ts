// /v1/coverage: the universe at the service's stated size, inactive colon tickers, records and errors.
import { SECURITY_TYPES, SPEC_ERRORS } from "../../../src/catalog";
import { start, type Client } from "./helpers";

interface Item {
  ticker: string;
  name: string;
  type: string;
  sector: string;
  last_trade_date: string;
}
type Single = Item & Record<string, string | null>;

let client: Client;
const lists = new Map<string, Item[]>();
beforeAll(async () => {
  client = await start();
  for (const type of SECURITY_TYPES) lists.set(type, await client.results<Item[]>(`/coverage/${type}`));
});
afterAll(() => client.sandbox.close());

const INVALID_TYPE: [number, string] = [400, SPEC_ERRORS.InvalidSecurityType.message];

describe("GET /v1/coverage/:security_type", () => {
  it("lists the service's stated universe: 2,700+ stocks, 1,000+ ETFs, 6,450+ mutual funds", () => {
    expect(lists.get("stock")!.length).toBeGreaterThanOrEqual(2700);
    expect(lists.get("etf")!.length).toBeGreaterThanOrEqual(1000);
    expect(lists.get("mf")!.length).toBeGreaterThanOrEqual(6450);
    expect(lists.get("inactive")!.length).toBeGreaterThanOrEqual(300);
  });

  it("list items carry exactly ticker, name, type, sector and last_trade_date", () => {
    // One assertion over the ~11,000 items (the items that break a rule, expected none): an expect per item cost
    // more CPU than the sandbox's answers.
    const FIELDS = JSON.stringify(["ticker", "name", "type", "sector", "last_trade_date"]);
    const wrong = [...lists].flatMap(([type, items]) =>
      items.filter(
        (item) =>
          JSON.stringify(Object.keys(item)) !== FIELDS ||
          item.type !== type ||
          !/^\d{4}-\d{2}-\d{2}$/.test(item.last_trade_date),
      ),
    );
    expect(wrong).toEqual([]);
    // Active securities last traded on the last weekday before the clock's day (2025-08-15).
    expect(lists.get("stock")!.every((s) => s.last_trade_date === "2025-08-14")).toBe(true);
  });

  it("tickers are unique and every security's sector is a listed sector id", () => {
    const sectors = new Set(lists.get("sector")!.map((s) => s.ticker));
    const all = [...lists.values()].flat();
    expect(new Set(all.map((s) => s.ticker)).size).toBe(all.length);
    expect(all.filter((s) => !sectors.has(s.sector))).toEqual([]);
  });

  it("sector and industry ids are upper case without spaces, ending in SEC and I", () => {
    for (const s of lists.get("sector")!) expect(s.ticker).toMatch(/^[A-Z]+SEC$/);
    for (const s of lists.get("industry")!) expect(s.ticker).toMatch(/^[A-Z]+I$/);
    expect(lists.get("sector")!.map((s) => s.ticker)).toContain("TECHNOLOGYSEC");
    expect(lists.get("industry")!.map((s) => s.ticker)).toContain("BEVERAGESI");
  });

  it("inactive tickers are <last_used_ticker>:<n> with n counting 1, 2, ... per last-used ticker", () => {
    const byBase = new Map<string, number[]>();
    for (const s of lists.get("inactive")!) {
      const m = /^([A-Z.]+):(\d+)$/.exec(s.ticker);
      expect(m).not.toBeNull();
      byBase.set(m![1]!, [...(byBase.get(m![1]!) ?? []), Number(m![2])]);
    }
    for (const ns of byBase.values()) expect(ns.sort()).toEqual(ns.map((_, i) => i + 1));
    expect(byBase.get("X")).toEqual([1, 2]);
    expect(byBase.get("ENRN")).toEqual([1]);
  });

  it("includes the identifiers of wire-notes item 8 under invented names", () => {
    const find = (type: string, ticker: string): Item | undefined =>
      lists.get(type)!.find((s) => s.ticker === ticker);
    const expected: Array<[string, string]> = [
      ["stock", "AAPL"],
      ["stock", "NFLX"],
      ["stock", "MSFT"],
      ["etf", "XLF"],
      ["etf", "QQQ"],
      ["mf", "GAFFX"],
      ["mf", "AUENX"],
      ["inactive", "ENRN:1"],
    ];
    for (const [type, ticker] of expected) expect(find(type, ticker)?.name).toContain("Synthetic");
  });

  it("a type outside the six is InvalidSecurityType (400), case-sensitively", async () => {
    for (const type of ["bond", "STOCK", "stocks", "%20"])
      expect(await client.error(`/coverage/${type}`)).toEqual(INVALID_TYPE);
  });
});

describe("GET /v1/coverage/:security_type/:ticker", () => {
  it("answers an array with the single-security record of the twelve documented fields", async () => {
    const [aapl] = await client.results<Single[]>("/coverage/stock/AAPL");
    expect(aapl).toEqual({
      ticker: "AAPL",
      name: "Aplo Synthetic Holdings",
      type: "stock",
      sector: "TECHNOLOGYSEC",
      last_trade_date: "2025-08-14",
      sector_name: "Technology",
      subsector: "TECHHARDWARESUB",
      subsector_name: "Technology Hardware",
      industry: "TECHHARDWAREI",
      industry_name: "Technology Hardware & Equipment",
      subindustry: "CONSUMERDEVICESSUBI",
      subindustry_name: "Consumer Devices",
    });
  });

  it("a missing subsector or subindustry is NA, or null for the records that serve null (NFLX)", async () => {
    const [msft] = await client.results<Single[]>("/coverage/stock/MSFT");
    expect([msft!.subindustry, msft!.subindustry_name]).toEqual(["NA", "NA"]);
    const [nflx] = await client.results<Single[]>("/coverage/stock/NFLX");
    expect([nflx!.subsector, nflx!.subsector_name, nflx!.subindustry, nflx!.subindustry_name]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it("answers every type: funds, inactive stocks (with their last trade date), sectors and industries", async () => {
    expect((await client.results<Single[]>("/coverage/etf/XLF"))[0]!.type).toBe("etf");
    expect((await client.results<Single[]>("/coverage/mf/GAFFX"))[0]!.type).toBe("mf");
    const [enron] = await client.results<Single[]>("/coverage/inactive/ENRN%3A1");
    expect([enron!.ticker, enron!.last_trade_date]).toEqual(["ENRN:1", "2012-03-15"]);
    const [sector] = await client.results<Single[]>("/coverage/sector/TECHNOLOGYSEC");
    expect([sector!.sector, sector!.industry]).toEqual(["TECHNOLOGYSEC", "NA"]);
    const [industry] = await client.results<Single[]>("/coverage/industry/BEVERAGESI");
    expect([industry!.sector, industry!.industry, industry!.industry_name]).toEqual([
      "CONSUMERSTAPLESSEC",
      "BEVERAGESI",
      "Beverages",
    ]);
  });

  it("a second share class answers the primary company's record", async () => {
    expect((await client.results<Single[]>("/coverage/stock/BF.B"))[0]!.ticker).toBe("BF.A");
  });

  it("an unknown ticker, or a ticker of another type, is DataNotFound; a bad type is InvalidSecurityType", async () => {
    const notFound: [number, string] = [400, SPEC_ERRORS.DataNotFound.message];
    expect(await client.error("/coverage/stock/NOSUCH")).toEqual(notFound);
    expect(await client.error("/coverage/etf/AAPL")).toEqual(notFound);
    expect(await client.error("/coverage/stock/ENRN:1")).toEqual(notFound);
    expect(await client.error("/coverage/bond/AAPL")).toEqual(INVALID_TYPE);
  });
});
