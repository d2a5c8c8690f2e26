import path from "node:path";
import {
  accountTag,
  DataNotFoundError,
  type ErrorHints,
  FdqClient,
  InvalidArgumentError,
  UnauthorizedError,
} from "../../../src/api";
import { budgetMessage } from "../../../src/cli/budget";
import { cacheFileFor, formatStats } from "../../../src/cli/connection";
import { cliHints } from "../../../src/cli/hints";
import { fileLines, parseAll } from "../../../src/cli/eval-command";
import { formatJson, formatPlain, formatResults, type FormulaResult } from "../../../src/cli/format";
import {
  defaultCacheDir,
  parseEvalArgs,
  parseRefreshArgs,
  parseUsageArgs,
  UsageError,
} from "../../../src/cli/options";
import { formatUsage } from "../../../src/cli/usage-command";
import { describeFailure } from "../../../src/functions/errors";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";
import { RELATIVE_GRAMMAR } from "../../../src/catalog";

describe("describeFailure: the one mapping from a failure to an Excel error", () => {
  it("uses the request module's table: argument errors #VALUE!, everything else #N/A, message kept", () => {
    expect(
      describeFailure(
        new InvalidArgumentError({
          argument: "year",
          message: `year must be a fiscal year such as 2023 or a relative period: ${RELATIVE_GRAMMAR} (got "x").`,
        }),
      ),
    ).toEqual({
      error: "#VALUE!",
      message: `year must be a fiscal year such as 2023 or a relative period: ${RELATIVE_GRAMMAR} (got "x").`,
    });
    expect(describeFailure(new DataNotFoundError())).toEqual({
      error: "#N/A",
      message: "The requested data was not found.",
    });
    expect(describeFailure(new UnauthorizedError({ status: 403, hints: EXCEL_HINTS }))).toEqual({
      error: "#N/A",
      message: "The FDQ service refused the API key (403). Check the key in the FDQ task pane.",
    });
  });

  it("turns a bug (any other exception) into #N/A with a message instead of Excel's bare #VALUE!", () => {
    expect(describeFailure(new TypeError("x is undefined"))).toEqual({
      error: "#N/A",
      message: "FDQ internal error: x is undefined. Please report it.",
    });
    expect(describeFailure("boom")).toEqual({
      error: "#N/A",
      message: "FDQ internal error: boom. Please report it.",
    });
  });
});

describe("fdq eval output", () => {
  it("prints a value as is, a spill as tab-separated rows, an error as code, space, message", () => {
    expect(formatPlain({ ok: true, value: 0.1234 })).toBe("0.1234");
    expect(
      formatPlain({
        ok: true,
        value: [
          ["A", 1],
          ["B", { error: "#N/A", message: "none" }],
        ],
      }),
    ).toBe("A\t1\nB\t#N/A none");
    expect(
      formatPlain({
        ok: false,
        error: { error: "#N/A", message: "The requested datapoint was not found." },
        noAnswer: false,
      }),
    ).toBe("#N/A The requested datapoint was not found.");
  });

  it("labels each value with its formula, one column of values, a spill's rows under its first", () => {
    const results: FormulaResult[] = [
      { formula: '=FDQ.RATING("AAPL")', line: 1, outcome: { ok: true, value: 3 } },
      {
        formula: '=FDQ.DATASET("AAPL","roic",2023)',
        line: 2,
        outcome: {
          ok: true,
          value: [
            ["NOPAT", 1],
            ["ROIC", 0.5],
          ],
        },
      },
      { formula: "=FDQ.RATING(A1)", line: 4, problem: "Cell references are not supported: A1" },
    ];
    expect(formatResults(results, { json: false, valuesOnly: false })).toBe(
      '=FDQ.RATING("AAPL")               3\n' +
        '=FDQ.DATASET("AAPL","roic",2023)  NOPAT\t1\n' +
        "                                  ROIC\t0.5\n" +
        "=FDQ.RATING(A1)                   usage error at line 4: Cell references are not supported: A1\n",
    );
    expect(formatResults(results, { json: false, valuesOnly: true })).toBe(
      "3\nNOPAT\t1\nROIC\t0.5\nusage error at line 4: Cell references are not supported: A1\n",
    );
    expect(formatResults(results, { json: true, valuesOnly: false })).toBe(
      '{"formula":"=FDQ.RATING(\\"AAPL\\")","value":3}\n' +
        '{"formula":"=FDQ.DATASET(\\"AAPL\\",\\"roic\\",2023)","value":[["NOPAT",1],["ROIC",0.5]]}\n' +
        '{"formula":"=FDQ.RATING(A1)","line":4,"error":"usage","message":"Cell references are not supported: A1"}\n',
    );
  });

  it("prints one JSON value per formula with --json --values-only", () => {
    expect(formatJson({ ok: true, value: "Apple Inc." })).toBe('"Apple Inc."');
    expect(formatJson({ ok: true, value: [[1, { error: "#N/A", message: "m" }]] })).toBe(
      '[[1,{"error":"#N/A","message":"m"}]]',
    );
    expect(formatJson({ ok: false, error: { error: "#VALUE!", message: "m" }, noAnswer: false })).toBe(
      '{"error":"#VALUE!","message":"m"}',
    );
  });
});

