// `fdq new`: each template made into a new workbook, filled by `fdq refresh` against the sandbox, shared with
// `fdq freeze --share`, and the five shared copies opened by LibreOffice (an application without the add-in) in
// one conversion that recalculates every formula: no cell holds an error value, and the reconciliation's check
// row, computed again by LibreOffice from the walk's values, says the signed items add up to NOPAT.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync, zipSync } from "fflate";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { TEMPLATES } from "../../../src/workbook/templates";
import { findComponent, LIBREOFFICE } from "../../support/components";
import {
  libreOfficeProfile,
  readOracleValues,
  RECALCULATE_ON_LOAD,
  type OracleValue,
} from "../../support/oracle-xlsx";
import { serviceNumber } from "../functions/sandbox-oracle";
import { runFdq, type Run } from "./run-fdq";

const SOFFICE = findComponent(LIBREOFFICE);

/** The tickers each template is made for (sandbox tickers). */
const TICKERS: Readonly<Record<string, string>> = {
  "roic-economic-earnings": "AAPL",
  "peer-comparison": "AAPL,MSFT,NFLX",
  "ratings-dashboard": "AAPL,MSFT,NFLX,K",
  "nopat-reconciliation": "AAPL",
  "sector-comparison": "MSFT",
};

let sandbox: RunningSandbox;
let dir: string;
let connection: string[];
const made = new Map<string, Run>();
const refreshed = new Map<string, Run>();
const shared = new Map<string, Run>();

const file = (name: string, kind: string): string => path.join(dir, `${name}.${kind}.xlsx`);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
  dir = mkdtempSync(path.join(tmpdir(), "fdq-new-"));
  connection = [
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    sandbox.demoKey,
    "--cache-dir",
    path.join(dir, "cache"),
  ];
  for (const { name } of TEMPLATES) {
    made.set(
      name,
      await runFdq([
        "new",
        name,
        "--tickers",
        TICKERS[name] as string,
        "-o",
        file(name, "new"),
        ...connection,
      ]),
    );
    refreshed.set(
      name,
      await runFdq(["refresh", file(name, "new"), "-o", file(name, "filled"), "--stats", ...connection]),
    );
    shared.set(
      name,
      await runFdq(["freeze", "--share", file(name, "filled"), "-o", file(name, "shared"), ...connection]),
    );
  }
}, 240_000);

afterAll(() => sandbox.close());

