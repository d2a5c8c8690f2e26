// A ticker FDQ does not cover: FDQ.DATAPOINT, FDQ.DATASET and FDQ.SERIES, with fixed and relative years,
// called as Excel calls them against an in-process sandbox on a fixed day. Under the default rule ("list") the
// coverage list of the ticker's type is asked once per refresh day before the first data request, and an
// uncovered ticker's cell says so after that one request, with no data request and no walk back through empty
// periods. Under the after-the-fact rule ("after") the cell says so after its data answer "not found" and one
// coverage record per ticker and refresh day, and a covered ticker's cells send no coverage request
// (docs/quota-and-billing.md).
import { FdqClient, MemoryStorage, NotCachedError, type ClientOptions } from "../../../src/api";
import { configureSharedClient, resetSharedClient } from "../../../src/host/shared-client";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import {
  excelCaller,
  installCustomFunctionsGlobal,
  loadFunctionsAsExcelDoes,
  removeCustomFunctionsGlobal,
} from "./excel-harness";

// The sandbox's day and the client's refresh day (12:00 UTC is after the vendor's 05:20 Chicago refresh).
const DAY = new Date("2026-11-24T12:00:00Z");
const NOT_FOUND = "The requested data was not found.";

const uncovered = (ticker: string, as = "stock"): string =>
  `FDQ does not cover the ticker "${ticker}" (no ${as} of that ticker in its coverage). Check the spelling, or search the ticker list in the FDQ task pane (Find a ticker).`;

let sandbox: RunningSandbox;
let excel: ReturnType<typeof excelCaller>;
/** The paths (after /v1/) the client sent since the last `sent()`. */
let paths: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => DAY });
  const registry = installCustomFunctionsGlobal();
  excel = excelCaller(registry, await loadFunctionsAsExcelDoes(), "web");
});

/** A fresh shared client (empty cache) that records what it sends. */
function freshClient(extra: Partial<ClientOptions> = {}): FdqClient {
  paths = [];
  return configureSharedClient(
    { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey },
    {
      ...extra,
      retry: { attempts: 1 },
      now: () => DAY.getTime(),
      storage: new MemoryStorage(),
      fetch: (input, init) => {
        const url = new URL(String(input));
        paths.push(`${url.pathname.replace(/^\/v1\//, "")}${url.search}`);
        return extra.fetch ? extra.fetch(input, init) : fetch(input, init);
      },
    },
  );
}

beforeEach(() => void freshClient());

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
  removeCustomFunctionsGlobal();
});

/** The cell's outcome, the paths it sent and the units the sandbox counted for them. */
async function cell(id: string, ...args: unknown[]) {
  const units = sandbox.usage();
  paths = [];
  const outcome = await excel.cell(id, ...args);
  return { outcome, sent: [...paths], units: sandbox.usage() - units };
}

const AFTER = { coverageCheck: "after" } as const;

/** A client of the sandbox on DAY that records the path of every request it sends in `sent`. */
function recordingClient(sent: string[], options: Partial<ClientOptions> = {}): FdqClient {
  return new FdqClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.demoKey,
    now: () => DAY.getTime(),
    hints: EXCEL_HINTS,
    ...options,
    fetch: (input, init) => {
      sent.push(new URL(String(input)).pathname);
      return fetch(input, init);
    },
  });
}

