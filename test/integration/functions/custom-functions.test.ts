// The FDQ functions called through their CustomFunctions.associate registrations, as Excel calls them,
// against an in-process sandbox: values, spills, and every error path of the issue.
import { configureSharedClient, resetSharedClient } from "../../../src/host/shared-client";
import { findDataset, RELATIVE_GRAMMAR as GRAMMAR } from "../../../src/catalog";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import {
  excelCaller,
  installCustomFunctionsGlobal,
  loadFunctionsAsExcelDoes,
  removeCustomFunctionsGlobal,
  showErrors,
} from "./excel-harness";
import { serviceNumber, serviceRecords, serviceResults } from "./sandbox-oracle";

const NOT_FOUND = "The requested data was not found.";
const NO_DATAPOINT = "The requested datapoint was not found.";

let sandbox: RunningSandbox;
let registry: ReturnType<typeof installCustomFunctionsGlobal>;
let excel: ReturnType<typeof excelCaller>;
// No argument here references an empty cell (null is an omitted argument, the same on every platform), so
// one mode is enough; ranges-and-empty-cells.test.ts runs the functions in both.
const cell = (id: string, ...args: unknown[]) => excel.cell(id, ...args);

/** The cell's outcome and how many requests reached the sandbox while it was computed. */
async function cellWithRequests(id: string, ...args: unknown[]) {
  const before = sandbox.stats().requests;
  const outcome = await cell(id, ...args);
  return { outcome, requests: sandbox.stats().requests - before };
}

function useSandboxClient(apiKey = sandbox.demoKey, baseUrl = sandbox.baseUrl): void {
  // One attempt: the failure paths must not wait for retries.
  configureSharedClient({ baseUrl, apiKey }, { retry: { attempts: 1 } });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  registry = installCustomFunctionsGlobal();
  excel = excelCaller(registry, await loadFunctionsAsExcelDoes(), "web");
});

beforeEach(() => useSandboxClient());

afterAll(async () => {
  await resetSharedClient();
  await sandbox.close();
  removeCustomFunctionsGlobal();
});

describe("registration", () => {
  it("associates the nine FDQ functions under their ids", () => {
    expect([...registry.keys()].sort()).toEqual([
      "CARD",
      "COVERAGE",
      "DATAPOINT",
      "DATASET",
      "INFO",
      "RATING",
      "SECTOR",
      "SECURITY",
      "SERIES",
    ]);
  });
});

