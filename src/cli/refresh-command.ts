// `fdq refresh WORKBOOK.xlsx [-o OUT.xlsx]`: recalculates a workbook around its FDQ cells and saves it, so
// that it opens with today's numbers even where the add-in is not installed. The formulas stay; every formula
// that calls FDQ or reads (directly or not) a cell that does gets its new value as its cached result
// (workbook/recalculation.ts), FDQ calls are fetched in one batch per level of dependency, and spills are
// written as Excel stores dynamic arrays (spill.ts, workbook/dynamic-arrays.ts). A formula fdq cannot
// evaluate (an unsupported function, a reference to another workbook) keeps its old value and is reported.
// Exit status: 0 when every formula concerned got a value (Excel errors included), 4 when some were skipped.
import { readFile, writeFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { FormulaError } from "fast-formula-parser";
import type { FdqCall } from "../functions/formula";
import { BudgetExceeded, estimateRun } from "./budget";
import { formatStats, openConnection, type Connection } from "./connection";
import { evaluateAll, type Outcome } from "./evaluate";
import { UsageError, type RefreshOptions } from "./options";
import { clearSpill, LEGACY_SPILL_NAME, writeResult, writeSpill, type Written } from "./spill";
import { addressOf } from "./workbook/addresses";
import {
  parseRangeText,
  readCells,
  type EngineValue,
  type FormulaCell,
  type NamedRange,
  type WorkbookCells,
} from "./workbook/cells";
import { engineFormula } from "./workbook/formula-text";
import { markDynamicArrays, readDynamicAnchors, type DynamicAnchors } from "./workbook/dynamic-arrays";
import { Recalculation, type CellResult } from "./workbook/recalculation";

/**
 * The formula in FDQ.NAME(...) form when its whole text is one FDQ call, else undefined. Excel saves JavaScript
 * custom functions as _xldudf_FDQ_NAME(...) (sometimes behind an external-book prefix such as [2]!). The refresh
 * itself now reads every formula through workbook/formula-text.ts; this stays for its existing callers.
 */
export function fdqFormulaOf(stored: string): string | undefined {
  const text = stored.trim().replace(/^=/, "");
  const saved = /^(?:\[\d+\]!)?_xldudf_FDQ_([A-Za-z]+)\s*\(/.exec(text);
  if (saved) return `FDQ.${saved[1]}(${text.slice(saved[0].length)}`;
  return /^FDQ\.[A-Za-z]+\s*\(/i.test(text) ? text : undefined;
}

/** Exit status of a refresh that skipped formulas (their old values kept); the file is written all the same. */
export const EXIT_SKIPPED = 4;

/** Error cells listed on stderr beyond the summary: enough to see what is wrong, not one line per cell. */
const ERRORS_LISTED = 20;

/** The range each FDQ anchor spilled into last time: its array formula's `ref`, or an earlier fdq's name. */
function previousSpills(workbook: ExcelJS.Workbook, cells: WorkbookCells): Map<FormulaCell, NamedRange> {
  const legacy = new Map<string, string>();
  const names = workbook.definedNames.model as { name: string; ranges: string[] }[];
  for (const n of names) if (n.name.startsWith(LEGACY_SPILL_NAME)) legacy.set(n.name, n.ranges[0] ?? "");
  // Excel needs no name for a spill: the anchor's `ref` remembers it. Earlier fdq versions' names go.
  workbook.definedNames.model = names.filter((n) => !n.name.startsWith(LEGACY_SPILL_NAME));
  const previous = new Map<FormulaCell, NamedRange>();
  for (const cell of cells.formulas) {
    // Only FDQ anchors: the spill of one of Excel's own dynamic arrays (SORT, SEQUENCE...) is not fdq's to clear.
    if (!engineFormula(cell.stored).callsFdq) continue;
    const legacyRange = legacy.get(`${LEGACY_SPILL_NAME}${cell.cell.worksheet.id}.${cell.cell.address}`);
    const text = cell.arrayRef !== undefined ? `'${cell.sheet}'!${cell.arrayRef}` : legacyRange;
    const range = text === undefined ? undefined : parseRangeText(text);
    if (range && (range.to.row > range.from.row || range.to.col > range.from.col)) previous.set(cell, range);
  }
  return previous;
}

function written(value: EngineValue): Written {
  if (value instanceof FormulaError) return { error: value.error } as ExcelJS.CellErrorValue; // the code: a file has no message
  if (Array.isArray(value)) return written(value[0]?.[0] ?? null);
  // A formula reading an empty cell shows 0 in Excel.
  return value ?? 0;
}

/**
 * Fetches each level's calls in one batch on one connection (one client: one cache, one set of stats);
 * answers the number of batches sent.
 */
async function recalculate(
  recalculation: Recalculation,
  connection: Connection,
  options: RefreshOptions,
): Promise<number> {
  const { client } = connection;
  await client.ready();
  let batches = 0;
  for (let calls: FdqCall[] = recalculation.pass(); calls.length > 0; calls = recalculation.pass()) {
    if (options.budget !== undefined) {
      // A later level's calls (arguments reading FDQ cells) are only known once the earlier ones are
      // answered: each batch is checked against what is left of the budget. Over it, the first batch stops
      // the run with nothing sent (exit 3); a later one is not sent and its cells are skipped.
      const estimate = await estimateRun(client, calls);
      if (estimate.units > options.budget - client.stats().unitsSpent) {
        if (batches === 0) throw new BudgetExceeded(estimate, options.budget);
        recalculation.refuse(
          calls,
          `not fetched: its FDQ call would take the run over --budget ${options.budget}`,
        );
        continue;
      }
    }
    batches++;
    const outcomes: Outcome[] = await evaluateAll(client, calls);
    recalculation.answer(calls, outcomes);
  }
  return batches;
}

interface Report {
  values: number;
  errors: string[];
  skipped: string[];
}

function writeResults(
  results: readonly CellResult[],
  previous: ReadonlyMap<FormulaCell, NamedRange>,
  dynamic: DynamicAnchors,
): Report {
  const report: Report = { values: 0, errors: [], skipped: [] };
  for (const result of results) {
    const { cell } = result;
    const where = addressOf(cell);
    if (result.kind === "skipped") {
      report.skipped.push(`${where}: skipped, ${result.reason}; its old value is kept`);
      continue;
    }
    const anchored = dynamic.get(cell.sheet);
    if (result.spill) {
      writeSpill(
        cell.cell,
        result.spill.rows?.map((row) => row.map(written)),
        previous.get(cell),
      );
      if (!anchored) dynamic.set(cell.sheet, new Set([cell.cell.address]));
      else anchored.add(cell.cell.address);
    } else {
      const wasSpill = previous.get(cell);
      if (wasSpill) clearSpill(cell.cell, wasSpill);
      // An FDQ anchor that now answers one value is a plain formula again; any other array formula stays one.
      writeResult(cell.cell, written(result.value), !result.callsFdq);
      if (result.callsFdq) anchored?.delete(cell.cell.address);
    }
    if (result.value instanceof FormulaError) {
      report.errors.push(
        `${where}: ${result.value.error}${result.value.message ? ` ${result.value.message}` : ""}`,
      );
    } else {
      report.values++;
    }
  }
  return report;
}

export async function runRefresh(options: RefreshOptions): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  let dynamic: DynamicAnchors;
  try {
    const bytes = await readFile(options.workbook);
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer); // exceljs's type says ArrayBuffer; it takes a Buffer
    dynamic = await readDynamicAnchors(bytes);
  } catch (err) {
    throw new UsageError(`cannot read ${options.workbook} as an .xlsx workbook: ${(err as Error).message}`);
  }
  const cells = readCells(workbook);
  const previous = previousSpills(workbook, cells);
  const recalculation = new Recalculation(cells, previous);
  const connection = await openConnection(options);
  let batches = 0;
  try {
    batches = await recalculate(recalculation, connection, options);
  } finally {
    if (options.stats) {
      process.stderr.write(`${formatStats(connection.client.stats())}, batches ${batches}\n`);
    }
    await connection.close();
  }
  const report = writeResults(recalculation.results(), previous, dynamic);
  const out = options.out ?? options.workbook;
  const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
  await writeFile(out, await markDynamicArrays(xlsx, dynamic));

  const total = report.values + report.errors.length + report.skipped.length;
  process.stdout.write(
    `Refreshed ${total} formula cell(s): ${report.values} with values, ${report.errors.length} with errors, ` +
      `${report.skipped.length} skipped. Wrote ${out}.\n`,
  );
  for (const line of report.skipped) process.stderr.write(`fdq refresh: ${line}\n`);
  for (const line of report.errors.slice(0, ERRORS_LISTED)) process.stderr.write(`fdq refresh: ${line}\n`);
  if (report.errors.length > ERRORS_LISTED) {
    process.stderr.write(
      `fdq refresh: ... and ${report.errors.length - ERRORS_LISTED} more cells with errors\n`,
    );
  }
  return report.skipped.length > 0 ? EXIT_SKIPPED : 0;
}
