// How `fdq eval` prints its results.
// - By default each formula's value follows its label, the formula itself (shortened past LABEL_WIDTH characters),
//   the values in one column; a spill's further rows go under its first row.
// - --values-only: the values alone, one formula after another (a value as is, a spill as tab-separated rows, an
//   error as its code, a space and its message), as scripts read them.
// - --json: one object per formula per line, {"formula": …, "value": …} or {"formula": …, "error": …, "message": …};
//   a value from datapoint records says where it came from: the record's year, period, periodtype and filingtype,
//   the refresh day, and what a relative period resolved to (one answer: beside the value; several: "sources").
//   A data-type value (FDQ.CARD's card; with --with-source, a number with its source) is printed as the add-in
//   returns it to Excel: Excel's own JSON (type, text or basicValue, properties, layouts), which carries its source.
// A line of a formula file that could not be evaluated prints its usage error, with its line number, in its place.
import type { ExcelErrorValue } from "../functions/errors";
import { isRichValue, shownValueOf, type RichValue } from "../functions/cell-values";
import { isErrorValue, type Outcome, type Provenance } from "../functions/evaluate";

type Cell = number | string | boolean | RichValue | ExcelErrorValue;

/** One formula of `fdq eval`: what it evaluated to, or why it was not evaluated. */
export type FormulaResult = {
  /** The formula as written. */
  readonly formula: string;
  /** Its line in the formula file (from 1); undefined for a formula given as an argument. */
  readonly line: number | undefined;
} & ({ readonly outcome: Outcome } | { readonly problem: string });

export interface OutputOptions {
  readonly json: boolean;
  readonly valuesOnly: boolean;
}

/** Labels longer than this are cut, with an ellipsis, to this many characters. */
export const LABEL_WIDTH = 60;

/** The "error" of a formula that was not evaluated in --json output. */
export const USAGE_ERROR = "usage";

function plainCell(cell: Cell): string {
  if (isErrorValue(cell)) return `${cell.error} ${cell.message}`;
  if (isRichValue(cell)) return String(shownValueOf(cell));
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  return String(cell);
}

/** An outcome as --values-only prints it; a spill's rows are separated by newlines. */
export function formatPlain(outcome: Outcome): string {
  if (!outcome.ok) return plainCell(outcome.error);
  const value = outcome.value;
  if (!Array.isArray(value)) return plainCell(value);
  return value.map((row) => row.map(plainCell).join("\t")).join("\n");
}

function jsonCell(cell: Cell): unknown {
  return isErrorValue(cell) ? { error: cell.error, message: cell.message } : cell;
}

function jsonValue(value: Extract<Outcome, { ok: true }>["value"]): unknown {
  return Array.isArray(value) ? value.map((row) => row.map(jsonCell)) : value;
}

/** An outcome as one bare JSON value (`--json --values-only`). */
export function formatJson(outcome: Outcome): string {
  return JSON.stringify(outcome.ok ? jsonValue(outcome.value) : jsonCell(outcome.error));
}

/** Why a formula was not evaluated, as the plain formats print it. */
function plainProblem(result: FormulaResult & { problem: string }): string {
  return `usage error${result.line === undefined ? "" : ` at line ${result.line}`}: ${result.problem}`;
}

/** The formula, cut to LABEL_WIDTH characters with an ellipsis when longer. */
export function label(formula: string): string {
  const chars = Array.from(formula.trim());
  return chars.length <= LABEL_WIDTH ? chars.join("") : `${chars.slice(0, LABEL_WIDTH - 1).join("")}…`;
}

/** One JSON object for one formula. */
export function formatJsonResult(result: FormulaResult): string {
  const formula = result.formula.trim();
  if ("problem" in result) {
    return JSON.stringify({ formula, line: result.line, error: USAGE_ERROR, message: result.problem });
  }
  const { outcome } = result;
  if (!outcome.ok) return JSON.stringify({ formula, ...(jsonCell(outcome.error) as object) });
  const head = { formula, value: jsonValue(outcome.value) };
  const { sources } = outcome;
  // A data-type value carries its own source, as Excel holds it.
  if (holdsRichValue(outcome.value)) return JSON.stringify(head);
  // One answer's provenance beside the value; several (SERIES) as a list in call order, null where one failed.
  if (!sources || sources.length === 0) return JSON.stringify(head);
  if (sources.length > 1) return JSON.stringify({ ...head, sources });
  const source = sources[0];
  return JSON.stringify(source ? beside(head.formula, head.value, source) : head);
}

/**
 * A value with one answer's provenance beside it, built as one object in the order --json prints it (every
 * field of Provenance, in its order; JSON.stringify leaves out the absent ones). Copying the provenance in with
 * Object.assign cost a W1 cell about 1.3 k instructions (bench/README.md, tenth round).
 */
function beside(
  formula: string,
  value: unknown,
  p: Provenance,
): { formula: string; value: unknown } & Record<keyof Provenance, unknown> {
  return {
    formula,
    value,
    year: p.year,
    period: p.period,
    periodtype: p.periodtype,
    filingtype: p.filingtype,
    refreshDay: p.refreshDay,
    resolved: p.resolved,
  };
}

function holdsRichValue(value: Extract<Outcome, { ok: true }>["value"]): boolean {
  return Array.isArray(value) ? value.some((row) => row.some(isRichValue)) : isRichValue(value);
}

function valuesOnly(result: FormulaResult, json: boolean): string {
  if ("problem" in result) {
    return json
      ? JSON.stringify({ line: result.line, error: USAGE_ERROR, message: result.problem })
      : plainProblem(result);
  }
  return json ? formatJson(result.outcome) : formatPlain(result.outcome);
}

/**
 * One formula's output line(s) with --json or --values-only, newline included: it depends on that formula
 * alone, so `fdq eval` formats each outcome as it settles and keeps only the text.
 */
export function formatResult(result: FormulaResult, options: OutputOptions): string {
  return options.valuesOnly ? `${valuesOnly(result, options.json)}\n` : `${formatJsonResult(result)}\n`;
}

/** Whether each result's output depends on that result alone (formatResult): not the labelled column. */
export function formatsAlone(options: OutputOptions): boolean {
  return options.valuesOnly || options.json;
}

/** Everything `fdq eval` prints on stdout for its results, in order, each line ending in a newline. */
export function formatResults(results: readonly FormulaResult[], options: OutputOptions): string {
  if (formatsAlone(options)) return results.map((r) => formatResult(r, options)).join("");
  const labels = results.map((r) => label(r.formula));
  const width = Math.max(0, ...labels.map((l) => Array.from(l).length));
  const out: string[] = [];
  results.forEach((result, i) => {
    const text = "problem" in result ? plainProblem(result) : formatPlain(result.outcome);
    const name = labels[i] ?? "";
    text.split("\n").forEach((row, r) => {
      const head = r === 0 ? name + " ".repeat(width - Array.from(name).length) : " ".repeat(width);
      out.push(row === "" ? `${head.trimEnd()}\n` : `${head}  ${row}\n`);
    });
  });
  return out.join("");
}