describe("FDQ.DATAPOINT", () => {
  it("answers the service's value as a number", async () => {
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    expect(await cell("DATAPOINT", "AAPL", "metrics/roic", "ROIC", 2023)).toEqual({ value: expected });
  });

  it("takes the dataset's last part and any case for ticker, dataset and name; the year may be text", async () => {
    const expected = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2023");
    expect(await cell("DATAPOINT", "aapl", "Roic", "roic", "2023")).toEqual({ value: expected });
  });

  it("answers quarterly and trailing-twelve-month values", async () => {
    const q2 = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=NOPAT&year=2023&quarter=2");
    const ttm3 = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=NOPAT&year=2023&ttm=3");
    expect(await cell("DATAPOINT", "AAPL", "roic", "NOPAT", 2023, 2)).toEqual({ value: q2 });
    expect(await cell("DATAPOINT", "AAPL", "roic", "NOPAT", 2023, null, 3)).toEqual({ value: ttm3 });
  });

  it("fails with #VALUE! naming the argument, before any request", async () => {
    const cases: Array<[unknown[], string]> = [
      [
        ["AAPL", "roic", "ROIC", "x"],
        `year must be a fiscal year such as 2023 or a relative period: ${GRAMMAR} (got "x").`,
      ],
      [["AAPL", "roic", "ROIC", 2023, 5], "quarter must be 1, 2, 3 or 4 (got 5)."],
      [["AAPL", "roic", "ROIC", 2023, 1, 1], "quarter and ttm cannot both be given: choose one period."],
      [["AAPL", "roic", "", 2023], 'name must be non-empty text (got "").'],
      [["", "roic", "ROIC", 2023], 'ticker must be non-empty text (got "").'],
      // In argument order: the ticker is named before the omitted name after it.
      [["", "roic", null, 2023], 'ticker must be non-empty text (got "").'],
      [["AAPL", null, null, 2023], "dataset must be non-empty text (got nothing)."],
      [
        ["AAPL", "roic", "ROIC", true],
        `year must be a fiscal year such as 2023 or a relative period: ${GRAMMAR} (got TRUE).`,
      ],
    ];
    for (const [args, message] of cases) {
      expect(await cellWithRequests("DATAPOINT", ...args)).toEqual({
        outcome: { code: "#VALUE!", message },
        requests: 0,
      });
    }
    const unknown = await cellWithRequests("DATAPOINT", "AAPL", "metrics/roc", "ROIC", 2023);
    expect(unknown.requests).toBe(0);
    expect(unknown.outcome).toEqual({
      code: "#VALUE!",
      message: expect.stringMatching(
        /^dataset "metrics\/roc" is not known\. Did you mean metrics\/roic\? Use one of: reconciliation\//,
      ),
    });
  });

  it("gives #N/A with the service's message for data that does not exist", async () => {
    // A name the catalog cannot rule out (its list of fundamentals is cut off) is asked of the service.
    expect(await cell("DATAPOINT", "AAPL", "adjusted", "NO_SUCH_DATAPOINT", 2023)).toEqual({
      code: "#N/A",
      message: NO_DATAPOINT,
    });
    expect(await cell("DATAPOINT", "NFLX", "roic", "ROIC", 2008)).toEqual({
      code: "#N/A",
      message: NOT_FOUND,
    });
    expect(await cell("DATAPOINT", "NOSUCHTICKER", "roic", "ROIC", 2023)).toEqual({
      code: "#N/A",
      message:
        'FDQ does not cover the ticker "NOSUCHTICKER" (no stock of that ticker in its coverage). Check the spelling, or search the ticker list in the FDQ task pane (Find a ticker).',
    });
  });
});

describe("FDQ.DATASET", () => {
  it("spills name/value rows in the service's (catalog) order", async () => {
    const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
    const out = await cell("DATASET", "AAPL", "roic", 2023);
    expect(out).toEqual({ value: records.map((r) => [r.datapoint, Number(r.datavalue)]) });
    expect(records.length).toBeGreaterThan(5);
  });

  it("puts the reconciliation sign first when asked", async () => {
    const records = await serviceRecords(sandbox, "reconciliation/net-income-to-nopat/AAPL?year=2023");
    const dataset = findDataset("net-income-to-nopat");
    const sign = (name: string) => dataset?.datapoints.find((d) => d.name === name)?.sign ?? "";
    const out = await cell("DATASET", "AAPL", "net-income-to-nopat", 2023, null, null, true);
    expect(out).toEqual({ value: records.map((r) => [sign(r.datapoint), r.datapoint, Number(r.datavalue)]) });
    expect((out as { value: unknown[][] }).value.map((row) => row[0])).toContain("=");
  });

  it("refuses with_signs for a dataset without signs, before any request", async () => {
    expect(await cellWithRequests("DATASET", "AAPL", "metrics/roic", 2023, null, null, true)).toEqual({
      outcome: {
        code: "#VALUE!",
        message: "with_signs applies to reconciliation datasets only; metrics/roic has no signs.",
      },
      requests: 0,
    });
  });
});

