// `fdq refresh --changes FILE` across a day on which the service restated the closed fiscal years and published
// a new one: the sandbox's clock moves from one refresh to the next, and the report lists each FDQ cell whose
// value moved, with its kind, as the service's own answers on both days say.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { DEFAULTS, RefreshDayClock } from "../../../src/api";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import {
  positionFree,
  parseCellSources,
  type CellSourceRecord,
} from "../../../src/workbook/refresh/cell-sources";
import {
  parseResolvedPeriods,
  type ResolvedCellPeriods,
} from "../../../src/workbook/refresh/resolved-periods";
import { smallBook } from "../../support/small-book";
import { serviceNumber } from "../functions/sandbox-oracle";
import { runFdq, type Run } from "./run-fdq";

const DAY_1 = new Date("2025-12-15T12:00:00Z");
const DAY_2 = new Date("2026-01-05T12:00:00Z");
let clock = DAY_1;
/** The tests run fdq as a process, several times: minutes on a loaded machine. */
jest.setTimeout(180_000);
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => clock, restate: "2026-01-05" });
});

afterAll(() => sandbox.close());

const refresh = (args: string[]): Promise<Run> =>
  runFdq(["refresh", ...args, "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--no-cache"]);

const roic = (year: number): Promise<number> =>
  serviceNumber(sandbox, `metrics/roic/AAPL?datapoint=ROIC&year=${year}`);

const SERIES = 'FDQ.SERIES("AAPL","metrics/roic","ROIC",2022,2026)';
const LATEST = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",B2)';
const FY2023 = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)';
const FY2025 = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2025)';
const NAME = 'FDQ.SECURITY("AAPL","name")';
const FY0 = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC","FY0")';

/** A model of the latest fiscal year (the count of years the series shows) beside fixed years. */
const BOOK = smallBook({
  Model: {
    A1: { f: SERIES },
    B2: { f: "2021+COUNT(A1:E1)" },
    C2: { f: LATEST },
    C3: { f: FY2023 },
    C4: { f: FY2025 },
    C5: { f: NAME },
    C6: { f: FY0 },
  },
});

interface Expected {
  sheet: string;
  cell: string;
  formula: string;
  old: number | string;
  new: number;
  kind: string;
  relativeChange: number | null;
  period: string;
}

let dir: string;
let day2: Run;
let expected: Expected[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "fdq-changes-"));
  writeFileSync(path.join(dir, "model.xlsx"), BOOK);
  clock = DAY_1;
  const before = { 2022: await roic(2022), 2023: await roic(2023), 2024: await roic(2024) };
  const day1 = await refresh([path.join(dir, "model.xlsx"), "-o", path.join(dir, "day1.xlsx")]);
  expect(day1.stderr).toMatch(/Model!C4: #N\/A/); // FY2025 is not published on day 1
  clock = DAY_2;
  const after = {
    2022: await roic(2022),
    2023: await roic(2023),
    2024: await roic(2024),
    2025: await roic(2025),
  };
  day2 = await refresh([
    path.join(dir, "day1.xlsx"),
    "-o",
    path.join(dir, "day2.xlsx"),
    "--changes",
    path.join(dir, "changes.json"),
  ]);
  const rel = (o: number, n: number): number => (n - o) / Math.abs(o);
  expected = [
    // The series: each cell of its spill on its own, with its own year (FY2026 is #N/A on both days).
    ...([2022, 2023, 2024] as const).map((year, i) => ({
      sheet: "Model",
      cell: `${"ABC"[i]}1`,
      formula: `=${SERIES}`,
      old: before[year],
      new: after[year],
      kind: "restated",
      relativeChange: rel(before[year], after[year]),
      period: `FY${year}`,
    })),
    {
      sheet: "Model",
      cell: "D1",
      formula: `=${SERIES}`,
      old: "#N/A",
      new: after[2025],
      kind: "new value",
      relativeChange: null,
      period: "FY2025",
    },
    {
      sheet: "Model",
      cell: "C2",
      formula: `=${LATEST}`,
      old: before[2024],
      new: after[2025],
      kind: "new period",
      relativeChange: rel(before[2024], after[2025]),
      period: "FY2025",
    },
    {
      // FY0 rolled from fiscal 2024 to fiscal 2025: the resolution the first refresh kept in the workbook.
      sheet: "Model",
      cell: "C6",
      formula: `=${FY0}`,
      old: before[2024],
      new: after[2025],
      kind: "new period",
      relativeChange: rel(before[2024], after[2025]),
      period: "FY2025",
    },
    {
      sheet: "Model",
      cell: "C3",
      formula: `=${FY2023}`,
      old: before[2023],
      new: after[2023],
      kind: "restated",
      relativeChange: rel(before[2023], after[2023]),
      period: "FY2023",
    },
    {
      sheet: "Model",
      cell: "C4",
      formula: `=${FY2025}`,
      old: "#N/A",
      new: after[2025],
      kind: "new value",
      relativeChange: null,
      period: "FY2025",
    },
  ];
});

