// LibreOffice as an independent oracle for fdq refresh's formula engine: a workbook exercising the functions
// and semantics dependents may use is recalculated by the engine (FDQ calls answered by a fixed table, one of
// them with #N/A), then written again with the FDQ cells fixed to those values as constants and every other
// formula without a cached value, and LibreOffice (headless, its own profile in a temp folder, recalculating
// on load) computes the same workbook. Every formula cell must match (numbers to 1e-9 relative). Functions
// LibreOffice 7.x lacks (XLOOKUP, XMATCH, LET, FILTER, SORT, UNIQUE, SEQUENCE) are checked against values
// worked out by hand. One soffice launch for the whole file. Skips with a line saying so without soffice; fails
// instead under CI=true.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Outcome } from "../../../src/functions/evaluate";
import type { FdqCall } from "../../../src/functions/formula";
import { addressOfCell, rectOf } from "../../../src/workbook/engine/references";
import { ExcelError, type Scalar, type Table } from "../../../src/workbook/model";
import { Recalculation } from "../../../src/workbook/refresh/recalculation";
import {
  libreOfficeProfile,
  readOracleValues,
  RECALCULATE_ON_LOAD,
  writeOracleBook,
  type OracleBook,
  type OracleCell,
  type OracleValue,
} from "../../support/oracle-xlsx";
import { findComponent, LIBREOFFICE } from "../../support/components";
import { buildModel, type CellSpec } from "../../unit/workbook/build-model";
import { CALC, DATA, MODERN, MODERN_EXPECTED, NAMES, TABLES } from "./oracle-book";

const soffice = findComponent(LIBREOFFICE) ?? "";
const describeWithLibreOffice = soffice ? describe : describe.skip;

const ROIC: Record<string, number> = { AAPL: 0.31, MSFT: 0.27, NFLX: 0.09, GOOG: 0.22, AMZN: 0.12 };
const PE: Record<string, number> = { AAPL: 28.5, MSFT: 33.1, GOOG: 21.4, AMZN: 45.2 };

/** The FDQ service of this test: ROIC for all, P/E for all but NFLX (#N/A with a message). */
function outcomeOf(call: FdqCall): Outcome {
  const [ticker, , name] = call.args as [string, string, string];
  const value = name === "ROIC" ? ROIC[ticker] : PE[ticker];
  if (value === undefined) {
    return { ok: false, error: { error: "#N/A", message: `no ${name} for ${ticker}` }, noAnswer: false };
  }
  return { ok: true, value } as Outcome;
}

const isFormula = (cell: OracleCell): cell is Exclude<OracleCell, number | string | boolean> =>
  typeof cell === "object";

/** The engine's values of every formula cell, by "Sheet!A1". */
function recalculate(): Map<string, Scalar> {
  const sheets: Record<string, Record<string, CellSpec>> = {};
  for (const [name, cells] of Object.entries({
    Data: DATA,
    Calc: CALC,
    Modern: MODERN,
    Inputs: { B2: 2019 },
  })) {
    sheets[name] = Object.fromEntries(
      Object.entries(cells).map(([address, cell]): [string, CellSpec] => {
        if (!isFormula(cell)) return [address, cell];
        // FDQ cells hold yesterday's value; every other formula has none, so all are computed.
        const fdq = /^(FDQ\.|_xldudf_)/i.test(cell.f);
        return [
          address,
          {
            f: cell.f,
            ...(fdq ? { v: 0 } : {}),
            ...(cell.array ? { array: cell.array, cse: !cell.dynamic } : {}),
          },
        ];
      }),
    );
  }
  const tables: Table[] = TABLES.map((t) => ({
    name: t.name,
    sheet: t.sheet,
    ref: t.ref,
    headerRowCount: 1,
    totalsRowCount: t.totalsRow ? 1 : 0,
    columns: t.columns.map((name) => ({ name })),
  }));
  const model = buildModel({
    sheets,
    names: NAMES.map((n) => ({ name: n.name, text: n.text, scope: n.sheet })),
    tables,
  });
  const recalculation = new Recalculation(model);
  for (let calls = recalculation.pass(); calls.length > 0; calls = recalculation.pass()) {
    recalculation.answer(calls, calls.map(outcomeOf));
  }
  const values = new Map<string, Scalar>();
  for (const result of recalculation.results()) {
    const where = `${result.cell.sheet}!${addressOfCell(result.cell.row, result.cell.col)}`;
    if (result.kind === "skipped") {
      values.set(where, `skipped: ${result.reason}`);
      continue;
    }
    values.set(where, result.value);
    result.spill?.rows?.forEach((row, r) =>
      row.forEach((v, c) =>
        values.set(`${result.cell.sheet}!${addressOfCell(result.cell.row + r, result.cell.col + c)}`, v),
      ),
    );
  }
  return values;
}