describe("FDQ.SERIES", () => {
  it("spills one row across the years; a year without data is #N/A in its own cell", async () => {
    const values = await Promise.all(
      [2010, 2011, 2012].map((y) => serviceNumber(sandbox, `metrics/roic/NFLX?datapoint=ROIC&year=${y}`)),
    );
    const out = await cell("SERIES", "NFLX", "roic", "ROIC", 2008, 2012);
    expect("value" in out && showErrors(out.value)).toEqual([
      [{ code: "#N/A", message: NOT_FOUND }, { code: "#N/A", message: NOT_FOUND }, ...values],
    ]);
  });

  it("reads the period as Q1..Q4 or TTM1..TTM4, any case", async () => {
    const q4 = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=NOPAT&year=2022&quarter=4");
    const ttm2 = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=NOPAT&year=2022&ttm=2");
    expect(await cell("SERIES", "AAPL", "roic", "NOPAT", 2022, 2022, "q4")).toEqual({ value: [[q4]] });
    expect(await cell("SERIES", "AAPL", "roic", "NOPAT", 2022, 2022, "TTM2")).toEqual({ value: [[ttm2]] });
  });

  it("fails the whole call when every year fails the same way, and checks its own arguments first", async () => {
    expect(await cell("SERIES", "AAPL", "adjusted", "NO_SUCH", 2020, 2022)).toEqual({
      code: "#N/A",
      message: NO_DATAPOINT,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROCI", 2020, 2022)).toEqual({
      outcome: {
        code: "#VALUE!",
        message: 'datapoint "ROCI" is not in dataset metrics/roic. Did you mean ROIC?',
      },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", 2020, 2022, "Q5")).toEqual({
      outcome: { code: "#VALUE!", message: 'period must be annual, Q1..Q4 or TTM1..TTM4 (got "Q5").' },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", 2023, 2020)).toEqual({
      outcome: { code: "#VALUE!", message: "to_year (2020) must not be before from_year (2023)." },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", "then", 2020)).toEqual({
      outcome: {
        code: "#VALUE!",
        message: `from_year must be a fiscal year such as 2019 or a relative period: ${GRAMMAR} (got "then").`,
      },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", 1800, 1801)).toEqual({
      outcome: { code: "#VALUE!", message: "from_year must be a fiscal year from 1900 to 2100 (got 1800)." },
      requests: 0,
    });
    expect(await cellWithRequests("SERIES", "AAPL", "roic", "ROIC", 2090, 2101)).toEqual({
      outcome: { code: "#VALUE!", message: "to_year must be a fiscal year from 1900 to 2100 (got 2101)." },
      requests: 0,
    });
  });

  it("says an omitted dataset must be text, for DATASET(,,)", async () => {
    expect(await cellWithRequests("DATASET", null, null, null)).toEqual({
      outcome: { code: "#VALUE!", message: "ticker must be non-empty text (got nothing)." },
      requests: 0,
    });
    expect(await cellWithRequests("DATASET", "AAPL", null, null)).toEqual({
      outcome: { code: "#VALUE!", message: "dataset must be non-empty text (got nothing)." },
      requests: 0,
    });
  });
});

describe("FDQ.RATING", () => {
  it("answers a rating by short name, record field name or definition number; overall by default", async () => {
    const ratings = (await serviceResults(sandbox, "ratings/component/AAPL")) as Record<string, unknown>;
    expect(await cell("RATING", "AAPL")).toEqual({ value: ratings["rating_overall"] });
    for (const field of ["roic", "RATING_ROIC", 3, "3"]) {
      expect(await cell("RATING", "aapl", field)).toEqual({ value: ratings["rating_roic"] });
    }
    expect(await cell("RATING", "AAPL", "pebv")).toEqual({
      value: ratings["rating_stock_price_sa_p_ebv_p_sosa"],
    });
    expect(await cell("RATING", "AAPL", 9)).toEqual({ value: ratings["name"] });
    const fund = (await serviceResults(sandbox, "ratings/component/GAFFX")) as Record<string, unknown>;
    expect(await cell("RATING", "GAFFX", "cash")).toEqual({ value: fund["rating_allocation_pct_cash"] });
  });

  it("gives #N/A saying so when the field does not apply to the security type", async () => {
    expect(await cell("RATING", "AAPL", "costs")).toEqual({
      code: "#N/A",
      message:
        "The costs rating (total annual costs) does not apply to AAPL: it exists for ETFs and mutual funds only.",
    });
    expect(await cell("RATING", "XLF", 8)).toEqual({
      code: "#N/A",
      message: "The cash rating (cash allocation) does not apply to XLF: it exists for mutual funds only.",
    });
  });

  it("gives #VALUE! for an unknown field before any request, #N/A for an unrated ticker", async () => {
    const bad = await cellWithRequests("RATING", "AAPL", "colour");
    expect(bad.requests).toBe(0);
    expect(bad.outcome).toEqual({
      code: "#VALUE!",
      message:
        'field must be one of overall, economic_eps, roic, fcf_yield, pebv, gap, costs, cash, name, a record field such as rating_roic, or a number 1 to 9 (got "colour").',
    });
    expect(await cell("RATING", "NOSUCHTICKER")).toEqual({
      code: "#N/A",
      message: "The requested rating information was not found.",
    });
  });
});