describe("a ticker FDQ does not cover (the default rule: the coverage list first)", () => {
  it("the first cell, for a year, FY0, FQ0 or LTM: the stock list alone (1 request, 1 unit), no data request", async () => {
    for (const year of [2023, "FY0", "FQ0", "LTM"]) {
      freshClient();
      expect(await cell("DATAPOINT", "ZZZW", "roic", "ROIC", year)).toEqual({
        outcome: { code: "#N/A", message: uncovered("ZZZW") },
        sent: ["coverage/stock"],
        units: 1,
      });
    }
  });

  it("every other cell of it that day sends nothing: another year, dataset, period, DATASET, SERIES, FY0, FQ-1, LTM", async () => {
    await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023);
    const none = { outcome: { code: "#N/A", message: uncovered("ZZZZ") }, sent: [], units: 0 };
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023)).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "NOPAT", 2019)).toEqual(none);
    expect(await cell("DATAPOINT", "zzzz", "net-income-to-nopat", "NOPAT", 2022, 2)).toEqual(none);
    expect(await cell("DATASET", "ZZZZ", "roic", 2021)).toEqual(none);
    expect(await cell("SERIES", "ZZZZ", "roic", "ROIC", 2015, 2020)).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", "FY0")).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "NOPAT", "FQ-1")).toEqual(none);
    expect(await cell("DATASET", "ZZZZ", "roic", "LTM")).toEqual(none);
  });

  it("another uncovered ticker the same day sends nothing either: the list is shared by every ticker", async () => {
    await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023);
    expect(await cell("DATAPOINT", "ZZZY", "roic", "ROIC", "LTM")).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZY") },
      sent: [],
      units: 0,
    });
  });

  it("FDQ.DATASET and FDQ.SERIES as the first cell: the list alone", async () => {
    expect(await cell("DATASET", "ZZZY", "roic", 2022)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZY") },
      sent: ["coverage/stock"],
      units: 1,
    });
    freshClient();
    expect(await cell("SERIES", "ZZZX", "roic", "ROIC", 2021, 2023)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZX") },
      sent: ["coverage/stock"],
      units: 1,
    });
  });

  it("an inactive stock's colon ticker is looked up in the inactive list", async () => {
    expect(await cell("DATAPOINT", "ZZZZ:1", "roic", "ROIC", 2010)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZZ:1", "inactive stock") },
      sent: ["coverage/inactive"],
      units: 1,
    });
  });

  it("another workbook of the same account the same day (the same store) sends nothing for it", async () => {
    const storage = new MemoryStorage();
    const sentBy: string[] = [];
    const client = (): FdqClient => recordingClient(sentBy, { storage });
    const first = client();
    const ask = (c: FdqClient, year: number) =>
      c.datapoint({ ticker: "ZZZU", dataset: "roic", name: "ROIC", year }).catch((e: Error) => e.message);
    expect(await ask(first, 2023)).toBe(uncovered("ZZZU"));
    await first.close();
    expect(sentBy).toEqual(["/v1/coverage/stock"]);
    const second = client();
    expect([await ask(second, 2023), await ask(second, 2017)]).toEqual([
      uncovered("ZZZU"),
      uncovered("ZZZU"),
    ]);
    expect(sentBy).toEqual(["/v1/coverage/stock"]);
    await second.close();
  });

  it("a list that cannot be had: the data request is sent, the after-the-fact rule answers, the list is asked again next time", async () => {
    let down = true;
    freshClient({
      fetch: (input, init) =>
        down && String(input).endsWith("/coverage/stock")
          ? Promise.resolve(new Response("busy", { status: 503 }))
          : fetch(input, init),
    });
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZZ") },
      sent: ["coverage/stock", "metrics/roic/ZZZZ?datapoint=ROIC&year=2023", "coverage/stock/ZZZZ"],
      units: 0,
    });
    down = false;
    const next = await cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023);
    expect(next.sent).toEqual(["coverage/stock", "metrics/roic/AAPL?datapoint=ROIC&year=2023"]);
  });

  it("a preview sends nothing, and an estimate counts the list until today's cache has it", async () => {
    const client = freshClient();
    await client.ready();
    const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };
    await expect(client.datapoint(request, { cacheOnly: true })).rejects.toBeInstanceOf(NotCachedError);
    expect(paths).toEqual([]);
    const before = client.estimate([{ kind: "datapoint", request }]);
    expect([before.requestsNeeded, before.units]).toEqual([2, 2]);
    await client.datapoint({ ...request, ticker: "MSFT" });
    const after = client.estimate([{ kind: "datapoint", request }]);
    expect([after.requestsNeeded, after.units]).toEqual([1, 1]);
  });
});

