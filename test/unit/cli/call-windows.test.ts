// The windows `fdq refresh` evaluates a large batch of calls in (src/cli/call-windows.ts): a window never
// splits the calls of one dataset, ticker and period (what the request module groups into one request), calls
// whose requests cannot be named go together, and the outcomes come back in call order.
import { FdqClient, type DatapointRequest, type DatapointResult } from "../../../src/api";
import { evaluateInWindows, windowsOf } from "../../../src/cli/call-windows";
import { readFdqCall, type FdqCall } from "../../../src/functions/formula";
import type { FdqApi } from "../../../src/functions/impl";

const client = new FdqClient({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "test-key" });

const cell = (ticker: string, name: string, year: number): FdqCall =>
  readFdqCall(`=FDQ.DATAPOINT("${ticker}","metrics/roic","${name}",${year})`);

describe("windowsOf", () => {
  it("keeps a batch no larger than a window as one window, in call order", async () => {
    const calls = [cell("AAPL", "ROIC", 2020), cell("MSFT", "ROIC", 2021), cell("IBM", "ROIC", 2022)];
    expect(await windowsOf(client, calls, 3)).toEqual([[0, 1, 2]]);
  });

  it("puts every call of one dataset, ticker and period in the same window, whatever their order", async () => {
    const tickers = ["AAPL", "MSFT", "IBM"];
    const names = ["ROIC", "CAPITAL_INVESTED", "NOPAT"];
    // Row by row a name of each ticker: each ticker's three names are three calls apart.
    const calls = names.flatMap((name) => tickers.map((t) => cell(t, name, 2020)));
    expect(await windowsOf(client, calls, 4)).toEqual([
      [0, 3, 6],
      [1, 4, 7],
      [2, 5, 8],
    ]);
  });

  it("fills a window with whole groups up to its size, another year of a ticker being another group", async () => {
    const calls = [2019, 2020, 2021, 2022].flatMap((year) => [
      cell("AAPL", "ROIC", year),
      cell("AAPL", "NOPAT", year),
    ]);
    expect(await windowsOf(client, calls, 4)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
  });

  it("keeps a group larger than a window whole, in a window of its own", async () => {
    const names = ["ROIC", "CAPITAL_INVESTED", "NOPAT"];
    const calls = [cell("MSFT", "ROIC", 2020), ...names.map((n) => cell("AAPL", n, 2020))];
    expect(await windowsOf(client, calls, 2)).toEqual([[0], [1, 2, 3]]);
  });

  it("puts the calls whose requests cannot be named (refused arguments) together in one window", async () => {
    const refused = (): FdqCall => readFdqCall('=FDQ.DATAPOINT("AAPL","no/such","ROIC",2020)');
    const calls = [refused(), cell("AAPL", "ROIC", 2020), cell("MSFT", "ROIC", 2020), refused()];
    expect(await windowsOf(client, calls, 2)).toEqual([
      [0, 3],
      [1, 2],
    ]);
  });
});

describe("evaluateInWindows", () => {
  it("starts at most a window of calls at once and answers every call in call order", async () => {
    let running = 0;
    let most = 0;
    const datapoint = async (req: DatapointRequest): Promise<DatapointResult> => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      return {
        value: Number(req.year),
        record: {
          ticker: String(req.ticker),
          year: Number(req.year),
          period: 5,
          periodtype: "ANNUAL",
          periodstring: "FY",
          datapoint: String(req.name),
          datavalue: String(req.year),
        },
        source: "network",
        refreshDay: "2026-11-28",
        url: "",
      };
    };
    const api = { datapoint } as unknown as FdqApi;
    const calls = ["ROIC", "NOPAT"].flatMap((name) =>
      [2018, 2019, 2020, 2021, 2022].map((year) => cell("AAPL", name, year)),
    );
    const outcomes = await evaluateInWindows(api, client, calls, 4);
    expect(most).toBeLessThanOrEqual(4);
    expect(outcomes.map((o) => (o.ok ? o.value : o.error))).toEqual([
      2018, 2019, 2020, 2021, 2022, 2018, 2019, 2020, 2021, 2022,
    ]);
  });
});
