// `fdq refresh` on a model laid out as analysts lay them out, in a file written by another tool
// (test/fixtures/make-real-model.py, hand-built SpreadsheetML): tickers in column A, years as
// header formulas, FDQ.DATAPOINT($A2,...,B$1) in both stored forms, FDQ inside wrappers, dependents,
// references to another sheet and to defined names, formulas without cached values, and cells fdq cannot
// evaluate. Every formula cell of the result is checked against the sandbox's own answers, fetched here over
// HTTP, with the wrappers' arithmetic done by the test.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { engineFormula } from "../../../src/workbook/formula-text";
import { formulasOf } from "../../support/xlsx-corpus/test-book";
import { serviceRecords } from "../functions/sandbox-oracle";
import { ROOT, runFdq, type Run } from "./run-fdq";

const FIXTURES = path.join(ROOT, "test/fixtures");
const TICKERS = [
  "AAPL",
  "MSFT",
  "NFLX",
  "K",
  "KC",
  "CIR",
  "QC",
  "XVA",
  "LEI",
  "EO",
  "OG",
  "IDI",
  "QIQY",
  "DJR",
  "HG",
];
/** A17 is ='Model Inputs'!B3, which is ="MS"&"FT". */
const ROW_TICKERS = [...TICKERS, "MSFT"];
const COLUMNS = ["B", "C", "D", "E", "F"];
const FIRST_YEAR = 2019;
const NA = { error: "#N/A" } as const;

type Expected = number | string | typeof NA;

let sandbox: RunningSandbox;
let dir: string;

/** The parts of an .xlsx and their text. */
async function partsOf(file: string): Promise<Record<string, string>> {
  const parts = unzipSync(readFileSync(file));
  return Object.fromEntries(
    Object.keys(parts)
      .sort()
      .map((n) => [n, strFromU8(parts[n] as Uint8Array)]),
  );
}

/**
 * The fixture, written again by its script when Python is here (so the script is what is tested, and the
 * committed file must hold the same parts), else the committed file.
 */
async function fixture(): Promise<string> {
  const committed = path.join(FIXTURES, "real-model.xlsx");
  const file = path.join(dir, "real-model.xlsx");
  try {
    execFileSync("python3", [path.join(FIXTURES, "make-real-model.py"), file], { stdio: "pipe" });
  } catch {
    copyFileSync(committed, file);
    return file;
  }
  expect(await partsOf(file)).toEqual(await partsOf(committed));
  return file;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
  dir = mkdtempSync(path.join(tmpdir(), "fdq-real-model-"));
});

afterAll(() => sandbox.close());

/** One datapoint as the service answers it: its number, or #N/A when the service has none. */
async function datapoint(ticker: string, name: string, year: number): Promise<number | typeof NA> {
  const url = `${sandbox.baseUrl}/metrics/roic/${ticker}?datapoint=${name}&year=${year}`;
  const res = await fetch(url, { headers: { "x-api-key": sandbox.demoKey } });
  const envelope = (await res.json()) as { body: string | { results: unknown } };
  if (res.status !== 200) return NA;
  const body = typeof envelope.body === "string" ? JSON.parse(envelope.body) : envelope.body;
  const [record] = (Array.isArray(body.results) ? body.results : [body.results]) as { datavalue: string }[];
  return record ? Number(record.datavalue) : NA;
}

const isNumber = (v: Expected): v is number => typeof v === "number";
const num = (f: (x: number) => Expected) => (v: number | typeof NA) => (isNumber(v) ? f(v) : NA);

/** Every formula cell of the fixture and the value it must have after the refresh. */
async function expectedValues(): Promise<Map<string, Expected>> {
  const expected = new Map<string, Expected>();
  const years = COLUMNS.map((_, i) => FIRST_YEAR + i);
  const roic = new Map<string, number | typeof NA>();
  const capital = new Map<string, number | typeof NA>();
  for (const ticker of new Set(ROW_TICKERS)) {
    for (const year of years) {
      roic.set(`${ticker}${year}`, await datapoint(ticker, "ROIC", year));
      capital.set(`${ticker}${year}`, await datapoint(ticker, "CAPITAL_INVESTED_ADJUSTED", year));
    }
  }
  const r = (t: string, y: number) => roic.get(`${t}${y}`) as number | typeof NA;
  const c = (t: string, y: number) => capital.get(`${t}${y}`) as number | typeof NA;

  COLUMNS.forEach((col, i) => expected.set(`Model!${col}1`, FIRST_YEAR + i));
  expected.set("Model!A17", "MSFT");
  expected.set("Model Inputs!B2", 1_000_000);
  expected.set("Model Inputs!B3", "MSFT");
  ROW_TICKERS.forEach((ticker, i) => {
    COLUMNS.forEach((col, j) => {
      const value = r(ticker, FIRST_YEAR + j);
      expected.set(`Model!${col}${i + 2}`, value);
      expected.set(`Model!${col}${i + 20}`, num((x) => x * 100)(value));
    });
    const row = i + 37;
    const orNa = (v: number | typeof NA, f: (x: number) => number): Expected => (isNumber(v) ? f(v) : "n/a");
    expected.set(
      `Model!B${row}`,
      orNa(c(ticker, 2019), (x) => x / 1e6),
    );
    expected.set(`Model!C${row}`, num((x) => Math.round(x * 100 * 100) / 100)(r(ticker, 2020)));
    expected.set(`Model!D${row}`, num((x) => (x > 0.1 ? "high" : "low"))(r(ticker, 2021)));
    const [y22, y21] = [r(ticker, 2022), r(ticker, 2021)];
    expected.set(`Model!E${row}`, isNumber(y22) && isNumber(y21) ? y22 - y21 : NA);
    expected.set(
      `Model!F${row}`,
      orNa(c(ticker, 2023), (x) => x / 1e6),
    );
  });
  const column = (j: number) => ROW_TICKERS.map((t) => r(t, FIRST_YEAR + j));
  expected.set("Model!B54", column(0).filter(isNumber).length);
  COLUMNS.slice(1).forEach((col, j) => {
    const values = column(j + 1);
    expected.set(`Model!${col}54`, values.every(isNumber) ? values.reduce((a, b) => a + b, 0) : NA);
  });
  expected.set("Summary!B2", r("MSFT", 2023));
  expected.set("Summary!B3", num((x) => x * 2)(r("AAPL", 2023)));
  const aapl2019 = r("AAPL", 2019);
  expected.set(
    "Summary!B4",
    await datapoint(isNumber(aapl2019) && aapl2019 > 0 ? "AAPL" : "MSFT", "ROIC", 2018),
  );
  // XLOOKUP finds AAPL's row of Model; B7 reads it. B6 reads another workbook: its old value stays.
  expected.set("Summary!B5", r("AAPL", 2019));
  expected.set("Summary!B6", 7);
  expected.set("Summary!B7", num((x) => x + 1)(r("AAPL", 2019)));
  expected.set("Summary!B8", 3);
  expected.set("Summary!B9", await datapoint("MSFT", "ROIC", 2022));
  expected.set("Summary!B10", num((x) => Math.round(x * 10_000) / 10_000)(r("AAPL", 2023)));
  const records = await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023");
  expected.set("Summary!E1", records[0]?.datapoint as string);
  return expected;
}