describe("the estimate of an uncovered ticker is what its cells spend (the sandbox's count and the ledger)", () => {
  type Cell = [ticker: string, year: number | string];
  const requestOf = ([ticker, year]: Cell) =>
    ({ kind: "datapoint", request: { ticker, dataset: "roic", name: "ROIC", year } }) as const;

  /** The estimate of the cells, then the units the sandbox and the client's ledger count for calculating them. */
  async function estimateThenSpend(client: FdqClient, cells: readonly Cell[]) {
    await client.ready();
    const estimate = client.estimate(cells.map(requestOf));
    const ledger = (await client.usage()).units;
    const sandboxUnits = sandbox.usage();
    for (const [ticker, year] of cells) await excel.cell("DATAPOINT", ticker, "roic", "ROIC", year);
    return {
      estimate,
      sandbox: sandbox.usage() - sandboxUnits,
      ledger: (await client.usage()).units - ledger,
    };
  }

  it("a fresh day: at most the list and the cell's value (2 units), of which the list alone is spent (1 unit)", async () => {
    const { estimate, sandbox, ledger } = await estimateThenSpend(freshClient(), [["ZZZZ", 2023]]);
    expect(estimate).toMatchObject({
      requestsNeeded: 2,
      units: 2,
      ifListed: { requests: 1, units: 1, byTicker: { ZZZZ: { requests: 1, units: 1 } } },
    });
    expect([sandbox, ledger]).toEqual([1, 1]);
    expect(estimate.units - estimate.ifListed!.units).toBe(sandbox);
  });

  it("a fresh day, a covered ticker: the upper bound is what is spent (the list and the value, 2 units)", async () => {
    const { estimate, sandbox, ledger } = await estimateThenSpend(freshClient(), [["AAPL", 2023]]);
    expect(estimate).toMatchObject({
      units: 2,
      ifListed: { requests: 1, units: 1, byTicker: { AAPL: { requests: 1, units: 1 } } },
    });
    expect([sandbox, ledger]).toEqual([estimate.units, estimate.units]);
  });

  it("the list cached today: an uncovered ticker's cells, fixed or relative, are estimated at 0 requests and spend 0", async () => {
    const client = freshClient();
    await excel.cell("DATAPOINT", "ZZZY", "roic", "ROIC", 2023);
    const { estimate, sandbox, ledger } = await estimateThenSpend(client, [
      ["ZZZZ", 2023],
      ["ZZZZ", "FY0"],
      ["ZZZZ", "LTM"],
    ]);
    expect(estimate.requestsNeeded).toBe(0);
    expect(estimate.ifListed).toBeUndefined();
    expect([estimate.units, sandbox, ledger]).toEqual([0, 0, 0]);
  });

  it("a mix on a fresh day: at most the list and every value; spent: all but the uncovered ticker's", async () => {
    const cells: Cell[] = [
      ["AAPL", 2023],
      ["ZZZZ", 2023],
      ["MSFT", 2022],
      ["ZZZZ", "FY0"],
    ];
    const { estimate, sandbox, ledger } = await estimateThenSpend(freshClient(), cells);
    // The list, AAPL's and MSFT's values, ZZZZ's 2023 value and its FY0: the search's empty answer (0 units) and
    // the value of the period expected latest (1 unit); every request but the list's is the list's to decide.
    expect(estimate).toMatchObject({
      requestsNeeded: 6,
      units: 5,
      ifListed: {
        requests: 5,
        units: 4,
        byTicker: {
          AAPL: { requests: 1, units: 1 },
          MSFT: { requests: 1, units: 1 },
          ZZZZ: { requests: 3, units: 2 },
        },
      },
    });
    // The list says ZZZZ is not covered: its two values and its search are not sent.
    expect([sandbox, ledger]).toEqual([3, 3]);
    expect(estimate.units - estimate.ifListed!.byTicker.ZZZZ!.units).toBe(sandbox);
  });

  it("a mix with the list cached today: exact (the covered tickers' values, nothing for the uncovered one)", async () => {
    const client = freshClient();
    await excel.cell("DATAPOINT", "GOOG", "roic", "ROIC", 2023);
    const { estimate, sandbox, ledger } = await estimateThenSpend(client, [
      ["AAPL", 2023],
      ["ZZZZ", 2023],
      ["MSFT", 2022],
      ["ZZZZ", "FY0"],
    ]);
    expect(estimate.ifListed).toBeUndefined();
    expect([estimate.requestsNeeded, estimate.units, sandbox, ledger]).toEqual([2, 2, 2, 2]);
  });
});

