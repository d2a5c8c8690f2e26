// `fdq eval` and `fdq refresh` as processes against the hostile service: each formula's exact outcome, and
// the key (in any encoding) in no output, no file under the cache directory and no part of the written
// workbook. Eleven 50 MB bodies cost a bounded amount of memory.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { startHostile } from "../../support/hostile-server";
import { readBook, TestBook } from "../../support/xlsx-corpus/test-book";
import { BIN, ROOT, runFdq, type Run } from "../cli/run-fdq";
import { SHOW_FIGURES } from "../gateway/figures";
import { ECHOES, KEY, echoId, hostileScript, leaks, unreadableWith, useHostileService } from "./cases";

const unreadable = unreadableWith("Check the base URL (--base-url or FDQ_BASE_URL): it must end in /v1.");

const hostile = useHostileService();

const tempDir = (prefix: string): string => mkdtempSync(path.join(tmpdir(), prefix));

/** fdq with the key in FDQ_API_KEY (so it is in no argument list) and a private cache directory. */
function fdq(
  args: string[],
  cacheDir: string,
  baseUrl = hostile.service.baseUrl,
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  return runFdq(
    [...args, "--base-url", baseUrl, "--cache-dir", cacheDir],
    { ...process.env, XDG_CACHE_HOME: cacheDir, FDQ_BASE_URL: "", FDQ_API_KEY: KEY, ...env },
    [process.execPath, "-r", path.join(ROOT, "test/support/max-rss.js"), BIN],
  );
}

function formulaFile(lines: string[]): string {
  const file = path.join(tempDir("fdq-hostile-"), "model.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** Every file under `dir`, recursively: the cache may be one file or several, under any name. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

const leaksInFiles = (dir: string): string[] =>
  filesUnder(dir).flatMap((f) => leaks(readFileSync(f, "latin1")).map((l) => `${path.basename(f)}: ${l}`));

const dp = (ticker: string): string => `=FDQ.DATAPOINT("${ticker}","metrics/roic","ROIC",2023)`;
const na = (formula: string, message: string): unknown => ({ formula, error: "#N/A", message });
const value = (formula: string, v: unknown): unknown => ({ formula, value: v });

/** The formulas of the echo cases and their outcomes (the key shown as redacted). */
const echoRows = ECHOES.flatMap((e, i) => {
  const id = echoId(i);
  return [
    na(dp(id), `The FDQ service answered 400 (bad key ${e.shown}). Check the formula's arguments.`),
    value(`=FDQ.SECURITY("${id}","name")`, `Corp ${e.shown}`),
    value(`=FDQ.RATING("${id}","name")`, `Corp ${e.shown}`),
    value(`=FDQ.SECTOR("${id}","CATEGORY_TYPE")`, `sector ${e.shown}`),
    value(`=FDQ.INFO("ECHO_${id}")`, `About ${e.shown}`),
  ];
});

const wrongRows = [
  na(dp("OTHERTICKER"), unreadable("an answer for ticker MSFT, not OTHERTICKER (datapoint ROIC)")),
  na(
    dp("OTHERYEAR"),
    unreadable("an answer for ANNUAL period 5 of 2022, not ANNUAL period 5 of 2023 (datapoint ROIC)"),
  ),
  na(
    dp("OTHERPERIOD"),
    unreadable("an answer for QUARTERLY period 2 of 2023, not ANNUAL period 5 of 2023 (datapoint ROIC)"),
  ),
  na(dp("OTHERDATAPOINT"), unreadable("an answer for datapoint NOPAT, not ROIC")),
  na(dp("DUPLICATE"), unreadable("datapoint ROIC answered twice")),
  na(dp("INFINITE"), unreadable('datapoint ROIC has no finite decimal value (got "1e999")')),
  na(dp("NAN"), unreadable('datapoint ROIC has no finite decimal value (got "NaN")')),
  na(dp("EMPTY"), unreadable('datapoint ROIC has no finite decimal value (got "")')),
  na(dp("HUGE"), unreadable("an answer larger than 4 MB")),
  value(dp("BF.B"), 0.5),
  value(dp("OK"), 0.25),
];

const formulasOf = (rows: unknown[]): string[] => rows.map((r) => (r as { formula: string }).formula);
// Where a value came from (year, period, filing type, refresh day) is fdq eval's provenance, asserted by
// test/integration/cli/fdq-eval-periods.test.ts; here only the outcome of each hostile answer counts.
const PROVENANCE = ["year", "period", "periodtype", "filingtype", "refreshDay", "resolved", "sources"];
const parsed = (out: Run): unknown[] =>
  out.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !PROVENANCE.includes(k))));