describe("fdq options", () => {
  it("takes flags over environment variables over defaults", () => {
    const env = {
      FDQ_BASE_URL: "https://env.example/v1",
      FDQ_API_KEY: "env-key",
      HOME: "/h",
      XDG_CACHE_HOME: "/xdg",
    };
    const fromEnv = parseEvalArgs(['=FDQ.INFO("ROIC")'], env);
    expect(fromEnv).toMatchObject({
      baseUrl: "https://env.example/v1",
      apiKey: "env-key",
      cacheDir: "/xdg/fdq",
    });
    const flags = parseEvalArgs(
      [
        "--base-url",
        "https://flag.example/v1",
        "--api-key",
        "k",
        "--cache-dir",
        "/c",
        "--no-cache",
        "--stats",
        "--json",
        "--values-only",
        "--concurrency",
        "12",
        "--billing",
        "per-request",
        "--budget",
        "1,000",
        "--with-source",
        "--card-metric",
        "roic:ROIC:FY0",
        "-f",
        "m.txt",
      ],
      env,
    );
    expect(flags).toEqual({
      baseUrl: "https://flag.example/v1",
      apiKey: "k",
      cacheDir: "/c",
      noCache: true,
      sandbox: false,
      stats: true,
      concurrency: 12,
      billing: "per-request",
      budget: 1000,
      json: true,
      valuesOnly: true,
      values: { withSource: true, cardMetrics: [{ dataset: "roic", name: "ROIC", period: "FY0" }] },
      file: "m.txt",
      formulas: [],
    });
    expect(parseEvalArgs(["x"], {})).toMatchObject({
      baseUrl: undefined,
      apiKey: undefined,
      concurrency: undefined,
      billing: "per-datapoint",
      budget: undefined,
    });
    expect(parseEvalArgs(["x"], { FDQ_BILLING: "Per-Request" }).billing).toBe("per-request");
    expect(
      parseRefreshArgs(["b.xlsx", "--billing", "per-datapoint"], { FDQ_BILLING: "per-request" }),
    ).toMatchObject({
      billing: "per-datapoint",
    });
  });

  it.each([
    [["--billing", "monthly", "x"], {}, '--billing must be per-datapoint or per-request, not "monthly".'],
    [["x"], { FDQ_BILLING: "free" }, 'FDQ_BILLING must be per-datapoint or per-request, not "free".'],
    [["--budget", "-1", "x"], {}, "ambiguous"],
    [["--budget", "1.5", "x"], {}, '--budget must be a whole number of 0 or more quota units, not "1.5".'],
    [["--budget", "lots", "x"], {}, '--budget must be a whole number of 0 or more quota units, not "lots".'],
  ])("refuses %p (env %p)", (args, env, message) => {
    expect(() => parseEvalArgs(args, env)).toThrow(message);
  });

  it("reads fdq usage's options: connection, --json, --plan-raised, --plan (default 10,000)", () => {
    expect(
      parseUsageArgs(["--json", "--plan-raised", "--plan", "25000", "--cache-dir", "/c"], {}),
    ).toMatchObject({
      json: true,
      planRaised: true,
      plan: 25000,
      cacheDir: "/c",
    });
    expect(parseUsageArgs([], {})).toMatchObject({ json: false, planRaised: false, plan: 10_000 });
    expect(() => parseUsageArgs(["--plan", "0"], {})).toThrow(
      '--plan must be a whole number of 1 or more quota units, not "0".',
    );
    expect(() => parseUsageArgs(["--budget", "5"], {})).toThrow(UsageError);
    expect(() => parseUsageArgs(["today"], {})).toThrow('fdq usage takes no arguments (got "today").');
  });

  it.each(["0", "65", "2.5", "six", ""])("refuses --concurrency %p: a whole number from 1 to 64", (n) => {
    expect(() => parseEvalArgs(["--concurrency", n, "x"], {})).toThrow(
      new UsageError(`--concurrency must be a whole number from 1 to 64, not "${n}".`),
    );
  });

  it("defaults the cache to $XDG_CACHE_HOME/fdq", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x" })).toBe(path.join("/x", "fdq"));
  });

  it("refuses unknown options, formulas with -f, and --sandbox with --base-url", () => {
    expect(() => parseEvalArgs(["--nope", "x"], {})).toThrow(UsageError);
    expect(() => parseEvalArgs(["-f", "m.txt", "x"], {})).toThrow(
      "give formulas as arguments or in a file (-f FILE), not both.",
    );
    expect(() => parseEvalArgs([], {})).toThrow(/^no formula given/);
    expect(() => parseEvalArgs(["--sandbox", "--base-url", "http://127.0.0.1:1/v1", "x"], {})).toThrow(
      "--sandbox and --base-url exclude each other: --sandbox evaluates against its own sandbox.",
    );
    expect(parseRefreshArgs(["book.xlsx", "-o", "out.xlsx"], {})).toMatchObject({
      workbook: "book.xlsx",
      out: "out.xlsx",
    });
  });

  it("keeps one cache file per service and account, named after the service and the key's one-way tag", () => {
    const tag = accountTag("key-1");
    expect(cacheFileFor("/c", "http://127.0.0.1:4010/v1", "key-1")).toBe(
      path.join("/c", `127.0.0.1_4010_v1.${tag}.json`),
    );
    expect(cacheFileFor("/c", "https://api.newconstructs.com/v1", " key-1 ")).toBe(
      path.join("/c", `api.newconstructs.com_v1.${tag}.json`),
    );
    expect(cacheFileFor("/c", "http://127.0.0.1:4010/v1", "key-2")).not.toBe(
      cacheFileFor("/c", "http://127.0.0.1:4010/v1", "key-1"),
    );
    expect(cacheFileFor("/c", "http://127.0.0.1:4010/v1", "key-1")).not.toContain("key-1");
  });
});