describe("fdq refresh --changes", () => {
  it("reports each FDQ cell that moved with its kind: restated, new period, new value; an unchanged cell is not a change", () => {
    const rows = JSON.parse(readFileSync(path.join(dir, "changes.json"), "utf8")) as Expected[];
    const byCell = [...rows].sort((a, b) => a.cell.localeCompare(b.cell));
    expect(byCell).toEqual([...expected].sort((a, b) => a.cell.localeCompare(b.cell)));
  });

  it("sorts the report by the size of the change, biggest first, changes without a size last", () => {
    const rows = JSON.parse(readFileSync(path.join(dir, "changes.json"), "utf8")) as Expected[];
    const sizes = rows.map((r) => (r.relativeChange === null ? -1 : Math.abs(r.relativeChange)));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(
      rows
        .slice(-2)
        .map((r) => r.cell)
        .sort(),
    ).toEqual(["C4", "D1"]);
  });

  it("counts the changes by kind in the summary line", () => {
    expect(day2.code).toBe(0);
    expect(day2.stdout).toMatch(
      new RegExp(
        `^Refreshed 6 FDQ cells, recomputed 1 dependent, .* Wrote ${path.join(dir, "day2.xlsx").replace(/[.\\]/g, "\\$&")}\\. ` +
          `8 changes \\(4 restated, 2 new period, 2 new value\\): ${path.join(dir, "changes.json").replace(/[.\\]/g, "\\$&")}\\.\\n$`,
      ),
    );
  });

  it("writes CSV when the file ends in .csv: the same rows, RFC 4180, formulas kept from running", async () => {
    const csv = path.join(dir, "changes.csv");
    const run = await refresh([
      path.join(dir, "day1.xlsx"),
      "-o",
      path.join(dir, "day2b.xlsx"),
      "--changes",
      csv,
    ]);
    expect(run.code).toBe(0);
    const field = (v: number | string | null): string =>
      v === null ? "" : typeof v === "string" && /[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v);
    const text = readFileSync(csv, "utf8");
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("sheet,cell,formula,old,new,kind,relativeChange,period");
    expect(lines[lines.length - 1]).toBe("");
    const body = lines.slice(1, -1).sort((a, b) => a.split(",")[1]!.localeCompare(b.split(",")[1]!));
    expect(body).toEqual(
      [...expected]
        .sort((a, b) => a.cell.localeCompare(b.cell))
        .map((e) =>
          [
            e.sheet,
            e.cell,
            field(`'${e.formula}`),
            e.old,
            e.new,
            e.kind,
            field(e.relativeChange),
            field(e.period),
          ]
            .map((v) => (typeof v === "number" ? String(v) : v))
            .join(","),
        ),
    );
  });

  it("a second refresh the same day reports no changes", async () => {
    const file = path.join(dir, "again.json");
    const run = await refresh([
      path.join(dir, "day2.xlsx"),
      "-o",
      path.join(dir, "day3.xlsx"),
      "--changes",
      file,
    ]);
    expect(run.stdout).toMatch(/ No changes: .*again\.json\.\n$/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual([]);
  });

  it("refuses a report file that names the workbook, before any request", async () => {
    const requests = sandbox.stats().requests;
    const out = path.join(dir, "x.xlsx");
    const run = await refresh([path.join(dir, "day1.xlsx"), "-o", out, "--changes", out]);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: `fdq refresh: --changes ${out} names the workbook; give the report its own file (.json or .csv)\n`,
    });
    expect(sandbox.stats().requests).toBe(requests);
  });
});