describe("FDQ.SECTOR", () => {
  // Sector aggregates are computed over every member by the sandbox: slow under jest, hence one sector
  // and one (smaller) industry, and a longer timeout.
  it("answers a sector or industry datapoint, also for a prior year", async () => {
    const now = await serviceNumber(sandbox, "sector/TECHNOLOGYSEC?datapoint=ROIC_AVG");
    const prior = await serviceNumber(sandbox, "sector/BEVERAGESI?datapoint=ROIC_MEDIAN&prior_year=2");
    expect(await cell("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG")).toEqual({ value: now });
    expect(await cell("SECTOR", "beveragesi", "roic_median", 2)).toEqual({ value: prior });
  }, 60_000);

  it("answers text datapoints as text", async () => {
    const [record] = await serviceRecords(sandbox, "sector/TECHNOLOGYSEC?datapoint=CATEGORY_TYPE");
    expect(await cell("SECTOR", "TECHNOLOGYSEC", "CATEGORY_TYPE")).toEqual({ value: record?.datavalue });
  });

  it("gives the spec's errors: prior year out of range (#VALUE!), not available for that year or id unknown (#N/A)", async () => {
    expect(await cellWithRequests("SECTOR", "TECHNOLOGYSEC", "ROIC_AVG", 7)).toEqual({
      outcome: {
        code: "#VALUE!",
        message: "Invalid prior year. Please submit a prior year value between 0 and 5.",
      },
      requests: 0,
    });
    expect(await cell("SECTOR", "TECHNOLOGYSEC", "COUNT_COMPANY", 2)).toEqual({
      code: "#N/A",
      message:
        "No datapoints were found; please check the name of the datapoint and/or try your request without the prior_year parameter. Some datapoints are only available in the current year.",
    });
    expect(await cell("SECTOR", "NOSUCHSEC", "ROIC_AVG")).toEqual({ code: "#N/A", message: NOT_FOUND });
  });
});

describe("FDQ.COVERAGE", () => {
  it("spills the coverage list with a header row", async () => {
    const list = (await serviceResults(sandbox, "coverage/sector")) as Record<string, string>[];
    const columns = ["ticker", "name", "type", "sector", "last_trade_date"];
    expect(await cell("COVERAGE", "Sector")).toEqual({
      value: [columns, ...list.map((s) => columns.map((c) => s[c]))],
    });
  });

  it("gives the spec's InvalidSecurityType message as #VALUE! before any request", async () => {
    expect(await cellWithRequests("COVERAGE", "bond")).toEqual({
      outcome: {
        code: "#VALUE!",
        message: "Invalid security type. Available options: stock, etf, mf, inactive, sector, and industry.",
      },
      requests: 0,
    });
  });
});

describe("FDQ.SECURITY", () => {
  it("answers a field of the security's record; the type is found when omitted", async () => {
    const [stock] = (await serviceResults(sandbox, "coverage/stock/AAPL")) as Record<string, string>[];
    const [etf] = (await serviceResults(sandbox, "coverage/etf/XLF")) as Record<string, string>[];
    const [fund] = (await serviceResults(sandbox, "coverage/mf/GAFFX")) as Record<string, string>[];
    const [fundByType] = (await serviceResults(sandbox, "coverage/mf/AUENX")) as Record<string, string>[];
    expect(await cell("SECURITY", "AAPL", "sector_name")).toEqual({ value: stock?.["sector_name"] });
    expect(await cell("SECURITY", "XLF", "NAME")).toEqual({ value: etf?.["name"] });
    expect(await cellWithRequests("SECURITY", "GAFFX", "name")).toEqual({
      outcome: { value: fund?.["name"] },
      requests: 3,
    });
    expect(await cellWithRequests("SECURITY", "AUENX", "industry", "mf")).toEqual({
      outcome: { value: fundByType?.["industry"] },
      requests: 1,
    });
  });

  it("looks a colon ticker up as an inactive stock", async () => {
    const [inactive] = (await serviceResults(sandbox, "coverage/inactive/ENRN:1")) as Record<
      string,
      string
    >[];
    expect(await cellWithRequests("SECURITY", "ENRN:1", "last_trade_date")).toEqual({
      outcome: { value: inactive?.["last_trade_date"] },
      requests: 1,
    });
  });

  it("says which types were tried for an unknown ticker, and refuses an unknown field first", async () => {
    expect(await cell("SECURITY", "NOSUCH", "name")).toEqual({
      code: "#N/A",
      message: 'The requested data was not found. ("NOSUCH" was looked up as stock, etf, mf.)',
    });
    const bad = await cellWithRequests("SECURITY", "AAPL", "colour");
    expect(bad).toEqual({
      outcome: {
        code: "#VALUE!",
        message:
          'field must be one of ticker, name, type, sector, last_trade_date, sector_name, subsector, subsector_name, industry, industry_name, subindustry, subindustry_name (got "colour").',
      },
      requests: 0,
    });
  });
});