describe("fdq eval", () => {
  it("prints each hostile answer's exact outcome, and the key in no output or cache file", async () => {
    const cacheDir = tempDir("fdq-hostile-cache-");
    const rows = [...echoRows, ...wrongRows];
    const file = formulaFile(formulasOf(rows));
    const first = await fdq(["eval", "--json", "-f", file], cacheDir);
    expect(first.stderr).toBe("");
    expect(parsed(first)).toEqual(rows);
    expect(first.code).toBe(0);
    // Again from the cache: the same outcomes, the wrong answers asked again (never cached).
    const before = hostile.service.seen.length;
    const second = await fdq(["eval", "--json", "-f", file], cacheDir);
    expect(parsed(second)).toEqual(rows);
    const asked = hostile.service.seen
      .slice(before)
      .map((s) => decodeURIComponent(s.path.split("?")[0]!.split("/").pop()!));
    // "stock": the day's coverage list, which this service answers with an error, so no run keeps it.
    expect(asked.filter((id) => !/^E\d+$/.test(id)).sort()).toEqual([
      "DUPLICATE",
      "EMPTY",
      "HUGE",
      "INFINITE",
      "NAN",
      "OTHERDATAPOINT",
      "OTHERPERIOD",
      "OTHERTICKER",
      "OTHERYEAR",
      "stock",
    ]);
    expect(leaks(first.stdout + first.stderr + second.stdout + second.stderr)).toEqual([]);
    expect(filesUnder(cacheDir).length).toBeGreaterThan(0);
    expect(leaksInFiles(cacheDir)).toEqual([]);
  });

  it("never follows a redirect to another origin: the other server sees no request", async () => {
    const out = await fdq(["eval", "--json", dp("AWAY")], tempDir("fdq-hostile-cache-"));
    expect(parsed(out)).toEqual([
      na(
        dp("AWAY"),
        unreadable(
          `a redirect to ${hostile.elsewhere.origin}, another origin, where the API key is not sent`,
        ),
      ),
    ]);
    expect(hostile.elsewhere.seen).toEqual([]);
  });

  it("retries a 429 whose Retry-After is -5 after its own backoff, and counts it", async () => {
    const out = await fdq(["eval", "--json", "--stats", dp("THROTTLE")], tempDir("fdq-hostile-cache-"));
    expect(parsed(out)).toEqual([value(dp("THROTTLE"), 0.75)]);
    // The coverage list (answered with an error by this service: the data request is sent all the same), then the throttled
    // data request and its retry.
    expect(out.stderr).toMatch(
      /^fdq stats: requests sent 3, units spent 1, cache hits 0, coalesced calls 0, retries 1,/,
    );
  });

  it("survives eleven 50 MB bodies: errors for those cells, values for the rest, memory bounded", async () => {
    const huge = Array.from({ length: 11 }, (_, i) => dp(`HUGE${i + 1}`));
    const rows = [
      ...huge.map((f) => na(f, unreadable("an answer larger than 4 MB"))),
      value(dp("OK"), 0.25),
      value(dp("BF.B"), 0.5),
    ];
    const rssFile = path.join(tempDir("fdq-rss-"), "rss");
    const out = await fdq(
      ["eval", "--json", "-f", formulaFile(formulasOf(rows))],
      tempDir("fdq-hostile-cache-"),
      hostile.service.baseUrl,
      {
        FDQ_TEST_MAX_RSS_FILE: rssFile,
      },
    );
    expect(out.stderr).toBe("");
    expect(parsed(out)).toEqual(rows);
    const peakMb = Number(readFileSync(rssFile, "utf8")) / 1024;
    // Shown with FDQ_TEST_FIGURES=1 (docs/architecture.md, the wire): the process's own code, not the bodies.
    if (SHOW_FIGURES)
      process.stdout.write(`fdq eval with eleven 50 MB bodies: peak RSS ${peakMb.toFixed(0)} MB\n`);
    // 11 x 50 MB arrive; a read stops at 4 MB, so the peak stays that of a small run (about 180 MB here).
    expect(peakMb).toBeLessThan(300);
  });
});