const SKIPPED = [
  "Summary!B6: left with its old value, refers to another workbook ([1]Prices!B2), which fdq cannot read",
];

it("fills every formula of a real model written by another tool, each checked against the service's answers", async () => {
  const input = await fixture();
  const output = path.join(dir, "refreshed.xlsx");
  const expected = await expectedValues();
  const out: Run = await runFdq([
    "refresh",
    input,
    "-o",
    output,
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    sandbox.demoKey,
    "--no-cache",
    "--stats",
  ]);

  const before = formulasOf(input);
  const after = formulasOf(output);
  expect(before.size).toBeGreaterThanOrEqual(200);
  // The formulas stay as they were written (shared formulas read at their own position).
  expect([...after].map(([at, f]) => [at, f.formula])).toEqual([...before].map(([at, f]) => [at, f.formula]));
  // Every formula cell is checked, and every one has a value.
  expect([...after.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [at, { result }] of after) {
    const want = expected.get(at) as Expected;
    if (typeof want === "number") {
      expect([at, result]).toEqual([at, expect.any(Number)]);
      expect([at, result as number]).toEqual([at, expect.closeTo(want, 9)]);
    } else {
      expect([at, result]).toEqual([at, want]);
    }
  }

  // Summary!B8 kept its cached value and reads no FDQ cell: not recalculated, not counted.
  const counted = [...expected].filter(([at]) => !["Summary!B6", "Summary!B8"].includes(at));
  const errors = counted.filter(([, v]) => typeof v === "object").length;
  expect(errors).toBeGreaterThan(0); // HG has no 2019: the model shows an #N/A, and IFERROR's "n/a" beside it
  const callsFdq = ([at]: [string, Expected]): boolean =>
    engineFormula(after.get(at)?.formula ?? "").callsFdq;
  const fdq = counted.filter(callsFdq);
  const dependents = counted.filter((c) => !callsFdq(c));
  const withErrors = (cells: [string, Expected][]): string => {
    const n = cells.filter(([, v]) => typeof v === "object").length;
    return n === 0 ? "" : n === 1 ? " (1 with an error)" : ` (${n} with errors)`;
  };
  // The first spill of the workbook adds the dynamic-array metadata (its part, relationship and content type),
  // and the record of each FDQ cell's request its custom XML part (with its properties and relationships).
  expect(out.stdout).toBe(
    `Refreshed ${fdq.length} FDQ cells${withErrors(fdq)}, recomputed ${dependents.length} dependents` +
      `${withErrors(dependents)}, left ${SKIPPED.length} dependent with old values; ` +
      `changed 9 parts, kept 4 other parts byte for byte. Wrote ${output}.\n`,
  );
  const [stats, ...stderr] = out.stderr.split("\n").filter((l) => l !== "");
  // One batch for every call whose arguments are known from the start, one for Summary!B4 (it reads Model!B2).
  expect(stats).toMatch(/^fdq stats: requests sent \d+.*, batches 2$/);
  expect(stderr.slice(0, SKIPPED.length)).toEqual(SKIPPED.map((s) => `fdq refresh: ${s}`));
  expect(stderr.slice(SKIPPED.length)).toHaveLength(errors);
  expect(stderr.slice(SKIPPED.length).every((l) => / #N\/A \S/.test(l))).toBe(true);
  expect(out.code).toBe(4);

  // The spill is stored as Excel stores a dynamic array, and no defined name remembers it.
  const parts = await partsOf(output);
  expect(parts["xl/worksheets/sheet3.xml"]).toMatch(/<c r="E1"[^>]* cm="1"[^>]*><f t="array" ref="E1:F\d+">/);
  expect(parts["xl/metadata.xml"]).toContain('<metadataType name="XLDAPR"');
  expect(parts["[Content_Types].xml"]).toContain('PartName="/xl/metadata.xml"');
  expect(parts["xl/workbook.xml"]).toBe((await partsOf(input))["xl/workbook.xml"]);
});
