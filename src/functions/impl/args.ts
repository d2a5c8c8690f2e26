// From the values Excel (or the CLI's formula parser) passes to the arguments the request module
// and the functions expect. The request module checks what it requests (ticker, dataset, year, ...);
// this file checks only what is particular to the worksheet functions, and turns Excel's ways of
// writing a value (numbers typed as text, omitted arguments) into plain values.
import { checkYear, InvalidArgumentError, show, yearOrRelativeProblem } from "../../api";
import { isRelativePeriod, parseRelativePeriod, type RelativePeriod } from "../../catalog";

export { show };

/** Excel passes null (or nothing) for an omitted argument; an empty text counts as omitted too. */
export function isOmitted(value: unknown): value is null | undefined | "" {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/** A number stays a number; whole-number text ("2023") becomes one; anything else is passed on for the request module to refuse. */
export function numberArg(value: unknown): unknown {
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value);
  return value;
}

/** An optional numeric argument: undefined when omitted, else as numberArg. */
export function optionalNumberArg(value: unknown): unknown {
  return isOmitted(value) ? undefined : numberArg(value);
}

/**
 * Whether an optional argument for which 0 is no valid value was left empty. Excel on Windows passes an
 * empty referenced cell to a parameter typed `any` as 0, Excel on the web as null (office-js#4702): 0 counts
 * as omitted, so both platforms give the same value.
 */
export const isEmptyCell = (value: unknown): boolean => isOmitted(value) || value === 0;

/** quarter or ttm: undefined when omitted or 0 (an empty cell on Windows), else as numberArg. */
export function optionalPeriodArg(value: unknown): unknown {
  return isEmptyCell(value) ? undefined : numberArg(value);
}

/** A fiscal year argument named as the function names it (the request module would call it `year`). */
export function fiscalYear(value: unknown, argument: string, example: number): number {
  return checkYear(numberArg(value), argument, example);
}

/**
 * Text that names a choice (a field, a type, a period): trimmed and lower-cased; undefined when omitted or 0
 * (no choice is numbered 0: an empty cell on Windows, see isEmptyCell).
 */
export function choiceArg(value: unknown, argument: string): string | undefined {
  if (isEmptyCell(value)) return undefined;
  if (typeof value === "string") return value.trim().toLowerCase();
  if (typeof value === "number") return String(value);
  throw new InvalidArgumentError({
    argument: argument,
    message: `${argument} must be text (got ${show(value)}).`,
  });
}

/** TRUE/FALSE (also 1/0 and the texts TRUE/FALSE, as Excel converts them); false when omitted. */
export function booleanArg(value: unknown, argument: string): boolean {
  if (isOmitted(value)) return false;
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string" && /^(true|false)$/i.test(value.trim()))
    return value.trim().toLowerCase() === "true";
  throw new InvalidArgumentError({
    argument: argument,
    message: `${argument} must be TRUE or FALSE (got ${show(value)}).`,
  });
}

/**
 * Non-empty text, checked here where the request module would name the argument differently (it calls
 * every datapoint name "datapoint"; the functions call it "name").
 */
export function requireText(value: unknown, argument: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidArgumentError({
      argument: argument,
      message: `${argument} must be non-empty text (got ${show(value)}).`,
    });
  }
  return value;
}

/**
 * A year argument: a fiscal year (a number, or whole-number text), or a relative period in the grammar of
 * src/catalog/relative-period.ts (FY0, FY-1, FQ0, LTM...; any case), parsed. Anything else is passed on: the
 * request module checks the arguments in the function's order and refuses it with the grammar (and a
 * relative period with a quarter or ttm it does not take).
 */
export function yearArg(value: unknown): unknown {
  const n = numberArg(value);
  return typeof n === "string" ? (parseRelativePeriod(n) ?? n) : n;
}

/**
 * A SERIES bound: a fiscal year or a relative period; anything else is refused here (the request module
 * never sees from_year and to_year) with the grammar.
 */
export function seriesBound(value: unknown, argument: string, example: number): number | RelativePeriod {
  const n = yearArg(value);
  if (typeof n === "number" || isRelativePeriod(n)) return n;
  throw new InvalidArgumentError({ argument, message: yearOrRelativeProblem(value, argument, example) });
}

/** The year, quarter and ttm of DATAPOINT and DATASET as the request module takes them. */
export function periodArgs(
  year: unknown,
  quarter: unknown,
  ttm: unknown,
): { year: unknown; quarter: unknown; ttm: unknown } {
  return { year: yearArg(year), quarter: optionalPeriodArg(quarter), ttm: optionalPeriodArg(ttm) };
}
