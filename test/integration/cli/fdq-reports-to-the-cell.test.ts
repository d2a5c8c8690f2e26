// The reports of a refresh, right to the cell, on a model with a relative fiscal year (FY0), LTM, a SERIES, a
// DATASET spill, a lifted range, FDQ.SECURITY and cells in error, refreshed on two days between which the
// service restated the closed fiscal years and published a new one (the sandbox's clock moves), with and
// without a day cache:
// - `--changes` compares every cell of every spill and lifted range and lists each cell that became an error;
// - `fdq freeze --share`'s "FDQ sources" sheet names the request that answered each cell (the resolved year or
//   ttm, the one security type), what it asked and resolved to, and the refresh day, from the record the
//   refresh kept in the workbook: no day cache is read;
// - the shared copy opens in LibreOffice (an application without the add-in) with every former FDQ cell's value
//   or error, although the workbook asks to be recalculated whole on open, where the refreshed workbook itself
//   shows #NAME? (what `fdq refresh` warns about).
// Every expected number is asked of the sandbox directly, on the day it stands for.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { DEFAULTS, RefreshDayClock } from "../../../src/api";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { sameNumber } from "../../../src/workbook/changes/changes";
import { libreOfficeProfile, readOracleValues, type OracleValue } from "../../support/oracle-xlsx";
import { smallBook } from "../../support/small-book";
import { serviceNumber, serviceRecords } from "../functions/sandbox-oracle";
import { runFdq, type Run } from "./run-fdq";

const SOFFICE = ["/usr/bin/soffice", "/usr/local/bin/soffice"].find((p) => existsSync(p));
const DAY_1 = new Date("2025-12-15T12:00:00Z");
const DAY_2 = new Date("2026-01-05T12:00:00Z");
let clock = DAY_1;
jest.setTimeout(240_000);

const SERIES = 'FDQ.SERIES("AAPL","metrics/roic","ROIC",2021,2024)';
const DATASET = 'FDQ.DATASET("AAPL","metrics/roic",2023)';
const LIFTED = 'FDQ.DATAPOINT(E1:E4,"metrics/roic","ROIC",2023)';
/** FY0 as Excel stores a JavaScript custom function. */
const FY0 = '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC","FY0")';
const LTM = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","LTM")';
const NAME = 'FDQ.SECURITY("AAPL","name")';
const NOT_PUBLISHED = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2031)';
const TICKERS = ["AAPL", "MSFT", "NFLX", "ZZZZ"] as const;

const BOOK = smallBook(
  {
    Model: {
      A1: { f: SERIES },
      A3: { f: DATASET },
      E1: "AAPL",
      E2: "MSFT",
      E3: "NFLX",
      E4: "ZZZZ",
      F1: { f: LIFTED },
      H1: { f: FY0 },
      H2: { f: LTM },
      H3: { f: NAME },
      // A value saved before, which the refresh turns into #N/A.
      H4: { f: NOT_PUBLISHED, v: 0.5 },
      I1: { f: "H1*2" },
    },
  },
  { fullCalcOnLoad: true },
);

interface Row {
  sheet: string;
  cell: string;
  formula: string;
  old: number | string | null;
  new: number | string | null;
  kind: string;
  relativeChange: number | null;
  period?: string;
}

let sandbox: RunningSandbox;
let dir: string;
const today = (): string => new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());

/** The service's answers on one day, asked directly. */
interface Answers {
  series: number[];
  dataset: { name: string; value: number }[];
  lifted: number[];
  ltm: { path: string; words: string; value: number };
  fy0: { year: number; value: number };
}

async function answersOn(day: Date, ltm: { year: number; ttm: number }): Promise<Answers> {
  clock = day;
  const number = (rel: string): Promise<number> => serviceNumber(sandbox, rel);
  const ltmPath = `metrics/roic/AAPL?datapoint=ROIC&year=${ltm.year}&ttm=${ltm.ttm}`;
  const fy0 = day === DAY_1 ? 2024 : 2025;
  return {
    series: await Promise.all(
      [2021, 2022, 2023, 2024].map((y) => number(`metrics/roic/AAPL?datapoint=ROIC&year=${y}`)),
    ),
    dataset: (await serviceRecords(sandbox, "metrics/roic/AAPL?year=2023")).map((r) => ({
      name: r.datapoint,
      value: Number(r.datavalue),
    })),
    lifted: await Promise.all(
      TICKERS.slice(0, 3).map((t) => number(`metrics/roic/${t}?datapoint=ROIC&year=2023`)),
    ),
    ltm: { path: ltmPath, words: `LTM = TTM to Q${ltm.ttm} FY${ltm.year}`, value: await number(ltmPath) },
    fy0: { year: fy0, value: await number(`metrics/roic/AAPL?datapoint=ROIC&year=${fy0}`) },
  };
}