describe("the resolved periods kept in the workbook", () => {
  const kept = (file: string): ResolvedCellPeriods[] => {
    const files = unzipSync(new Uint8Array(readFileSync(path.join(dir, file))));
    const items = Object.keys(files).filter((k) => /^customXml\/item\d+\.xml$/.test(k));
    return items.flatMap((k) => parseResolvedPeriods(new TextDecoder().decode(files[k])));
  };

  it("records what FY0 resolved to at each refresh, and on which refresh day; no periods record for the fixed periods", () => {
    const day = new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
    expect(kept("day1.xlsx")).toEqual([
      { sheet: "Model", cell: "C6", formula: `=${FY0}`, periods: "FY2024", day },
    ]);
    expect(kept("day2.xlsx")).toEqual([
      { sheet: "Model", cell: "C6", formula: `=${FY0}`, periods: "FY2025", day },
    ]);
  });

  it("records the requests that answered every FDQ cell, what it asked and the refresh day; none of other formulas", () => {
    const day = new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
    const files = unzipSync(new Uint8Array(readFileSync(path.join(dir, "day2.xlsx"))));
    const records = Object.keys(files)
      .filter((k) => /^customXml\/item\d+\.xml$/.test(k))
      .flatMap((k) => parseCellSources(new TextDecoder().decode(files[k])));
    const of = (cell: string, formula: string): CellSourceRecord | undefined =>
      records.find((r) => r.cell === cell && r.formula === positionFree(`=${formula}`, cell));
    expect(records.map((r) => r.cell).sort()).toEqual(["A1", "C2", "C3", "C4", "C5", "C6"]);
    expect(records.every((r) => r.day === day)).toBe(true);
    expect(of("C6", FY0)).toEqual({
      sheet: "Model",
      cell: "C6",
      formula: `=${FY0}`,
      day,
      period: "FY0 = fiscal 2025",
      sources: ["GET /metrics/roic/AAPL?datapoint=ROIC&year=2025"],
    });
    // The stock list answered: the ETF and fund lists were not asked.
    expect(of("C5", NAME)?.sources).toEqual(["GET /coverage/stock/AAPL"]);
    // Every year of the series, the one not published (its cell's #N/A) included.
    expect(of("A1", SERIES)?.sources).toEqual(
      [2022, 2023, 2024, 2025, 2026].map((y) => `GET /metrics/roic/AAPL?datapoint=ROIC&year=${y}`),
    );
  });

  it("adds only its own parts: every part of the input but the worksheet and the lists of parts kept byte for byte", () => {
    const input = unzipSync(BOOK);
    const day1 = unzipSync(new Uint8Array(readFileSync(path.join(dir, "day1.xlsx"))));
    const changed = Object.keys(input).filter(
      (k) => Buffer.compare(Buffer.from(input[k]!), Buffer.from(day1[k] ?? new Uint8Array())) !== 0,
    );
    expect(changed.sort()).toEqual([
      "[Content_Types].xml",
      "xl/_rels/workbook.xml.rels",
      "xl/worksheets/sheet1.xml",
    ]);
    expect(
      Object.keys(day1)
        .filter((k) => !(k in input))
        .sort(),
    ).toEqual([
      // The resolved periods and the sources, each a custom XML part with its properties and relationships.
      "customXml/_rels/item1.xml.rels",
      "customXml/_rels/item2.xml.rels",
      "customXml/item1.xml",
      "customXml/item2.xml",
      "customXml/itemProps1.xml",
      "customXml/itemProps2.xml",
      // The refresh's own: the series spills, marked as Excel marks a dynamic array.
      "xl/metadata.xml",
    ]);
  });
});

describe("fdq refresh --changes: a relative period restated without moving", () => {
  it("reports FY0 as restated when it still names the same fiscal year", async () => {
    let now = new Date("2026-01-20T12:00:00Z");
    const service = await startSandbox({ port: 0, now: () => now, restate: "2026-02-10" });
    try {
      const d = mkdtempSync(path.join(tmpdir(), "fdq-changes-"));
      writeFileSync(path.join(d, "in.xlsx"), smallBook({ Model: { B2: { f: FY0 } } }));
      const run = (args: string[]): Promise<Run> =>
        runFdq([
          "refresh",
          ...args,
          "--base-url",
          service.baseUrl,
          "--api-key",
          service.demoKey,
          "--no-cache",
        ]);
      const first = await serviceNumber(service, "metrics/roic/AAPL?datapoint=ROIC&year=2025");
      expect((await run([path.join(d, "in.xlsx"), "-o", path.join(d, "a.xlsx")])).code).toBe(0);
      now = new Date("2026-02-12T12:00:00Z");
      const second = await serviceNumber(service, "metrics/roic/AAPL?datapoint=ROIC&year=2025");
      expect(second).not.toBe(first);
      const out = await run([
        path.join(d, "a.xlsx"),
        "-o",
        path.join(d, "b.xlsx"),
        "--changes",
        path.join(d, "c.json"),
      ]);
      expect(out.stdout).toMatch(/ 1 change \(1 restated\): .*c\.json\.\n$/);
      expect(JSON.parse(readFileSync(path.join(d, "c.json"), "utf8"))).toEqual([
        {
          sheet: "Model",
          cell: "B2",
          formula: `=${FY0}`,
          old: first,
          new: second,
          kind: "restated",
          relativeChange: (second - first) / Math.abs(first),
          period: "FY2025",
        },
      ]);
    } finally {
      await service.close();
    }
  });
});