/** The same workbook for LibreOffice: FDQ cells as the constants the engine gave them. */
function bookForLibreOffice(ours: Map<string, Scalar>): OracleBook {
  const data: Record<string, OracleCell> = {};
  for (const [address, cell] of Object.entries(DATA)) {
    if (isFormula(cell) && /^(FDQ\.|_xldudf_)/i.test(cell.f)) {
      const v = ours.get(`Data!${address}`);
      data[address] = v instanceof ExcelError ? { f: "NA()" } : (v as number);
    } else data[address] = cell;
  }
  return { sheets: { Data: data, Calc: CALC, Inputs: { B2: 2019 } }, names: NAMES, tables: TABLES };
}

function runLibreOffice(book: OracleBook): Map<string, OracleValue> {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-oracle-"));
  try {
    // Every formula recalculated on load (an .xlsx's cached values would otherwise be trusted).
    const profile = libreOfficeProfile(path.join(dir, "profile"), [RECALCULATE_ON_LOAD]);
    const input = path.join(dir, "oracle.xlsx");
    writeFileSync(input, writeOracleBook(book));
    const out = path.join(dir, "out");
    execFileSync(
      soffice,
      [profile, "--headless", "--norestore", "--convert-to", "xlsx", "--outdir", out, input],
      { stdio: "pipe", timeout: 120_000 },
    );
    return readOracleValues(readFileSync(path.join(out, "oracle.xlsx")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function same(ours: Scalar | undefined, theirs: OracleValue | undefined): boolean {
  if (ours instanceof ExcelError)
    return typeof theirs === "object" && theirs !== null && theirs.error === ours.code;
  if (typeof ours === "number" && typeof theirs === "number") {
    return Math.abs(ours - theirs) <= 1e-9 * Math.max(1, Math.abs(theirs));
  }
  return ours === theirs;
}

const show = (v: Scalar | OracleValue | undefined): string =>
  v instanceof ExcelError ? v.code : JSON.stringify(v);

describeWithLibreOffice("the formula engine against LibreOffice", () => {
  let ours: Map<string, Scalar>;
  let theirs: Map<string, OracleValue>;

  beforeAll(() => {
    ours = recalculate();
    theirs = runLibreOffice(bookForLibreOffice(ours));
  }, 180_000);

  it("computes every formula of the workbook (none skipped)", () => {
    const skipped = [...ours].filter(([, v]) => typeof v === "string" && v.startsWith("skipped: "));
    expect(skipped).toEqual([]);
  });

  it("matches LibreOffice on every formula cell LibreOffice can compute", () => {
    const mismatches: string[] = [];
    const formulas = [
      ...Object.entries(CALC).map(([a, c]) => ["Calc", a, c] as const),
      ...Object.entries(DATA).map(([a, c]) => ["Data", a, c] as const),
    ];
    for (const [sheet, address, cell] of formulas) {
      if (!isFormula(cell) || /^(FDQ\.|_xldudf_)/.test(cell.f)) continue;
      const cells = cell.array ? rectOf(sheet, cell.array) : undefined;
      const addresses = cells
        ? Array.from({ length: cells.bottom - cells.top + 1 }, (_, r) =>
            Array.from({ length: cells.right - cells.left + 1 }, (_, c) =>
              addressOfCell(cells.top + r, cells.left + c),
            ),
          ).flat()
        : [address];
      for (const a of addresses) {
        const mine = ours.get(`${sheet}!${a}`);
        const lo = theirs.get(`${sheet}!${a}`);
        if (!same(mine, lo))
          mismatches.push(`${sheet}!${a} =${cell.f}: engine ${show(mine)}, LibreOffice ${show(lo)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("gives the values worked out by hand where LibreOffice lacks the function", () => {
    const mismatches: string[] = [];
    for (const [address, expected] of Object.entries(MODERN_EXPECTED)) {
      const mine = ours.get(`Modern!${address}`);
      const want = expected instanceof ExcelError ? { error: expected.code } : expected;
      if (!same(mine, want))
        mismatches.push(`Modern!${address}: engine ${show(mine)}, expected ${show(expected)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("leaves no formula of the checked sheets out of the comparison", () => {
    const calcFormulas = Object.values(CALC).filter(isFormula).length;
    expect(calcFormulas).toBeGreaterThan(60);
    expect(Object.keys(MODERN_EXPECTED).length).toBeGreaterThanOrEqual(
      Object.values(MODERN).filter(isFormula).length,
    );
  });
});