describe("refreshing the cells of an uncovered ticker", () => {
  it("asks the list that did not list it again, then says the same", async () => {
    const sentBy: string[] = [];
    const client = recordingClient(sentBy);
    const request = { ticker: "ZZZS", dataset: "roic", name: "ROIC", year: 2023 };
    const ask = () => client.datapoint(request).catch((e: Error) => e.message);
    expect(await ask()).toBe(uncovered("ZZZS"));
    client.forget([{ kind: "datapoint", request }]);
    expect(await ask()).toBe(uncovered("ZZZS"));
    expect(sentBy).toEqual(["/v1/coverage/stock", "/v1/coverage/stock"]);
    await client.close();
  });

  it("under the after-the-fact rule: its data request and its coverage record again", async () => {
    const sentBy: string[] = [];
    const client = recordingClient(sentBy, AFTER);
    const request = { ticker: "ZZZS", dataset: "roic", name: "ROIC", year: 2023 };
    const ask = () => client.datapoint(request).catch((e: Error) => e.message);
    expect(await ask()).toBe(uncovered("ZZZS"));
    client.forget([{ kind: "datapoint", request }]);
    expect(await ask()).toBe(uncovered("ZZZS"));
    expect(sentBy).toEqual([
      "/v1/metrics/roic/ZZZS",
      "/v1/coverage/stock/ZZZS",
      "/v1/metrics/roic/ZZZS",
      "/v1/coverage/stock/ZZZS",
    ]);
    await client.close();
  });
});

describe("a covered ticker (the default rule)", () => {
  it("a model: one list request (1 unit) a day before its first data request, none after", async () => {
    const first = await cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023);
    expect("value" in first.outcome).toBe(true);
    expect(first.sent).toEqual(["coverage/stock", "metrics/roic/AAPL?datapoint=ROIC&year=2023"]);
    expect(first.units).toBe(2);
    const series = await cell("SERIES", "AAPL", "roic", "ROIC", 2019, 2022);
    expect(series.sent.filter((p) => p.startsWith("coverage/"))).toEqual([]);
    expect(series.units).toBe(4);
    const year = await cell("DATAPOINT", "NFLX", "roic", "ROIC", 2008);
    expect(year).toEqual({
      outcome: { code: "#N/A", message: NOT_FOUND },
      sent: ["metrics/roic/NFLX?datapoint=ROIC&year=2008"],
      units: 0,
    });
  });

  it("FY0, FQ0 and LTM still resolve to the latest period: after the list, the empty periods above its data", async () => {
    const fy0 = await cell("DATAPOINT", "MSFT", "roic", "ROIC", "FY0");
    expect(fy0.sent).toEqual([
      "coverage/stock",
      "metrics/roic/MSFT?datapoint=ROIC&year=2026",
      "metrics/roic/MSFT?datapoint=ROIC&year=2025",
    ]);
    expect(fy0.units).toBe(2);
    // The value of the latest fiscal year with data, as the fixed year gives it (from today's cache).
    const fy2025 = await cell("DATAPOINT", "MSFT", "roic", "ROIC", 2025);
    expect(fy2025.sent).toEqual([]);
    expect(typeof (fy0.outcome as { value: unknown }).value).toBe("number");
    expect(fy0.outcome).toEqual(fy2025.outcome);
    for (const year of ["FQ0", "LTM"]) {
      freshClient();
      const out = await cell("DATAPOINT", "MSFT", "roic", "NOPAT", year);
      expect(typeof (out.outcome as { value: unknown }).value).toBe("number");
      expect(out.sent[0]).toBe("coverage/stock");
      expect(out.sent.filter((p) => p.startsWith("coverage/"))).toEqual(["coverage/stock"]);
    }
  });

  it("a SERIES reaching before its coverage: the list once, its other years answered with data", async () => {
    // NFLX is covered from fiscal 2010: 2008 and 2009 are "not found", the years after have values.
    const out = await cell("SERIES", "NFLX", "roic", "ROIC", 2008, 2012);
    expect(out.sent.filter((p) => p.startsWith("coverage/"))).toEqual(["coverage/stock"]);
    const row = (out.outcome as { value: unknown[][] }).value[0]!;
    expect(row.slice(2).every((v) => typeof v === "number")).toBe(true);
    expect(await excel.cell("DATAPOINT", "NFLX", "roic", "ROIC", 2008)).toEqual({
      code: "#N/A",
      message: NOT_FOUND,
    });
  });
});

