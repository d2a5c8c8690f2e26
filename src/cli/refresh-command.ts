// `fdq refresh WORKBOOK.xlsx (-o OUT.xlsx | --in-place)`: gives a workbook today's values of its FDQ cells and of
// the formulas that depend on them, so that it opens with them even where the add-in is not installed.
//
// The file is patched, never re-serialised (src/workbook/xlsx): every part is copied byte for byte except the
// worksheets holding recalculated cells, and in those only the cached values change. The formulas stay; the
// recalculation (src/workbook/refresh/recalculation.ts) fetches FDQ calls in one batch per level of dependency; a
// formula it cannot compute keeps its old value and is reported. Where the result is written is checked before
// the first request, and it is written atomically; the input is only replaced with --in-place.
//
// Exit status: 0 every formula concerned got a value (Excel errors included); 4 some were left with their old
// values (listed); 3 the run would spend more than --budget (nothing sent, nothing written); 2 a usage error or
// an input or output fdq cannot use (nothing sent); 1 anything else (nothing written over anything).
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import type { FdqCall } from "../functions/formula";
import { calcOnLoadWarning, recalculatesOnLoad } from "../workbook/refresh/calc-on-load";
import { sameValue } from "../workbook/changes/changes";
import { addressOf } from "../workbook/engine/references";
import { engineFormula } from "../workbook/formula-text";
import { ExcelError } from "../workbook/model";
import { Recalculation, type CellResult } from "../workbook/refresh/recalculation";
import { writesOf } from "../workbook/refresh/cell-writes";
import { AtomicOutput, FileProblem, OutputWriteError, readInput } from "../workbook/xlsx/node-files";
import { openPackage, PackageError, type WorkbookPackage } from "../workbook/xlsx/package";
import { fdqElsewhere } from "../workbook/xlsx/fdq-elsewhere";
import { patchPackage } from "../workbook/xlsx/patch";
import { readWorkbook, type ReadWorkbook } from "../workbook/xlsx/read-model";
import { BudgetExceeded, estimateRun } from "./budget";
import { formatStats, openConnection, type Connection } from "./connection";
import { evaluateInWindows } from "./call-windows";
import type { Outcome } from "../functions/evaluate";
import type { RefreshOptions } from "./options";
import { outputTarget } from "./output-target";
import { ChangesOutput, changesSentence } from "./refresh-changes";
import { readKeptRecords, refreshPeriods, ResolutionRecorder, withKeptRecords } from "./refresh-records";
import { PackageEditor } from "../workbook/xlsx/structure";
import { reportOf as reportedValue, scopedModel, scopePhrase } from "./scoped-model";

/** The exit statuses of `fdq refresh` (docs/refresh.md has the same table). */
export const REFRESH_EXIT = {
  ok: 0,
  failed: 1,
  badInput: 2,
  overBudget: 3,
  skipped: 4,
} as const;

/** Error cells listed on stderr beyond the summary: enough to see what is wrong, not one line per cell. */
const ERRORS_LISTED = 20;

function open(file: string, bytes: Uint8Array): { pkg: WorkbookPackage; read: ReadWorkbook } {
  try {
    const pkg = openPackage(bytes);
    return { pkg, read: readWorkbook(pkg, { refreshReach: true, cellReach: true }) };
  } catch (err) {
    if (err instanceof PackageError) throw new FileProblem(`cannot refresh ${file}: ${err.message}`);
    throw new FileProblem(`cannot refresh ${file}: it is damaged: ${(err as Error).message}`);
  }
}

/** A macro-enabled workbook keeps an extension Excel opens it under. */
export function checkExtension(pkg: WorkbookPackage, target: string): void {
  const macros = pkg.kind === "xlsm" || pkg.kind === "xltm";
  const ext = path.extname(target).toLowerCase();
  if (macros && ext !== ".xlsm" && ext !== ".xltm") {
    throw new FileProblem(
      `cannot write ${target}: the workbook has macros (.xlsm), and Excel will not open a macro-enabled workbook ` +
        `named ${ext || "without an extension"}; give -o a name ending in .xlsm`,
    );
  }
  if (!macros && (ext === ".xlsm" || ext === ".xltm")) {
    throw new FileProblem(
      `cannot write ${target}: the workbook has no macros, and Excel will not open it named ${ext}; give -o a name ending in .xlsx`,
    );
  }
}