let day1: Answers;
let day2: Answers;

interface Mode {
  readonly name: string;
  /** The connection options of the refresh on day `n`. */
  readonly cache: (n: 1 | 2) => string[];
}

const MODES: readonly Mode[] = [
  { name: "without a day cache", cache: () => ["--no-cache"] },
  // One cache per day: both runs fall on today's refresh day, and day 2 must not be served day 1's answers.
  { name: "with a day cache", cache: (n) => ["--cache-dir", path.join(dir, `cache-${n}`)] },
];

const fdq = (args: string[], cache: string[]): Promise<Run> =>
  runFdq([...args, "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, ...cache]);

interface Outcome {
  first: Run;
  second: Run;
  share: Run;
  changes1: Row[];
  changes2: Row[];
  folder: string;
}
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => clock, restate: "2026-01-05" });
  dir = mkdtempSync(path.join(tmpdir(), "fdq-reports-"));
  writeFileSync(path.join(dir, "model.xlsx"), BOOK);
  day1 = await answersOn(DAY_1, { year: 2025, ttm: 3 });
  day2 = await answersOn(DAY_2, { year: 2025, ttm: 4 });
  for (const mode of MODES) {
    const folder = path.join(dir, mode.name.replace(/ /g, "-"));
    mkdirSync(folder);
    const at = (file: string): string => path.join(folder, file);
    clock = DAY_1;
    const first = await fdq(
      ["refresh", path.join(dir, "model.xlsx"), "-o", at("day1.xlsx"), "--changes", at("c1.json")],
      mode.cache(1),
    );
    clock = DAY_2;
    const second = await fdq(
      ["refresh", at("day1.xlsx"), "-o", at("day2.xlsx"), "--changes", at("c2.json")],
      mode.cache(2),
    );
    const requests = sandbox.stats().requests;
    // No day cache for the copy: what it names comes from the workbook alone.
    const share = await fdq(["freeze", "--share", at("day2.xlsx"), "-o", at("share.xlsx")], ["--no-cache"]);
    expect(sandbox.stats().requests).toBe(requests);
    const read = (file: string): Row[] => JSON.parse(readFileSync(at(file), "utf8")) as Row[];
    outcomes.set(mode.name, {
      first,
      second,
      share,
      changes1: read("c1.json"),
      changes2: read("c2.json"),
      folder,
    });
  }
});

afterAll(() => sandbox.close());

const rel = (o: number, n: number): number => (n - o) / Math.abs(o);
const byCell = (rows: readonly Row[]): Row[] =>
  [...rows].sort((a, b) => a.cell.length - b.cell.length || a.cell.localeCompare(b.cell));

/** The day-2 report, from the service's own answers on both days. */
function expectedDay2(): Row[] {
  const rows: Row[] = [];
  const change = (
    cell: string,
    formula: string,
    o: number,
    n: number,
    kind: string,
    period: string,
  ): void => {
    if (sameNumber(o, n)) return;
    rows.push({
      sheet: "Model",
      cell,
      formula: `=${formula}`,
      old: o,
      new: n,
      kind,
      relativeChange: rel(o, n),
      period,
    });
  };
  day1.series.forEach((o, i) =>
    change(`${"ABCD"[i]}1`, SERIES, o, day2.series[i]!, "restated", `FY${2021 + i}`),
  );
  day1.dataset.forEach((o, i) => {
    expect(day2.dataset[i]?.name).toBe(o.name);
    change(`B${3 + i}`, DATASET, o.value, day2.dataset[i]!.value, "restated", "FY2023");
  });
  day1.lifted.forEach((o, i) => change(`F${1 + i}`, LIFTED, o, day2.lifted[i]!, "restated", "FY2023"));
  change("H1", FY0, day1.fy0.value, day2.fy0.value, "new period", "FY2025");
  change("H2", LTM, day1.ltm.value, day2.ltm.value, "new period", "TTM to Q4 FY2025");
  return byCell(rows);
}

