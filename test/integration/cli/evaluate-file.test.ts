// evaluateFile (what `fdq eval -f FILE` runs before printing, and what the benchmark measures) in-process
// against an in-process sandbox: the day's cache file, --concurrency, and lines that do not parse.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { evaluateFile } from "../../../src/cli/eval-command";
import type { ConnectionOptions } from "../../../src/cli/options";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { universeFor } from "../../../src/sandbox/universe";
import { serviceNumber } from "../functions/sandbox-oracle";

const YEAR = 2022;
/** Eight stocks the sandbox (seed 1, its default) covers in YEAR. */
const TICKERS = universeFor(1)
  .list("stock")
  .filter((s) => s.firstYear <= YEAR)
  .slice(0, 8)
  .map((s) => s.ticker);
const NAMES = ["ROIC", "NOPAT", "CAPITAL_INVESTED"];

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, latencyMs: 20 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "fdq-evaluate-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function options(extra: Partial<ConnectionOptions> = {}): ConnectionOptions {
  return {
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.demoKey,
    cacheDir: path.join(dir, "cache"),
    noCache: false,
    sandbox: false,
    stats: false,
    concurrency: undefined,
    ...extra,
  };
}

function modelFile(lines: string[]): string {
  const file = path.join(dir, "model.txt");
  writeFileSync(file, `# a model\n${lines.join("\n")}\n`);
  return file;
}

/** The stock coverage list a run asks once per refresh day before its first data request (1 request, 1 unit). */
const LIST = 1;

const model = () =>
  TICKERS.flatMap((t) => NAMES.map((n) => `=FDQ.DATAPOINT("${t}","metrics/roic","${n}",${YEAR})`));

describe("evaluateFile", () => {
  it("evaluates every formula in order, one request per dataset answer after the coverage list, and none again from the day's cache file", async () => {
    const expected = await Promise.all(
      TICKERS.flatMap((t) =>
        NAMES.map((n) => serviceNumber(sandbox, `metrics/roic/${t}?datapoint=${n}&year=${YEAR}`)),
      ),
    );
    const file = modelFile(model());
    const before = sandbox.stats().requests;
    // Billed per request, the names of a dataset share its whole request (the fast plan).
    const first = await evaluateFile(file, options({ billing: "per-request" }));
    expect(sandbox.stats().requests - before).toBe(LIST + TICKERS.length);
    expect(first.results).toEqual(
      model().map((formula, i) => ({ formula, line: i + 2, outcome: { ok: true, value: expected[i] } })),
    );
    expect(first.problems).toEqual([]);
    const second = await evaluateFile(file, options({ billing: "per-request" }));
    expect(second.results).toEqual(first.results);
    expect(second.stats).toMatchObject({ requestsSent: 0, cacheHits: TICKERS.length * NAMES.length });
    expect(sandbox.stats().requests - before).toBe(LIST + TICKERS.length);
  });

  it.each([
    [2, 2],
    [undefined, 6],
  ])("keeps at most --concurrency %p requests open (%p)", async (concurrency, most) => {
    const { stats } = await evaluateFile(
      modelFile(model()),
      options({ concurrency, noCache: true, billing: "per-request" }),
    );
    expect(stats).toMatchObject({ requestsSent: LIST + TICKERS.length, maxInFlight: most });
  });

  it("asks each datapoint on its own when billed per datapoint and the cells ask only some names", async () => {
    const { stats } = await evaluateFile(modelFile(model()), options({ noCache: true }));
    expect(stats).toMatchObject({
      requestsSent: LIST + TICKERS.length * NAMES.length,
      unitsSpent: LIST + TICKERS.length * NAMES.length,
    });
  });

  it("turns a line it cannot parse into that line's problem and evaluates the others", async () => {
    const file = modelFile([
      '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)',
      "=FDQ.DATAPOINT(A1)",
      '=FDQ.RATING("AAPL")',
    ]);
    const roic = await serviceNumber(sandbox, `metrics/roic/AAPL?datapoint=ROIC&year=${YEAR}`);
    const message = "Cell references are not supported: A1; use a literal value (at character 16)";
    const { results, problems } = await evaluateFile(file, options());
    expect(results).toEqual([
      { formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)', line: 2, outcome: { ok: true, value: roic } },
      { formula: "=FDQ.DATAPOINT(A1)", line: 3, problem: message },
      { formula: '=FDQ.RATING("AAPL")', line: 4, outcome: { ok: true, value: expect.any(Number) } },
    ]);
    expect(problems).toEqual([`${file}:3: ${message}`]);
  });
});