describe("fdq new", () => {
  it("lists the templates' names, one a line", async () => {
    const run = await runFdq(["new", "--list"]);
    expect(run).toEqual({ code: 0, stdout: TEMPLATES.map((t) => `${t.name}\n`).join(""), stderr: "" });
  });

  it.each(TEMPLATES.map((t) => t.name))(
    "makes %s, says what filling it costs, and fdq refresh fills it for that",
    (name) => {
      const run = made.get(name) as Run;
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        new RegExp(
          `^Wrote .*${name}\\.new\\.xlsx: template ${name}, sheet "[^"]+", \\d+ FDQ cells\\.\\n` +
            `Filling it will cost (at most )?\\d+ quota units \\(\\d+ requests not in today's cache at ${sandbox.baseUrl.replace(/\./g, "\\.")}` +
            `(; less if the day's ticker coverage list, asked first, does not list some tickers)?\\)\\.\\n`,
        ),
      );
      const fill = refreshed.get(name) as Run;
      expect(fill.code).toBe(0);
      expect(fill.stdout).toMatch(/left none with old values/);
      // The price said is what the refresh then spent (the templates share one cache, as an analyst's day does).
      const price = Number(/Filling it will cost (?:at most )?(\d+) quota unit/.exec(run.stdout)?.[1]);
      const spent = Number(/units spent (\d+)/.exec(fill.stderr)?.[1]);
      expect({ price, spent }).toEqual({ price: spent, spent });
      expect(spent).toBeGreaterThan(0);
      expect(shared.get(name)?.code).toBe(0);
    },
  );

  it("stores the FDQ calls as Excel stores an add-in's function, with relative periods", () => {
    const sheet = new TextDecoder().decode(
      unzipSync(readFileSync(file("roic-economic-earnings", "new")))["xl/worksheets/sheet1.xml"],
    );
    expect(sheet).toContain('<f>_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC","FY-9")</f>');
    expect(sheet).toContain('<f>_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC","FY0")</f>');
    expect(sheet).not.toMatch(/FDQ\.[A-Z]+\(|,20\d\d\)/);
  });

  it("refuses bad input with a clear message and the usage status, writing nothing", async () => {
    const out = path.join(dir, "refused.xlsx");
    const cases: ReadonlyArray<readonly [string[], string]> = [
      [
        ["new", "roic", "--tickers", "AAPL", "-o", out],
        'fdq: "roic" is not a template; the templates are roic-economic-earnings, peer-comparison, ratings-dashboard, nopat-reconciliation, sector-comparison (fdq new --list).',
      ],
      [
        ["new", "ratings-dashboard", "-o", out],
        "fdq: no tickers given: fdq new ratings-dashboard --tickers AAPL,MSFT -o model.xlsx",
      ],
      [
        ["new", "nopat-reconciliation", "--tickers", "AAPL,MSFT", "-o", out],
        "fdq: template nopat-reconciliation takes one ticker, not 2.",
      ],
      [
        ["new", "ratings-dashboard", "--tickers", "AAPL,MS FT", "-o", out],
        'fdq: "MS FT" is not a ticker: a ticker is letters, digits and . : _ - (e.g. AAPL, BRK.B, ENRN:1), at most 40 characters.',
      ],
      [
        ["new", "peer-comparison", "--tickers", "AAPL,MSFT", "--datapoints", "roic:ROCI", "-o", out],
        'fdq: datapoint "ROCI" is not in dataset metrics/roic.',
      ],
      [
        ["new", "peer-comparison", "--tickers", "AAPL,MSFT", "-o", file("peer-comparison", "new")],
        `fdq: ${file("peer-comparison", "new")} already exists: fdq new writes a new workbook; give another -o path (fdq refresh fills an existing one).`,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runFdq(args);
      expect({ args, code: run.code, stderr: run.stderr.split("\n")[0] }).toEqual({
        args,
        code: 2,
        stderr: message,
      });
    }
    expect(existsSync(out)).toBe(false);
  });

  (SOFFICE ? it : it.skip)(
    "makes shared copies that LibreOffice opens and recalculates with no error value, the check row saying the walk adds up",
    async () => {
      const out = path.join(dir, "lo");
      const profile = libreOfficeProfile(path.join(dir, "lo-profile"), [RECALCULATE_ON_LOAD]);
      // Beside the five, the walk's shared copy with its FY0 NOPAT raised by 1.00: the check must say so.
      writeFileSync(path.join(dir, "walk-off.xlsx"), walkWithNopatRaised());
      const copies = [...TEMPLATES.map((t) => file(t.name, "shared")), path.join(dir, "walk-off.xlsx")];
      execFileSync(
        SOFFICE as string,
        [profile, "--headless", "--norestore", "--convert-to", "xlsx", "--outdir", out, ...copies],
        {
          stdio: "pipe",
          timeout: 170_000,
        },
      );
      const values = new Map<string, Map<string, OracleValue>>();
      for (const t of TEMPLATES)
        values.set(t.name, readOracleValues(readFileSync(path.join(out, `${t.name}.shared.xlsx`))));
      const errors = [...values].flatMap(([name, cells]) =>
        [...cells]
          .filter(([, v]) => typeof v === "object" && v !== null)
          .map(([cell, v]) => `${name} ${cell} ${JSON.stringify(v)}`),
      );
      expect(errors).toEqual([]);
      // Every template's FDQ cells came through as values (no template is empty).
      for (const [name, cells] of values)
        expect({
          name,
          numbers: [...cells.values()].filter((v) => typeof v === "number").length > 3,
        }).toEqual({ name, numbers: true });

      const walk = values.get("nopat-reconciliation") as Map<string, OracleValue>;
      const sheet = "NOPAT walk AAPL";
      const row = (label: string): number => {
        const hit = [...walk].find(([cell, v]) => cell.startsWith(`${sheet}!B`) && v === label);
        return Number(/\d+$/.exec(hit?.[0] ?? "")?.[0]);
      };
      const check = row("Do the signed items add up to NOPAT?");
      expect([
        walk.get(`${sheet}!C${check}`),
        walk.get(`${sheet}!D${check}`),
        walk.get(`${sheet}!E${check}`),
      ]).toEqual(["adds up within rounding", "adds up within rounding", "adds up within rounding"]);
      // The walk's values are the service's, and the total is NOPAT's.
      const nopat = await serviceNumber(
        sandbox,
        "reconciliation/net-income-to-nopat/AAPL?datapoint=NOPAT&year=" + (await latestYear()),
      );
      expect(walk.get(`${sheet}!E${row("NOPAT")}`)).toBeCloseTo(nopat, 2);

      // The same walk with a total that does not fit: the check says so, with the difference.
      const off = readOracleValues(readFileSync(path.join(out, "walk-off.xlsx")));
      expect([off.get(`${sheet}!D${check}`), off.get(`${sheet}!E${check}`)]).toEqual([
        "adds up within rounding",
        "does not add up: difference -1.00",
      ]);
    },
    180_000,
  );
});

/** The walk's shared copy with the FY0 NOPAT cell's value raised by 1.00 (its sheet part edited). */
function walkWithNopatRaised(): Uint8Array {
  const parts = unzipSync(readFileSync(file("nopat-reconciliation", "shared")));
  const values = readOracleValues(readFileSync(file("nopat-reconciliation", "shared")));
  const label = [...values].find(([cell, v]) => /^NOPAT walk AAPL!B\d+$/.test(cell) && v === "NOPAT")?.[0];
  const ref = `E${/\d+$/.exec(label ?? "")?.[0]}`;
  const part = "xl/worksheets/sheet1.xml";
  const xml = new TextDecoder().decode(parts[part]);
  const edited = xml.replace(
    new RegExp(`(<c r="${ref}"[^>]*><v>)([^<]*)(</v>)`),
    (_, open: string, v: string, close: string) => `${open}${Number(v) + 1}${close}`,
  );
  expect(edited).not.toBe(xml);
  return zipSync({ ...parts, [part]: new TextEncoder().encode(edited) });
}

/** AAPL's latest fiscal year, as the shared copy's sources sheet names FY0's period ("FY0 = fiscal 2025"). */
async function latestYear(): Promise<number> {
  const sources = readOracleValues(readFileSync(file("nopat-reconciliation", "shared")));
  const period = [...sources.values()].find((v) => typeof v === "string" && /^FY0 = fiscal \d{4}$/.test(v));
  return Number(String(period).slice(-4));
}