describe("FDQ.INFO", () => {
  it("answers a datapoint's description by default, or its endpoints", async () => {
    const info = (await serviceResults(sandbox, "datapoint/ROIC")) as Record<string, string>;
    expect(await cell("INFO", "roic")).toEqual({ value: info["description"] });
    expect(await cell("INFO", "ROIC", "Endpoints")).toEqual({ value: info["endpoints"] });
  });

  it("gives #N/A for an unknown datapoint and #VALUE! for an unknown field", async () => {
    expect(await cell("INFO", "NO_SUCH_DATAPOINT")).toEqual({ code: "#N/A", message: NO_DATAPOINT });
    expect(await cellWithRequests("INFO", "ROIC", "sign")).toEqual({
      outcome: { code: "#VALUE!", message: 'field must be description or endpoints (got "sign").' },
      requests: 0,
    });
  });
});

describe("connection failures: #N/A saying what failed and what to do", () => {
  it("reports a refused API key", async () => {
    useSandboxClient("not-the-key");
    const refused = {
      code: "#N/A",
      message: "The FDQ service refused the API key (403). Check the key in the FDQ task pane.",
    };
    expect(await cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023)).toEqual(refused);
    expect(await cell("COVERAGE", "etf")).toEqual(refused);
    expect(await cell("SERIES", "AAPL", "roic", "ROIC", 2020, 2022)).toEqual(refused);
  });

  it("reports a missing API key without requesting anything", async () => {
    await resetSharedClient();
    expect(await cellWithRequests("RATING", "AAPL")).toEqual({
      outcome: { code: "#N/A", message: "No FDQ API key is set. Enter the key in the FDQ task pane." },
      requests: 0,
    });
  });

  it("reports a service that cannot be reached", async () => {
    const closed = await startSandbox({ port: 0 });
    const url = closed.baseUrl;
    await closed.close();
    useSandboxClient(sandbox.demoKey, url);
    const out = await cell("INFO", "ROIC");
    expect(out).toEqual({
      code: "#N/A",
      message: expect.stringMatching(
        /^Could not reach the FDQ service \(.+\)\. Check the network connection and the base URL in the FDQ task pane\.$/,
      ),
    });
  });

  it("reports a service failure (503) and throttling (429)", async () => {
    const failing = await startSandbox({ port: 0, faults: { rate503: 1 } });
    const throttled = await startSandbox({ port: 0, faults: { rate429: 1, retryAfterSeconds: 0 } });
    try {
      useSandboxClient(failing.demoKey, failing.baseUrl);
      expect(await cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023)).toEqual({
        code: "#N/A",
        message:
          "The FDQ service is unavailable (503: Service Unavailable). Try again later, then recalculate.",
      });
      useSandboxClient(throttled.demoKey, throttled.baseUrl);
      expect(await cell("DATAPOINT", "AAPL", "roic", "ROIC", 2023)).toEqual({
        code: "#N/A",
        message:
          "The FDQ service is limiting the request rate (429) and the retries did not get through. Wait a minute, then recalculate.",
      });
    } finally {
      await resetSharedClient();
      await failing.close();
      await throttled.close();
    }
  });
});
