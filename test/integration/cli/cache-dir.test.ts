// `fdq eval` processes sharing one cache directory (issue 13): three runs at once merge their answers into
// the account's cache file, so a fourth needs no request (counted at the sandbox); every field of the file
// corrupted in turn gives the next run correct values, a warning and a bounded peak memory; a save that
// fails leaves no temporary file; two keys on one base URL each keep their own file. Every run whose process is
// the point (memory, concurrency, exit) is an `fdq` process; the check that a repaired file is clean runs what
// `fdq eval` runs (parseEvalArgs, runEval) in this process, sparing a process start per corrupted case.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accountTag, centralDay } from "../../../src/api";
import { runEval } from "../../../src/cli/eval-command";
import { parseEvalArgs } from "../../../src/cli/options";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { BIN, ROOT, runFdq, type Run } from "./run-fdq";

const MAX_RSS = path.join(ROOT, "test/support/max-rss.js");
const SECOND_KEY = "second-account-key-0123456789";
/** Generous: a run takes about 170 MB; the damaged file of issue 13 took 4.5 GB. */
const RSS_BOUND_KB = 400_000;

let sandbox: RunningSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKeys: [SECOND_KEY] });
  home = mkdtempSync(path.join(tmpdir(), "fdq-home-"));
});
afterAll(() => sandbox.close());

const newCacheDir = () => mkdtempSync(path.join(tmpdir(), "fdq-cache-dir-"));

interface Measured extends Run {
  maxRssKb: number;
}

/** fdq eval on the sandbox with max-rss.js preloaded, which writes the run's peak memory to a file. */
async function fdq(
  cacheDir: string,
  formulas: string[],
  key = sandbox.demoKey,
  extra: string[] = [],
): Promise<Measured> {
  const args = [
    "eval",
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    key,
    "--cache-dir",
    cacheDir,
    ...extra,
    ...formulas,
  ];
  const rssFile = path.join(mkdtempSync(path.join(tmpdir(), "fdq-rss-")), "rss");
  const env = {
    ...process.env,
    XDG_CACHE_HOME: home,
    FDQ_BASE_URL: "",
    FDQ_API_KEY: "",
    FDQ_TEST_MAX_RSS_FILE: rssFile,
  };
  const run = await runFdq(args, env, [process.execPath, "-r", MAX_RSS, BIN]);
  return { ...run, maxRssKb: Number(readFileSync(rssFile, "utf8")) };
}

/**
 * `fdq eval` on the sandbox as the process runs it (its options, runEval), in this process: what it writes to
 * stdout and stderr, captured, and its status (0; a usage error or failure throws, which fails the test).
 */