describe("fdq's quota messages", () => {
  it("--stats gives the units spent beside the requests", () => {
    expect(
      formatStats({
        requestsSent: 4,
        redirects: 0,
        unitsSpent: 27,
        cacheHits: 1,
        coalescedCalls: 2,
        retries: 0,
        failures: { QuotaExhaustedError: 1 },
        inFlight: 0,
        queued: 0,
        maxInFlight: 2,
        cacheEntries: 3,
      }),
    ).toBe(
      "fdq stats: requests sent 4, units spent 27, cache hits 1, coalesced calls 2, retries 0, failures QuotaExhaustedError 1",
    );
  });

  it("--budget says what the run would spend, with thousands separated", () => {
    const estimate = { requests: 500, requestsNeeded: 456, units: 1234, planned: [] };
    expect(budgetMessage(estimate, 1000)).toBe(
      "this run would spend about 1,234 quota units (456 requests not in today's cache); --budget is 1,000. Nothing was sent.",
    );
    expect(budgetMessage({ ...estimate, requestsNeeded: 1, units: 1 }, 0)).toBe(
      "this run would spend about 1 quota unit (1 request not in today's cache); --budget is 0. Nothing was sent.",
    );
  });

  it("--budget says 'at most' while the day's coverage list, not in today's cache, decides some tickers' requests", () => {
    const estimate = {
      requests: 3,
      requestsNeeded: 3,
      units: 3,
      planned: [],
      ifListed: { requests: 2, units: 2, byTicker: { ZZZZ: { requests: 2, units: 2 } } },
    };
    expect(budgetMessage(estimate, 1)).toBe(
      "this run would spend at most 3 quota units (3 requests not in today's cache; less if the day's ticker coverage list, asked first, does not list some tickers); --budget is 1. Nothing was sent.",
    );
  });

  it("fdq usage prints the total of the plan, the days in order, the datasets largest first", () => {
    const report = {
      month: "2026-11",
      units: 10_250,
      byDay: { "2026-11-03": 250, "2026-11-02": 10_000 },
      byDataset: { ratings: 250, "metrics/roic": 10_000 },
      exhausted: true,
      exhaustedOn: "2026-11-03",
      resetsOn: "2026-12-01",
    };
    expect(formatUsage(report, 10_000, "in /c/f.json")).toBe(
      [
        "FDQ quota units of 2026-11 (US Central time), as counted by fdq in /c/f.json:",
        "  Used up: the service refused on 2026-11-03 (429 Limit Exceeded); the ledger counted 10,250 units this month; the quota resets on 2026-12-01.",
        '  fdq sends no request until 2026-12-01. If your plan was raised, run "fdq usage --plan-raised".',
        "By day:",
        "  2026-11-02  10,000",
        "  2026-11-03     250",
        "By dataset:",
        "  metrics/roic  10,000",
        "  ratings          250",
        "",
      ].join("\n"),
    );
  });
});