describe.each(MODES.map((m) => m.name))("fdq refresh --changes, %s", (mode) => {
  it("lists every restated cell of a DATASET spill, a SERIES and a lifted range, each with its own period, and FY0 and LTM that moved", () => {
    const { second, changes2 } = outcomes.get(mode)!;
    expect(second.code).toBe(0);
    const expected = expectedDay2();
    // The restatement moved most of the dataset's values: each is a row of its own.
    expect(expected.filter((r) => r.formula === `=${DATASET}`).length).toBeGreaterThan(5);
    expect(byCell(changes2)).toEqual(expected);
  });

  it("lists a cell that became an error, from empty (a spill's cell, a new formula) or from a value, as now an error", () => {
    const { first, changes1 } = outcomes.get(mode)!;
    expect(first.code).toBe(0);
    const errors = changes1.filter((r) => r.kind === "now an error").map((r) => [r.cell, r.old, r.new]);
    expect(
      byCell(changes1.filter((r) => r.kind === "now an error")).map((r) => [r.cell, r.old, r.new]),
    ).toEqual([
      ["F4", null, "#N/A"],
      ["H4", 0.5, "#N/A"],
    ]);
    expect(errors).toHaveLength(2);
    // Every other cell of every spill was empty and is a new value: 4 + 2 x the dataset + 3 lifted + H1:H3.
    expect(changes1.filter((r) => r.kind === "new value")).toHaveLength(4 + 2 * day1.dataset.length + 3 + 3);
  });
});

describe("fdq refresh of a workbook set to recalculate on open", () => {
  it("warns, naming the consequence and what to do, and leaves the setting as it is", () => {
    const { first, folder } = outcomes.get(MODES[0]!.name)!;
    expect(first.stderr).toContain(
      `fdq refresh: warning: ${path.join(dir, "model.xlsx")} is set to recalculate every formula when it is opened ` +
        '(fullCalcOnLoad="1" in the calcPr of xl/workbook.xml), so the values written now are thrown away on open: ' +
        "in Excel without the FDQ add-in every FDQ cell becomes #NAME?, and with the add-in every FDQ cell is " +
        "fetched again. For colleagues without the add-in, send a copy made with fdq freeze --share; or remove " +
        "fullCalcOnLoad from the workbook's calcPr. fdq refresh leaves the setting as it is.\n",
    );
    const workbook = (bytes: Uint8Array): string =>
      new TextDecoder().decode(unzipSync(bytes)["xl/workbook.xml"]);
    expect(workbook(new Uint8Array(readFileSync(path.join(folder, "day1.xlsx"))))).toBe(workbook(BOOK));
  });
});

/** The rows of the "FDQ sources" sheet of a shared copy, by cell, each as { column letter: value }. */
function sourcesRows(file: string): Map<string, Record<string, string | number>> {
  const files = unzipSync(new Uint8Array(readFileSync(file)));
  const sheet = new TextDecoder().decode(files["xl/worksheets/sheet2.xml"]);
  const unescape = (t: string): string =>
    t.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  const rows = new Map<string, Record<string, string | number>>();
  for (const m of sheet.matchAll(/<row r="\d+">([\s\S]*?)<\/row>/g)) {
    const row: Record<string, string | number> = {};
    for (const c of (m[1] as string).matchAll(
      /<c r="([A-Z]+)\d+"(?: t="inlineStr")?>(?:<is><t>([^<]*)<\/t><\/is>|<v>([^<]*)<\/v>)<\/c>/g,
    ))
      row[c[1] as string] = c[2] === undefined ? Number(c[3]) : unescape(c[2]);
    rows.set(String(row.B), row);
  }
  return rows;
}

describe.each(MODES.map((m) => m.name))("fdq freeze --share after a refresh %s", (mode) => {
  it("names the request that answered each cell, what it asked and resolved to, and the refresh day, with no day cache", () => {
    const { share, folder } = outcomes.get(mode)!;
    expect(share.code).toBe(0);
    const rows = sourcesRows(path.join(folder, "share.xlsx"));
    const day = today();
    expect(rows.get("H1")).toEqual({
      A: "Model",
      B: "H1",
      C: '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","FY0")',
      D: day2.fy0.value,
      E: "FY0 = fiscal 2025",
      F: day,
      G: "GET /metrics/roic/AAPL?datapoint=ROIC&year=2025",
    });
    expect(rows.get("H2")).toEqual({
      A: "Model",
      B: "H2",
      C: `=${LTM}`,
      D: day2.ltm.value,
      E: day2.ltm.words,
      F: day,
      G: `GET /${day2.ltm.path}`,
    });
    // The stock list answered: the ETF and fund lists were never asked.
    expect(rows.get("H3")).toMatchObject({
      D: "Aplo Synthetic Holdings",
      F: day,
      G: "GET /coverage/stock/AAPL",
    });
    expect(rows.get("H4")).toMatchObject({
      D: "#N/A",
      E: "FY2031",
      F: day,
      G: "GET /metrics/roic/AAPL?datapoint=ROIC&year=2031",
    });
    // Every cell has its refresh day; a spill whose cells each had a request of their own names each with its
    // cell (AAPL's 2023 may be answered by the whole dataset FDQ.DATASET asked in the same batch).
    expect([...rows.values()].slice(1).every((r) => r.F === day)).toBe(true);
    const aapl2023 = /^GET \/metrics\/roic\/AAPL\?(datapoint=ROIC&)?year=2023$/;
    const labelled = (row: Record<string, string | number> | undefined): string[][] =>
      String(row?.G)
        .split("; ")
        .map((s) => s.split(": "));
    const series = labelled(rows.get("A1"));
    expect(series.map(([cell]) => cell)).toEqual(["A1", "B1", "C1", "D1"]);
    [2021, 2022, 2024].forEach((year) =>
      expect(series).toContainEqual([
        `${"ABCD"[year - 2021]}1`,
        `GET /metrics/roic/AAPL?datapoint=ROIC&year=${year}`,
      ]),
    );
    expect(series[2]?.[1]).toMatch(aapl2023);
    const lifted = labelled(rows.get("F1"));
    expect(lifted.slice(1)).toEqual(
      ["MSFT", "NFLX", "ZZZZ"].map((t, i) => [
        `F${i + 2}`,
        `GET /metrics/roic/${t}?datapoint=ROIC&year=2023`,
      ]),
    );
    expect(lifted[0]?.[0]).toBe("F1");
    expect(lifted[0]?.[1]).toMatch(aapl2023);
  });
});

