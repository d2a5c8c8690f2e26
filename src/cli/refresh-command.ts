// `fdq refresh WORKBOOK.xlsx [-o OUT.xlsx]`: evaluates every FDQ formula cell of a workbook at once and
// writes the values back as the formulas' cached results (the formulas stay), so the file opens with
// today's numbers even where the add-in is not installed. Spilled results are written as Excel stores
// spills (spill.ts): a spill range holding the user's data gives #SPILL! and is reported.
import ExcelJS from "exceljs";
import { FormulaSyntaxError, parseFormula, type FdqCall } from "../functions/formula";
import type { ExcelErrorValue } from "../functions/errors";
import { evaluateCalls, formatStats } from "./connection";
import { isErrorValue, type Outcome } from "./evaluate";
import { UsageError, type RefreshOptions } from "./options";
import { writeSpill, type Written } from "./spill";

interface Target {
  readonly cell: ExcelJS.Cell;
  /** The formula as stored in the file (kept when the result is written). */
  readonly stored: string;
  readonly call: FdqCall;
}

interface Scan {
  readonly targets: Target[];
  /** FDQ cells that cannot be evaluated here, with the reason. */
  readonly skipped: string[];
}

/**
 * The formula in FDQ.NAME(...) form, or undefined when it does not call FDQ. Excel saves JavaScript
 * custom functions as _xldudf_FDQ_NAME(...) (sometimes behind an external-book prefix such as [2]!).
 */
export function fdqFormulaOf(stored: string): string | undefined {
  const text = stored.trim().replace(/^=/, "");
  const saved = /^(?:\[\d+\]!)?_xldudf_FDQ_([A-Za-z]+)\s*\(/.exec(text);
  if (saved) return `FDQ.${saved[1]}(${text.slice(saved[0].length)}`;
  return /^FDQ\.[A-Za-z]+\s*\(/i.test(text) ? text : undefined;
}

function scan(workbook: ExcelJS.Workbook): Scan {
  const targets: Target[] = [];
  const skipped: string[] = [];
  workbook.eachSheet((sheet) => {
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        if (cell.type !== ExcelJS.ValueType.Formula) return;
        const stored = cell.formula;
        const formula = fdqFormulaOf(stored);
        if (formula === undefined) {
          if (/FDQ/i.test(stored)) skipped.push(`${sheet.name}!${cell.address}: FDQ inside another formula`);
          return;
        }
        try {
          targets.push({ cell, stored, call: parseFormula(formula) });
        } catch (err) {
          if (!(err instanceof FormulaSyntaxError)) throw err;
          skipped.push(`${sheet.name}!${cell.address}: ${err.message}`);
        }
      });
    });
  });
  return { targets, skipped };
}

function written(value: number | string | boolean | ExcelErrorValue): Written {
  // The message has no place in a file; the code is what Excel stores.
  return isErrorValue(value) ? { error: value.error } : value;
}

/** Writes one outcome; answers a conflict description when the spill range holds the user's data. */
function write(workbook: ExcelJS.Workbook, target: Target, outcome: Outcome): string | undefined {
  const { cell } = target;
  const value = outcome.ok ? outcome.value : outcome.error;
  const rows = (Array.isArray(value) ? value : [[value]]).map((row) => row.map(written));
  const blocked = writeSpill(workbook, cell, target.stored, rows);
  return blocked.length > 0
    ? `${cell.worksheet.name}!${cell.address}: #SPILL! (its spill range holds data in ${blocked.join(", ")}; nothing else written)`
    : undefined;
}

export async function runRefresh(options: RefreshOptions): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(options.workbook);
  } catch (err) {
    throw new UsageError(`cannot read ${options.workbook} as an .xlsx workbook: ${(err as Error).message}`);
  }
  const { targets, skipped } = scan(workbook);
  const { outcomes, stats } = await evaluateCalls(
    options,
    targets.map((t) => t.call),
  );
  if (options.stats) process.stderr.write(`${formatStats(stats)}\n`);
  const conflicts = targets
    .map((t, i) => write(workbook, t, outcomes[i] as Outcome))
    .filter((c): c is string => c !== undefined);
  const out = options.out ?? options.workbook;
  await workbook.xlsx.writeFile(out);

  const errors = outcomes.filter((o) => !o.ok).length;
  process.stdout.write(
    `Refreshed ${targets.length} FDQ formula cell(s): ${targets.length - errors} with values, ${errors} with errors, ` +
      `${skipped.length} skipped. Wrote ${out}.\n`,
  );
  for (const line of [...skipped, ...conflicts]) process.stderr.write(`fdq refresh: ${line}\n`);
  return 0;
}