describe("the after-the-fact rule (coverageCheck: after)", () => {
  beforeEach(() => void freshClient(AFTER));

  it("FDQ.DATAPOINT: the data answer 'not found', one coverage request, 0 units, and #N/A saying so", async () => {
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZZ") },
      sent: ["metrics/roic/ZZZZ?datapoint=ROIC&year=2023", "coverage/stock/ZZZZ"],
      units: 0,
    });
  });

  it("a second cell of the same ticker the same day sends nothing: another year, dataset, period, DATASET, SERIES, FY0, LTM", async () => {
    await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023);
    const none = { outcome: { code: "#N/A", message: uncovered("ZZZZ") }, sent: [], units: 0 };
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", 2023)).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "NOPAT", 2019)).toEqual(none);
    expect(await cell("DATAPOINT", "zzzz", "net-income-to-nopat", "NOPAT", 2022, 2)).toEqual(none);
    expect(await cell("DATASET", "ZZZZ", "roic", 2021)).toEqual(none);
    expect(await cell("SERIES", "ZZZZ", "roic", "ROIC", 2015, 2020)).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "ROIC", "FY0")).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZZ", "roic", "NOPAT", "LTM")).toEqual(none);
  });

  it("FDQ.DATASET: its request, one coverage request, the message", async () => {
    expect(await cell("DATASET", "ZZZY", "roic", 2022)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZY") },
      sent: ["metrics/roic/ZZZY?year=2022", "coverage/stock/ZZZY"],
      units: 0,
    });
  });

  it("FDQ.SERIES: its years' requests (sent at once), one coverage request for all of them, the message", async () => {
    const out = await cell("SERIES", "ZZZX", "roic", "ROIC", 2021, 2023);
    expect(out.outcome).toEqual({ code: "#N/A", message: uncovered("ZZZX") });
    expect(out.sent.sort()).toEqual([
      "coverage/stock/ZZZX",
      "metrics/roic/ZZZX?datapoint=ROIC&year=2021",
      "metrics/roic/ZZZX?datapoint=ROIC&year=2022",
      "metrics/roic/ZZZX?datapoint=ROIC&year=2023",
    ]);
    expect(out.units).toBe(0);
  });

  it("FY0 and LTM: the empty periods above the expected latest, one coverage request there, no walk back", async () => {
    // On 2026-11-24 fiscal 2026 may have ended (a year ending in October); fiscal 2025 is where a covered
    // ticker's value is expected. A covered ticker's search asks those two as well.
    const fy0 = await cell("DATAPOINT", "ZZZW", "roic", "ROIC", "FY0");
    expect(fy0).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZW") },
      sent: [
        "metrics/roic/ZZZW?datapoint=ROIC&year=2026",
        "metrics/roic/ZZZW?datapoint=ROIC&year=2025",
        "coverage/stock/ZZZW",
      ],
      units: 0,
    });
    freshClient(AFTER);
    // The ttm windows from Q3 FY2027 (a year ending in April 2027) down to Q2 FY2026, the one expected.
    const ltm = await cell("DATAPOINT", "ZZZV", "roic", "NOPAT", "LTM");
    expect(ltm).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZV") },
      sent: [
        "metrics/roic/ZZZV?datapoint=NOPAT&year=2027&ttm=3",
        "metrics/roic/ZZZV?datapoint=NOPAT&year=2027&ttm=2",
        "metrics/roic/ZZZV?datapoint=NOPAT&year=2027&ttm=1",
        "metrics/roic/ZZZV?datapoint=NOPAT&year=2026&ttm=4",
        "metrics/roic/ZZZV?datapoint=NOPAT&year=2026&ttm=3",
        "metrics/roic/ZZZV?datapoint=NOPAT&year=2026&ttm=2",
        "coverage/stock/ZZZV",
      ],
      units: 0,
    });
  });

  it("a relative period of a ticker known uncovered today sends nothing, of any kind", async () => {
    await cell("DATAPOINT", "ZZZT", "roic", "ROIC", 2024);
    const none = { outcome: { code: "#N/A", message: uncovered("ZZZT") }, sent: [], units: 0 };
    expect(await cell("DATAPOINT", "ZZZT", "roic", "ROIC", "FY0")).toEqual(none);
    expect(await cell("DATAPOINT", "ZZZT", "roic", "NOPAT", "FQ-1")).toEqual(none);
    expect(await cell("DATASET", "ZZZT", "roic", "LTM")).toEqual(none);
  });

  it("an inactive stock's colon ticker is looked up among inactive stocks", async () => {
    expect(await cell("DATAPOINT", "ZZZZ:1", "roic", "ROIC", 2010)).toEqual({
      outcome: { code: "#N/A", message: uncovered("ZZZZ:1", "inactive stock") },
      sent: ["metrics/roic/ZZZZ%3A1?datapoint=ROIC&year=2010", "coverage/inactive/ZZZZ%3A1"],
      units: 0,
    });
  });

  it("a covered ticker sends no coverage request on its normal path: a value, a series, a dataset, FY0 and LTM", async () => {
    const cells: [string, ...unknown[]][] = [
      ["DATAPOINT", "AAPL", "roic", "ROIC", 2023],
      ["SERIES", "AAPL", "roic", "ROIC", 2019, 2023],
      ["DATASET", "AAPL", "net-income-to-nopat", 2022],
      ["DATAPOINT", "AAPL", "roic", "ROIC", "FY0"],
      ["DATAPOINT", "AAPL", "roic", "NOPAT", "LTM"],
    ];
    for (const [id, ...args] of cells) {
      const out = await cell(id, ...args);
      expect("value" in out.outcome).toBe(true);
      expect(out.sent.filter((p) => p.startsWith("coverage/"))).toEqual([]);
    }
  });

  it("a covered ticker's year without data, alone: the service's 'not found', after one coverage record (1 unit) per ticker and day", async () => {
    expect(await cell("DATAPOINT", "NFLX", "roic", "ROIC", 2008)).toEqual({
      outcome: { code: "#N/A", message: NOT_FOUND },
      sent: ["metrics/roic/NFLX?datapoint=ROIC&year=2008", "coverage/stock/NFLX"],
      units: 1,
    });
    expect(await cell("DATAPOINT", "NFLX", "roic", "ROIC", 2007)).toEqual({
      outcome: { code: "#N/A", message: NOT_FOUND },
      sent: ["metrics/roic/NFLX?datapoint=ROIC&year=2007"],
      units: 0,
    });
  });
});