async function fdqInProcess(cacheDir: string, formulas: string[]): Promise<Run> {
  const options = parseEvalArgs(
    ["--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--cache-dir", cacheDir, ...formulas],
    { XDG_CACHE_HOME: home },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  };
  const out = jest.spyOn(process.stdout, "write").mockImplementation(capture(stdout));
  const err = jest.spyOn(process.stderr, "write").mockImplementation(capture(stderr));
  try {
    const code = await runEval(options);
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const formulas = (ticker: string) =>
  [2019, 2020, 2021, 2022, 2023].map((y) => `=FDQ.DATAPOINT("${ticker}","roic","ROIC",${y})`);
const PARTS = [formulas("AAPL"), formulas("MSFT"), formulas("NFLX")];
const MODEL = PARTS.flat();

const cacheFile = (cacheDir: string, key = sandbox.demoKey) =>
  path.join(cacheDir, `127.0.0.1_${new URL(sandbox.baseUrl).port}_v1.${accountTag(key)}.json`);

/** The formulas' answers, fetched once into a cache of their own. */
let expected: string;
beforeAll(async () => {
  const out = await fdq(newCacheDir(), MODEL);
  expect(out.code).toBe(0);
  expected = out.stdout;
}, 60_000);

describe("three fdq runs at once on one cache directory", () => {
  it("keep what each fetched: a fourth run sends no request", async () => {
    const cacheDir = newCacheDir();
    const runs = await Promise.all(PARTS.map((part) => fdq(cacheDir, part)));
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(runs.map((r) => r.stdout).join("")).toBe(expected);

    const before = sandbox.stats().requests;
    const fourth = await fdq(cacheDir, MODEL, sandbox.demoKey, ["--stats"]);
    expect(fourth.stdout).toBe(expected);
    expect(fourth.stderr).toMatch(/^fdq stats: requests sent 0, units spent 0, cache hits 15,/);
    expect(sandbox.stats().requests).toBe(before);
    // One file for the account, no temporary file or lock left.
    expect(readdirSync(cacheDir)).toEqual([path.basename(cacheFile(cacheDir))]);
  }, 120_000);
});

/** Every answer record of the file and its meta record, by key. */
function cacheRecords(file: string): { all: Record<string, string>; meta: string; entries: string[] } {
  const all = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  const meta = Object.keys(all).find((k) => k.endsWith("\nmeta"))!;
  const entries = Object.keys(all).filter((k) => k.includes("\ne:"));
  return { all, meta, entries };
}

type Edit = (records: ReturnType<typeof cacheRecords>) => string;

const editMeta =
  (change: Record<string, unknown>): Edit =>
  ({ all, meta }) =>
    JSON.stringify({ ...all, [meta]: JSON.stringify({ ...JSON.parse(all[meta]!), ...change }) });

/** Changes item `i` of every answer record ([encoded value, fetched day, written at]). */
const editEntries =
  (i: number, value: unknown): Edit =>
  ({ all, entries }) => {
    const out = { ...all };
    for (const k of entries) {
      const item = JSON.parse(out[k]!) as unknown[];
      item[i] = value;
      out[k] = JSON.stringify(item);
    }
    return JSON.stringify(out);
  };

describe("a corrupted cache file", () => {
  const cases: [string, Edit, RegExp | null][] = [
    ["truncated JSON", ({ all }) => JSON.stringify(all).slice(0, 200), /could not be read and was discarded/],
    ["a list in place of the object", () => "[1,2,3]", /could not be read and was discarded/],
    ["the meta's format version", editMeta({ v: 99 }), /has an unknown format and was discarded/],
    [
      "the meta's scope: another account's tag",
      (records) => editMeta({ scope: `${accountTag(SECOND_KEY)}@${sandbox.baseUrl}` })(records),
      /belongs to another API key/,
    ],
    ["the meta's scope of the wrong type", editMeta({ scope: 42 }), /has an unknown format/],
    ["the meta's day far in the future", editMeta({ day: "2999-12-31" }), /names a day in the future/],
    ["the meta's day not a date", editMeta({ day: "yesterday" }), /that is not a date/],
    ["the meta's window reversed", editMeta({ from: 2e12, until: 1e12 }), /window that is not a time span/],
    ["the meta's window huge", editMeta({ from: 1e300, until: 2e300 }), /window that starts in the future/],
    ["the meta's window as text", editMeta({ from: "a", until: "b" }), /window that is not a time span/],
    [
      "the meta's window stretched by a day",
      (records) => {
        const m = JSON.parse(records.all[records.meta]!) as { until: number };
        return editMeta({ until: m.until + 86_400_000 })(records);
      },
      /day was not trusted/,
    ],
    ["the meta's clock of the wrong type", editMeta({ clock: 12 }), /clock that is not a text/],
    [
      "the meta record missing",
      ({ all, meta }) => JSON.stringify({ ...all, [meta]: undefined }),
      /has no meta record/,
    ],
    [
      "the meta record not JSON",
      ({ all, meta }) => JSON.stringify({ ...all, [meta]: "{" }),
      /meta record that is not JSON/,
    ],
    [
      "the meta record huge",
      ({ all, meta }) => JSON.stringify({ ...all, [meta]: "x".repeat(50_000) }),
      /meta record that is too long/,
    ],
    ["the answers' values of the wrong kind", editEntries(0, [9, "x"]), /damaged entries, discarded/],
    [
      "the answers' values claiming 10,000,000 datapoints",
      editEntries(0, [4, ["AAPL", 2023, 0, "ANNUAL", "ANNUAL"], { length: 1e7 }, [], null]),
      /damaged entries/,
    ],
    ["the answers' days in the future", editEntries(1, "2999-01-01"), /damaged entries/],
    ["the answers' days of the wrong type", editEntries(1, 20240101), /damaged entries/],
    ["the answers' write times huge", editEntries(2, 1e300), /damaged entries/],
    // An earlier day's answers are stale by design: fetched again, without a warning.
    ["the answers' days in the past", editEntries(1, "2001-01-01"), null],
    [
      "every record of the wrong type",
      ({ all }) => JSON.stringify(Object.fromEntries(Object.keys(all).map((k) => [k, 7]))),
      /could not be read and was discarded \(.* holds a record that is not a text\)/,
    ],
  ];

  /** The file of a run of PARTS[0], corrupted anew for each case. */
  let template: string;
  beforeAll(async () => {
    const cacheDir = newCacheDir();
    expect((await fdq(cacheDir, PARTS[0]!)).code).toBe(0);
    template = cacheFile(cacheDir);
  }, 60_000);

  it.each(cases)(
    "(%s): the next run gives the right values, warns, and stays bounded in memory",
    async (_, edit, warning) => {
      const cacheDir = newCacheDir();
      writeFileSync(cacheFile(cacheDir), edit(cacheRecords(template)));

      const out = await fdq(cacheDir, PARTS[0]!);
      expect(out.code).toBe(0);
      expect(out.stdout).toBe(expected.split("\n").slice(0, 5).join("\n") + "\n");
      if (warning) expect(out.stderr).toMatch(warning);
      else expect(out.stderr).toBe("");
      expect(out.stderr.split("\n").every((l) => l === "" || l.startsWith("fdq: warning: "))).toBe(true);
      expect(out.maxRssKb).toBeLessThan(RSS_BOUND_KB);

      // The run replaced what it could not use: the one after it answers from the cache without a warning.
      const before = sandbox.stats().requests;
      const next = await fdqInProcess(cacheDir, PARTS[0]!);
      expect(next).toMatchObject({ code: 0, stdout: out.stdout, stderr: "" });
      expect(sandbox.stats().requests).toBe(before);
    },
    60_000,
  );
});

describe("a save that fails", () => {
  it("leaves no temporary file (a directory where the cache file should be)", async () => {
    const cacheDir = newCacheDir();
    const file = cacheFile(cacheDir);
    mkdirSync(path.join(file, "in-the-way"), { recursive: true });
    const out = await fdq(cacheDir, PARTS[0]!);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(expected.split("\n").slice(0, 5).join("\n") + "\n");
    expect(out.stderr).toMatch(
      /^fdq: warning: The saved FDQ cache could not be read and was discarded \(EISDIR/,
    );
    expect(out.stderr).toMatch(/fdq: warning: The FDQ cache could not be saved \(/);
    expect(readdirSync(cacheDir)).toEqual([path.basename(file)]);
    expect(readdirSync(file)).toEqual(["in-the-way"]);
  }, 60_000);
});

describe("two API keys on one base URL", () => {
  it("each keep their own cache file: neither discards the other's", async () => {
    const cacheDir = newCacheDir();
    expect((await fdq(cacheDir, PARTS[0]!)).stderr).toBe("");
    expect((await fdq(cacheDir, PARTS[0]!, SECOND_KEY)).stderr).toBe("");
    const before = sandbox.stats().requests;
    const again = await Promise.all([fdq(cacheDir, PARTS[0]!), fdq(cacheDir, PARTS[0]!, SECOND_KEY)]);
    for (const run of again) expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(sandbox.stats().requests).toBe(before);
    expect(readdirSync(cacheDir).sort()).toEqual(
      [cacheFile(cacheDir), cacheFile(cacheDir, SECOND_KEY)].map((f) => path.basename(f)).sort(),
    );
    for (const f of readdirSync(cacheDir)) {
      const text = readFileSync(path.join(cacheDir, f), "utf8");
      expect(text).not.toContain(sandbox.demoKey);
      expect(text).not.toContain(SECOND_KEY);
    }
  }, 60_000);
});

describe("the cache file of an earlier fdq (one per service)", () => {
  it("gives its month's usage ledger to the account's new file once, then is removed", async () => {
    const cacheDir = newCacheDir();
    const month = centralDay(Date.now()).slice(0, 7);
    const ledger = {
      v: 1,
      month,
      byDay: { [`${month}-01`]: 7 },
      byDataset: { "metrics/roic": 7 },
      exhausted: false,
    };
    const legacy = path.join(cacheDir, `127.0.0.1_${new URL(sandbox.baseUrl).port}_v1.json`);
    writeFileSync(
      legacy,
      JSON.stringify({ [`fdq.usage.${accountTag(sandbox.demoKey)}`]: JSON.stringify(ledger) }),
    );
    const args = [
      "usage",
      "--json",
      "--base-url",
      sandbox.baseUrl,
      "--api-key",
      sandbox.demoKey,
      "--cache-dir",
      cacheDir,
    ];
    const env = { ...process.env, XDG_CACHE_HOME: home, FDQ_BASE_URL: "", FDQ_API_KEY: "" };
    const out = await runFdq(args, env);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ month, units: 7, byDataset: { "metrics/roic": 7 } });
    expect(readdirSync(cacheDir)).toEqual([path.basename(cacheFile(cacheDir))]);
  }, 60_000);
});
