// The coverage list rule (ClientOptions.coverageCheck "list", src/api/ticker-coverage.ts): which tickers the list
// covers, and what happens when the list cannot be had. The request counts of an uncovered ticker's cells against
// the sandbox are in test/integration/functions/uncovered-ticker.test.ts.
import { MemoryStorage, UncoveredTickerError } from "../../../src/api";
import { envelope, FakeFetch, json, makeClient, type Handler } from "./fake-fetch";

const LIST_PATH = "/v1/coverage/stock";

/** A fake service whose stock list is `list` (or the answer `list` gives), recording the paths asked. */
function setUp(list: unknown[] | (() => Response)) {
  const handler: Handler = (url) =>
    url.pathname === LIST_PATH ? (typeof list === "function" ? list() : envelope(list)) : "default";
  const fake = new FakeFetch(handler);
  const client = makeClient(fake, { coverageCheck: "list", retry: { attempts: 1 } });
  const paths = () => fake.seen.map((s) => s.url.pathname.replace(/^\/v1\//, ""));
  const ask = (ticker: string, year = 2023) =>
    client.datapoint({ ticker, dataset: "metrics/roic", name: "ROIC", year }).then(
      (r) => r.value,
      (e: Error) => e,
    );
  return { client, paths, ask };
}

const item = (ticker: string) => ({
  ticker,
  name: `${ticker} Inc`,
  type: "stock",
  sector: "X",
  last_trade_date: "NA",
});

describe("the coverage list", () => {
  it("refuses a ticker it does not list after the list alone, and asks it once a day for every ticker", async () => {
    const { client, paths, ask } = setUp([item("AAPL"), item("MSFT")]);
    expect(await ask("ZZZZ")).toBeInstanceOf(UncoveredTickerError);
    expect(typeof (await ask("AAPL"))).toBe("number");
    expect(typeof (await ask("MSFT"))).toBe("number");
    expect(paths()).toEqual(["coverage/stock", "metrics/roic/AAPL", "metrics/roic/MSFT"]);
    await client.close();
  });

  it("takes a share class as listed when a class of its root is (BF.B where BF.A is listed)", async () => {
    const { client, paths, ask } = setUp([item("BF.A")]);
    expect(typeof (await ask("BF.B"))).toBe("number");
    expect(paths()).toEqual(["coverage/stock", "metrics/roic/BF.B"]);
    await client.close();
  });

  it("an empty list says nothing: the data request is sent, and the list is not asked again that day", async () => {
    const { client, paths, ask } = setUp([]);
    expect(typeof (await ask("AAPL"))).toBe("number");
    expect(typeof (await ask("MSFT"))).toBe("number");
    expect(paths()).toEqual(["coverage/stock", "metrics/roic/AAPL", "metrics/roic/MSFT"]);
    await client.close();
  });

  it("a list refused for good (403) is not asked again that day; the data requests are sent", async () => {
    const { client, paths, ask } = setUp(() => json(403, { message: "Forbidden" }));
    expect(typeof (await ask("AAPL"))).toBe("number");
    expect(typeof (await ask("MSFT"))).toBe("number");
    expect(paths()).toEqual(["coverage/stock", "metrics/roic/AAPL", "metrics/roic/MSFT"]);
    await client.close();
  });

  it("a list that fails in passing (503) is never kept: asked again at the next ticker not known", async () => {
    let down = true;
    const { client, paths, ask } = setUp(() =>
      down ? json(503, { message: "Service Unavailable" }) : envelope([item("MSFT")]),
    );
    expect(typeof (await ask("AAPL"))).toBe("number");
    down = false;
    expect(await ask("ZZZZ")).toBeInstanceOf(UncoveredTickerError);
    expect(paths()).toEqual(["coverage/stock", "metrics/roic/AAPL", "coverage/stock"]);
    await client.close();
  });

  it("a ticker known to have data today needs no list: an answer with records in today's cache", async () => {
    const storage = new MemoryStorage();
    const fake = new FakeFetch();
    const earlier = makeClient(fake, { storage });
    await earlier.datapoint({ ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2023 });
    await earlier.close();
    const client = makeClient(fake, { storage, coverageCheck: "list" });
    await client.datapoint({ ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2022 });
    expect(fake.seen.map((s) => s.url.pathname)).toEqual(["/v1/metrics/roic/AAPL", "/v1/metrics/roic/AAPL"]);
    await client.close();
  });

  it("refreshing an uncovered ticker's cells asks the list again (forget), then says the same", async () => {
    const { client, paths, ask } = setUp([item("AAPL")]);
    expect(await ask("ZZZZ")).toBeInstanceOf(UncoveredTickerError);
    const request = { ticker: "ZZZZ", dataset: "metrics/roic", name: "ROIC", year: 2023 };
    client.forget([{ kind: "datapoint", request }]);
    expect(await ask("ZZZZ")).toBeInstanceOf(UncoveredTickerError);
    expect(paths()).toEqual(["coverage/stock", "coverage/stock"]);
    await client.close();
  });
});
