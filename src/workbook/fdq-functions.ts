// The FDQ worksheet functions as the formula engine calls them during `fdq refresh`. The engine is
// synchronous and the service is not, so a call is never made here: a call whose answer this run already
// fetched returns it, and any other call is recorded for the next batch and marks the formula as waiting
// (its result is thrown away and it is evaluated again once the batch is answered).
// Ranges are handled as Excel handles them: a scalar function given a range is array-lifted (one call per
// cell, the results spill from the formula's cell, lifting.ts); a spilling function refuses a range of
// several cells with the #VALUE! message Excel shows (ranges.ts).
import { FormulaError, type FunctionArg } from "fast-formula-parser";
import { InvalidArgumentError } from "../api/errors";
import type { ExcelErrorValue } from "../functions/errors";
import type { FdqCall, FormulaArg } from "../functions/formula";
import { BEYOND_RANGE, isLiftable, isMultiCell, lift, type LiftArg } from "../functions/lifting";
import { singleCell } from "../functions/ranges";
import {
  describeSignature,
  FUNCTION_NAMES,
  FUNCTION_SPECS,
  type FunctionName,
} from "../functions/signatures";
import type { Outcome } from "../cli/evaluate";

/** A value as the engine reads and returns it; arrays are a spill's rows. */
export type EngineValue = number | string | boolean | null | FormulaError | EngineValue[][];

export interface FdqCallSite {
  /** True when an argument could not be read yet (or at all): the call must not be made with it. */
  argumentsIncomplete(): boolean;
  /** The answer of `call` fetched in this run, or undefined after recording it for the next batch. */
  answerOf(call: FdqCall): EngineValue | undefined;
  /**
   * Whether a lifted result may spill: the call is the whole formula. The engine does not repeat the
   * functions and operators around a call for each cell of an array (its IFERROR passes the array on, its
   * arithmetic takes the first element), so a lifted call inside a larger formula would be silently wrong;
   * when this answers false the site has marked the formula to be skipped with the reason.
   */
  canLift(): boolean;
}

/** One key per distinct call: the batch asks each once, and equal calls share the answer. */
export const callKey = (call: FdqCall): string => `${call.name}(${JSON.stringify(call.args)})`;

const cellError = (e: ExcelErrorValue): FormulaError => new FormulaError(e.error, e.message);

/** An evaluated call's outcome as the engine's value; the error keeps its message for the report. */
export function engineValueOfOutcome(outcome: Outcome): EngineValue {
  if (!outcome.ok) return cellError(outcome.error);
  const { value } = outcome;
  if (!Array.isArray(value)) return value;
  return value.map((row) => row.map((v) => (typeof v === "object" ? cellError(v) : v)));
}

/**
 * One value as the function receives it. An empty referenced cell is passed as null, as Excel on the web
 * does (Excel on Windows passes 0, office-js#4702; the functions take 0 as omitted where 0 is not valid, so
 * both give the same value). An Excel error in an argument is the call's result, as in Excel.
 */
function valueOf(value: unknown, index: number, name: FunctionName): FormulaArg | FormulaError {
  if (value instanceof FormulaError) return value;
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
  return new FormulaError("#VALUE!", `FDQ.${name}: argument ${index + 1} is not a value`);
}

/** An argument as the engine passes it: one value, or the rows of a range (or array) of several cells. */
function liftArgOf(arg: FunctionArg, index: number, name: FunctionName): LiftArg<FormulaArg | FormulaError> {
  if (arg.omitted) return { value: null };
  if (!Array.isArray(arg.value)) return { value: valueOf(arg.value, index, name) };
  const rows = arg.value as unknown[][];
  if (!isMultiCell(rows)) return { value: valueOf(rows[0]?.[0], index, name) };
  return { cells: rows.map((row) => row.map((v) => valueOf(v, index, name))) };
}

/**
 * A spilling function's arguments: a range of several cells is refused by ranges.ts's singleCell (the first
 * one, in argument order), so the cell shows the message Excel shows.
 */
function refuseRanges(name: FunctionName, args: readonly FunctionArg[]): FormulaError | undefined {
  const parameters = FUNCTION_SPECS[name].parameters;
  for (const [i, arg] of args.entries()) {
    if (arg.omitted || !Array.isArray(arg.value)) continue;
    try {
      singleCell(arg.value, parameters[i]?.name ?? `argument ${i + 1}`, name);
    } catch (err) {
      if (err instanceof InvalidArgumentError) return new FormulaError("#VALUE!", err.message);
      throw err;
    }
  }
  return undefined;
}

/** One call's answer: an error among its arguments is its answer, as in Excel; else the fetched answer. */
function answerOne(
  name: FunctionName,
  values: readonly (FormulaArg | FormulaError)[],
  site: FdqCallSite,
): EngineValue {
  const error = values.find((v): v is FormulaError => v instanceof FormulaError);
  if (error) return error;
  const args = values.filter((v): v is FormulaArg => !(v instanceof FormulaError));
  let length = args.length;
  while (length > 0 && args[length - 1] === null) length--;
  return site.answerOf({ name, args: args.slice(0, length) }) ?? FormulaError.NA;
}

function fdqFunction(name: FunctionName, site: FdqCallSite) {
  const spec = FUNCTION_SPECS[name];
  return (...raw: FunctionArg[]): EngineValue => {
    if (raw.length > spec.parameters.length) {
      return new FormulaError(
        "#VALUE!",
        `FDQ.${name} takes at most ${spec.parameters.length} arguments, ${raw.length} given: ${describeSignature(spec)}`,
      );
    }
    if (!isLiftable(name)) {
      const refused = refuseRanges(name, raw);
      if (refused) return refused;
    }
    const args = raw.map((arg, i) => liftArgOf(arg, i, name));
    // A placeholder stands for an argument not read yet: such a call would ask for the wrong thing.
    if (site.argumentsIncomplete()) return FormulaError.NA;
    const single = args.flatMap((a) => ("value" in a ? [a.value] : []));
    if (single.length === args.length) return answerOne(name, single, site);
    if (!site.canLift()) return FormulaError.VALUE;
    // Lifted: every cell's call is recorded in this pass, so the whole range is fetched in one batch.
    return lift(args).calls.map((row) =>
      row.map((values) => (values === BEYOND_RANGE ? FormulaError.NA : answerOne(name, values, site))),
    );
  };
}

/** The engine's functions for FDQ.NAME (custom functions as typed) in every case the engine looks up. */
export function fdqFunctions(site: FdqCallSite): Record<string, (...args: FunctionArg[]) => EngineValue> {
  return Object.fromEntries(FUNCTION_NAMES.map((name) => [`FDQ.${name}`, fdqFunction(name, site)]));
}