describe("formula files", () => {
  it("skips blank and # lines and reports every syntax error with file and line, evaluating nothing", () => {
    const lines = fileLines("m.txt", '# model\n=FDQ.RATING("AAPL")\n\n=FDQ.RATING(A1)\n=SUM(1)\n');
    expect(lines.map((l) => l.where)).toEqual(["m.txt:2", "m.txt:4", "m.txt:5"]);
    expect(() => parseAll(lines)).toThrow(
      new UsageError(
        "m.txt:4: Cell references are not supported: A1; use a literal value (at character 13)\n" +
          "m.txt:5: Only FDQ functions are supported, not SUM; the FDQ functions are FDQ.DATAPOINT, FDQ.DATASET, FDQ.SERIES, FDQ.RATING, FDQ.SECTOR, FDQ.COVERAGE, FDQ.SECURITY, FDQ.INFO, FDQ.CARD (at character 2)",
      ),
    );
  });
});

describe("fdq's hints", () => {
  const unreachable = (hints: ErrorHints) =>
    new FdqClient({
      baseUrl: "http://127.0.0.1:4010/v1",
      apiKey: "k",
      retry: { attempts: 1 },
      hints,
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    })
      .ratings("AAPL")
      .then(
        () => "",
        (e: Error) => e.message,
      );

  it("suggests starting the sandbox when fdq talks to the default local sandbox", async () => {
    expect(await unreachable(cliHints(true))).toBe(
      'Could not reach the FDQ service (fetch failed). Is the local sandbox running? Start it with "npm run sandbox", or pass --sandbox to start one for this run, or give the service with --base-url or FDQ_BASE_URL.',
    );
    expect(await unreachable(cliHints(false))).toBe(
      "Could not reach the FDQ service (fetch failed). Check the network connection and the base URL (--base-url or FDQ_BASE_URL).",
    );
  });
});