describe("the shared copy without the add-in", () => {
  const folder = (): string => outcomes.get(MODES[0]!.name)!.folder;
  const parts = (): Record<string, string> =>
    Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(readFileSync(path.join(folder(), "share.xlsx"))))).map(
        ([k, v]) => [k, new TextDecoder().decode(v)],
      ),
    );

  it("holds no FDQ formula and no _xldudf_ outside the frozen-formulas part; errors are error values without a formula", () => {
    const all = parts();
    for (const [name, text] of Object.entries(all)) {
      if (name.startsWith("customXml/")) continue;
      expect({ name, udf: /_xldudf_|_xludf\./i.test(text) }).toEqual({ name, udf: false });
      if (name.startsWith("xl/worksheets/"))
        expect({ name, fdq: /<f[\s>][^<]*FDQ/i.test(text) }).toEqual({ name, fdq: false });
    }
    const model = all["xl/worksheets/sheet1.xml"] as string;
    expect(model).toContain('<c r="F4" t="e"><v>#N/A</v></c>');
    expect(model).toContain('<c r="H4" t="e"><v>#N/A</v></c>');
    // No former dynamic array keeps its metadata mark.
    expect(/<c r="(A1|A3|F1)"[^>]*\scm=/.test(model)).toBe(false);
    // The dependent keeps its formula.
    expect(model).toMatch(/<c r="I1"[^>]*><f>H1\*2<\/f>/);
  });

  (SOFFICE ? it : it.skip)(
    `opens in LibreOffice with every former FDQ cell's value or error, none #NAME?, where the refreshed workbook shows #NAME?${SOFFICE ? "" : " (skipped: LibreOffice is not installed)"}`,
    async () => {
      const out = path.join(folder(), "lo");
      // One conversion of both files.
      await new Promise<void>((resolve, reject) =>
        execFile(
          SOFFICE as string,
          [
            libreOfficeProfile(path.join(folder(), "lo-profile")),
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            out,
            path.join(folder(), "share.xlsx"),
            path.join(folder(), "day2.xlsx"),
          ],
          { timeout: 170_000 },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      const refreshed = readOracleValues(readFileSync(path.join(folder(), "day2.xlsx")));
      const opened = readOracleValues(readFileSync(path.join(out, "share.xlsx")));
      // Every cell the refresh gave an FDQ value: the anchors and every cell of the spills and the lifted range.
      const fdqCells = [
        ...["A1", "B1", "C1", "D1"],
        ...day2.dataset.flatMap((_, i) => [`A${3 + i}`, `B${3 + i}`]),
        ...["F1", "F2", "F3", "F4", "H1", "H2", "H3", "H4", "I1"],
      ];
      const same = (a: OracleValue | undefined, b: OracleValue | undefined): boolean =>
        typeof a === "number" && typeof b === "number"
          ? sameNumber(a, b)
          : JSON.stringify(a) === JSON.stringify(b);
      const differing = fdqCells
        .map((cell) => ({
          cell,
          refreshed: refreshed.get(`Model!${cell}`),
          opened: opened.get(`Model!${cell}`),
        }))
        .filter((c) => c.refreshed === undefined || !same(c.refreshed, c.opened));
      expect(differing).toEqual([]);
      expect(opened.get("Model!F4")).toEqual({ error: "#N/A" });
      expect([...opened.values()].some((v) => JSON.stringify(v).includes("#NAME?"))).toBe(false);
      // The refreshed workbook itself, recalculated on open by an application without the add-in.
      const plain = readOracleValues(readFileSync(path.join(out, "day2.xlsx")));
      expect(plain.get("Model!A1")).toEqual({ error: "#NAME?" });
    },
    180_000,
  );
});