describe("fdq refresh", () => {
  it("writes values without the key into the workbook: no part of the xlsx holds it", async () => {
    const dir = tempDir("fdq-hostile-book-");
    const input = path.join(dir, "model.xlsx");
    const output = path.join(dir, "out.xlsx");
    const book = new TestBook();
    const sheet = book.addWorksheet("Model");
    const rows = [...echoRows, ...wrongRows] as {
      formula: string;
      value?: unknown;
      error?: string;
      message?: string;
    }[];
    rows.forEach((r, i) => {
      sheet.getCell(`A${i + 1}`).value = { formula: r.formula.slice(1), result: 7 };
    });
    book.writeFile(input);
    const cacheDir = tempDir("fdq-hostile-cache-");
    const out = await fdq(["refresh", input, "-o", output], cacheDir);
    // Every error here is no answer about the data (an answer that cannot be trusted, a body too large...):
    // such a cell keeps the workbook's value (7) and is reported as skipped, with the exact message.
    expect(out.code).toBe(4);
    // The summary's wording is the refresh command's; the counts are this test's.
    const withValues = rows.filter((r) => r.error === undefined).length;
    const cells = (n: number): string => `${n} FDQ cell${n === 1 ? "" : "s"}`;
    expect(out.stdout).toMatch(
      new RegExp(
        `^Refreshed ${cells(withValues)}, recomputed 0 dependents, left ${cells(rows.length - withValues)} with old values; `,
      ),
    );
    const skipped = rows.flatMap((r, i) =>
      r.error === undefined
        ? []
        : [
            `fdq refresh: Model!A${i + 1}: left with its old value, FDQ gave no answer (${r.message?.replace(/\.$/, "")})`,
          ],
    );
    expect(out.stderr.trimEnd().split("\n")).toEqual(skipped);
    expect(leaks(out.stdout + out.stderr)).toEqual([]);
    const model = readBook(output).getWorksheet("Model")!;
    rows.forEach((r, i) => {
      expect(model.getCell(`A${i + 1}`).value).toEqual({
        formula: r.formula.slice(1),
        result: r.error === undefined ? r.value : 7,
      });
    });
    const parts = Object.entries(unzipSync(readFileSync(output))).map(
      ([name, bytes]) => `${name}\n${strFromU8(bytes)}`,
    );
    expect(parts.flatMap((p) => leaks(p).map((l) => `${p.split("\n")[0]}: ${l}`))).toEqual([]);
    expect(leaksInFiles(cacheDir)).toEqual([]);
  });
});

describe("an https service redirecting to plain http", () => {
  it("is refused, the key never sent over http", async () => {
    const dir = tempDir("fdq-hostile-tls-");
    const [certFile, keyFile] = [path.join(dir, "cert.pem"), path.join(dir, "key.pem")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ],
      { stdio: "ignore" },
    );
    const plain = await startHostile(() => ({ body: "{}" }));
    const tls = await startHostile(hostileScript(plain.origin), {
      cert: readFileSync(certFile, "utf8"),
      key: readFileSync(keyFile, "utf8"),
    });
    try {
      const out = await fdq(
        ["eval", "--json", "-f", formulaFile([dp("OK"), dp("AWAY")])],
        tempDir("fdq-hostile-cache-"),
        tls.baseUrl,
        {
          NODE_EXTRA_CA_CERTS: certFile,
        },
      );
      expect(parsed(out)).toEqual([
        value(dp("OK"), 0.25),
        na(
          dp("AWAY"),
          unreadable(`a redirect to ${plain.origin}, another origin, where the API key is not sent`),
        ),
      ]);
      expect(plain.seen).toEqual([]);
      // The coverage list, OK and AWAY: each with the key, over https.
      expect(tls.seen.map((s) => s.key)).toEqual([KEY, KEY, KEY]);
    } finally {
      await Promise.all([tls.close(), plain.close()]);
    }
  });
});