/**
 * Fetches each level's calls in one batch on one connection (one client: one cache, one set of stats);
 * answers the number of batches sent.
 */
async function recalculate(
  recalculation: Recalculation,
  connection: Connection,
  options: RefreshOptions,
  recorder: ResolutionRecorder,
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
    // In windows of linked calls: 50,000 calls in flight at once would hold 75-150 MB (call-windows.ts).
    const outcomes: Outcome[] = await evaluateInWindows(recorder.wrap(client), client, calls);
    recalculation.answer(calls, outcomes);
  }
  return batches;
}

/**
 * The recalculation's results. Its engine, its cache of answers and the connection are dropped on return,
 * before the file is patched: the memory they take is not held at the same time as the patched package's.
 */
const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

interface Report {
  fdq: number;
  fdqErrors: number;
  dependents: number;
  dependentErrors: number;
  fdqLeft: number;
  dependentsLeft: number;
  functions: Set<string>;
  errors: string[];
  skipped: string[];
}

function reportOf(results: readonly CellResult[]): Report {
  const report: Report = {
    fdq: 0,
    fdqErrors: 0,
    dependents: 0,
    dependentErrors: 0,
    fdqLeft: 0,
    dependentsLeft: 0,
    functions: new Set(),
    errors: [],
    skipped: [],
  };
  for (const result of results) {
    const where = addressOf(result.cell);
    if (result.kind === "skipped") {
      if (engineFormula(result.cell.formula).callsFdq) report.fdqLeft++;
      else report.dependentsLeft++;
      for (const f of result.functions) report.functions.add(f);
      report.skipped.push(`${where}: left with its old value, ${result.reason}`);
      continue;
    }
    const error = result.value instanceof ExcelError ? result.value : undefined;
    if (result.callsFdq) {
      report.fdq++;
      if (error) report.fdqErrors++;
    } else {
      report.dependents++;
      if (error) report.dependentErrors++;
    }
    if (error) report.errors.push(`${where}: ${error.code}${error.message ? ` ${error.message}` : ""}`);
  }
  return report;
}

function summary(report: Report, kept: number, changed: number, out: string, extra = ""): string {
  const withErrors = (n: number): string => (n > 0 ? ` (${count(n, "with an error", "with errors")})` : "");
  const left: string[] = [];
  if (report.fdqLeft > 0) left.push(count(report.fdqLeft, "FDQ cell"));
  if (report.dependentsLeft > 0) left.push(count(report.dependentsLeft, "dependent"));
  const functions = [...report.functions].sort();
  const stoppedBy = functions.length > 0 ? ` (stopped by ${functions.join(", ")})` : "";
  return (
    `Refreshed ${count(report.fdq, "FDQ cell")}${extra}${withErrors(report.fdqErrors)}, ` +
    `recomputed ${count(report.dependents, "dependent")}${withErrors(report.dependentErrors)}, ` +
    `left ${left.length > 0 ? left.join(" and ") : "none"} with old values${stoppedBy}; ` +
    `changed ${count(changed, "part")}, kept ${count(kept, "other part")} byte for byte. Wrote ${out}.\n`
  );
}

function list(lines: readonly string[], most: number, what: string): void {
  for (const line of lines.slice(0, most)) process.stderr.write(`fdq refresh: ${line}\n`);
  if (lines.length > most) process.stderr.write(`fdq refresh: ... and ${lines.length - most} more ${what}\n`);
}

/**
 * How far V8 lets the heap grow past what survived its last full collection before it collects again, in
 * percent. By default V8 picks a factor of up to 4 (more the slower its collections go, so more on a busy
 * machine); a refresh allocates steadily (every answer decoded, every cell evaluated) while holding about
 * 100-150 MB for 50,000 FDQ cells, so its peak resident memory was mostly garbage waiting for a collection
 * (peak 0.4-0.6 GB, against about 0.33 GB with 50%, at no measurable CPU cost: bench/README.md, R1).
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Sets the growth above for this process. V8 reads the flag each time it sizes the heap after a full
 * collection, so setting it once the process runs takes effect from the next collection on; only `fdq
 * refresh` sets it (its process ends with the refresh).
 */
function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

export async function runRefresh(options: RefreshOptions): Promise<number> {
  boundHeapGrowth();
  const target = await outputTarget("refresh", "the refreshed workbook", options);
  let output: AtomicOutput | undefined;
  let changes: ChangesOutput | undefined;
  try {
    const bytes = await readInput(options.workbook);
    const { pkg, read } = open(options.workbook, bytes);
    checkExtension(pkg, target);
    // Room for the patched worksheets beside the copied parts.
    output = await AtomicOutput.prepare(target, bytes.length + 64 * 1024, options.inPlace);

    if (options.changes !== undefined) {
      changes = await ChangesOutput.prepare(options.changes, [options.workbook, target]);
    }

    // Said before any request, so that it is read even when the run stops early.
    if (recalculatesOnLoad(pkg))
      process.stderr.write(`fdq refresh: warning: ${calcOnLoadWarning(options.workbook)}\n`);
    const previousRecords = readKeptRecords(new PackageEditor(pkg));
    const connection = await openConnection(options);
    const recorder = new ResolutionRecorder(connection.baseUrl, (request) => {
      try {
        return connection.client.keyOf(request).path;
      } catch {
        return undefined;
      }
    });
    let batches = 0;
    let results: CellResult[] = [];
    try {
      const model = await scopedModel(read.model, options, () => connection.client);
      const recalculation = new Recalculation(model);
      batches = await recalculate(recalculation, connection, options, recorder);
      results = recalculation.results();
    } finally {
      if (options.stats)
        process.stderr.write(`${formatStats(connection.client.stats())}, batches ${batches}\n`);
      await connection.close();
    }
    const writes = writesOf(results, read.model);
    const patched = patchPackage(pkg, read.sharedStrings, writes);
    // What each FDQ cell asked and which request answered it, kept in the workbook for the next refresh's
    // "new period" and for fdq freeze --share's sources. (Skipped when no FDQ cell got a value and the
    // workbook holds no record: the calls are not read again.)
    const periods =
      !results.some((r) => r.kind === "value" && r.callsFdq) &&
      previousRecords.periods.length === 0 &&
      previousRecords.sources.length === 0
        ? { cells: new Map(), periods: [], sources: [] }
        : await refreshPeriods(
            results,
            read.model,
            writes,
            previousRecords,
            recorder,
            // The report reads a period's "before" only where the value changed; without a report, nowhere.
            (r) =>
              options.changes !== undefined &&
              !sameValue(reportedValue(r.cell.cached), reportedValue(r.value)),
            options.changes !== undefined,
          );
    const kept = withKeptRecords(patched.bytes, previousRecords, periods);
    await output.commit(kept.bytes);
    output = undefined;

    const changed = await changes?.write(results, periods.cells, read.model, writes);
    changes = undefined;

    const report = reportOf(results);
    const extra = scopePhrase(options);
    const newlyChanged = kept.changed.filter((p) => !patched.changed.includes(p)).length;
    const line = summary(
      report,
      patched.kept - newlyChanged,
      patched.changed.length + newlyChanged + kept.added.length,
      target,
      extra,
    );
    process.stdout.write(
      changed === undefined
        ? line
        : line.replace(
            /\n$/,
            ` ${changesSentence(changed).replace(/^./, (c) => c.toUpperCase())}: ${options.changes}.\n`,
          ),
    );
    // Every cell left with its old value is named (the user must know which numbers are stale); errors are
    // values like any other, listed up to a screenful.
    list(report.skipped, Infinity, "cells left with their old values");
    // FDQ calls outside cells' values (a conditional format, a data validation, a name no formula uses): named
    // too, so that every FDQ call of the workbook is refreshed or reported.
    list(
      fdqElsewhere(pkg, read.model).map((f) => `${f.where}: not refreshed, ${f.reason}`),
      Infinity,
      "FDQ calls outside cells",
    );
    list(report.errors, ERRORS_LISTED, "cells with errors");
    return report.skipped.length > 0 ? REFRESH_EXIT.skipped : REFRESH_EXIT.ok;
  } catch (err) {
    if (err instanceof FileProblem) {
      process.stderr.write(`fdq refresh: ${err.message}\n`);
      return REFRESH_EXIT.badInput;
    }
    if (err instanceof OutputWriteError) {
      process.stderr.write(`fdq refresh: ${err.message}\n`);
      return REFRESH_EXIT.failed;
    }
    throw err;
  } finally {
    await output?.discard();
    await changes?.discard();
  }
}
