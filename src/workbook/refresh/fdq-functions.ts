// The FDQ worksheet functions as the formula engine calls them during `fdq refresh`. The engine is
// synchronous and the service is not, so a call is never made here: a call whose answer this run already
// fetched returns it, and any other call is recorded for the next batch and marks the formula as waiting
// (its result is thrown away and it is evaluated again once the batch is answered).
// Ranges are handled as Excel handles them: a scalar function given a range (or an array) is array-lifted
// (one call per cell, an array result, src/functions/lifting.ts), so IFERROR(FDQ.DATAPOINT(A2:A4,...)/1e6,"n/a")
// computes element by element; a spilling function refuses a range of several cells with the #VALUE! message
// Excel shows (src/functions/ranges.ts).
import { InvalidArgumentError } from "../../api";
import { isRichValue, type RichValue } from "../../functions/cell-values";
import type { Outcome } from "../../functions/evaluate";
import type { FdqCall, FormulaArg } from "../../functions/formula";
import { BEYOND_RANGE, isLiftable, isMultiCell, lift, type LiftArg } from "../../functions/lifting";
import { singleCell } from "../../functions/ranges";
import {
  describeSignature,
  FUNCTION_SPECS,
  isFunctionName,
  type FunctionName,
} from "../../functions/signatures";
import { toArr, type Args, type Context } from "../engine/context";
import { Arr, Ref, type Value } from "../engine/values";
import { ExcelError, type ErrorCode, type Scalar } from "../model";

export interface FdqCallSite {
  /** True when an argument could not be read yet: the call must not be made with it. */
  argumentsIncomplete(): boolean;
  /** The answer of `call` fetched in this run, or undefined after recording it for the next batch. */
  answerOf(call: FdqCall): Scalar | Scalar[][] | undefined;
}

/** One key per distinct call: the batch asks each once, and equal calls share the answer. */
export const callKey = (call: FdqCall): string => `${call.name}(${JSON.stringify(call.args)})`;

const excelError = (e: { error: string; message: string }): ExcelError =>
  new ExcelError(e.error as ErrorCode, e.message || undefined);

/**
 * A data-type value as a formula computes with it: a number with its source is its number; a card (an entity) is
 * #VALUE!, the value Excel stores for an entity's cell (its properties are read by `=A2.Name`, not computed).
 */
function basicOf(value: RichValue): Scalar {
  return value.type === "Double" ? value.basicValue : new ExcelError("#VALUE!", "an FDQ card (FDQ.CARD)");
}

/** An evaluated call's outcome as a value; the error keeps its message for the report. */
export function valueOfOutcome(outcome: Outcome): Scalar | Scalar[][] {
  if (!outcome.ok) return excelError(outcome.error);
  const { value } = outcome;
  if (!Array.isArray(value)) return isRichValue(value) ? basicOf(value) : value;
  return value.map((row) =>
    row.map((v) => (isRichValue(v) ? basicOf(v) : typeof v === "object" && v !== null ? excelError(v) : v)),
  );
}

type Arg = FormulaArg | ExcelError;

/**
 * One value as the function receives it. An empty referenced cell is passed as null, as Excel on the web
 * does. An Excel error in an argument is the call's result, as in Excel.
 */
const argOf = (v: Scalar): Arg => v;

function liftArgOf(v: Value | undefined, ctx: Context): LiftArg<Arg> {
  if (v === undefined) return { value: null };
  if (v instanceof Ref && v.rows === 1 && v.cols === 1) {
    return { value: argOf(ctx.host.cell(v.rect.sheet, v.rect.top, v.rect.left)) };
  }
  if (!(v instanceof Ref) && !(v instanceof Arr)) return { value: argOf(v) };
  const rows = toArr(v, ctx).rows;
  if (!isMultiCell(rows)) return { value: argOf(rows[0]?.[0] ?? null) };
  return { cells: rows.map((row) => row.map(argOf)) };
}

/** A spilling function's ranges are refused by ranges.ts (the first one, in argument order). */
function refuseRanges(name: FunctionName, args: readonly LiftArg<Arg>[]): ExcelError | undefined {
  const parameters = FUNCTION_SPECS[name].parameters;
  for (const [i, arg] of args.entries()) {
    if (!("cells" in arg)) continue;
    try {
      singleCell(arg.cells, parameters[i]?.name ?? `argument ${i + 1}`, name);
    } catch (err) {
      if (err instanceof InvalidArgumentError) return new ExcelError("#VALUE!", err.message);
      throw err;
    }
  }
  return undefined;
}

function answerOne(name: FunctionName, values: readonly Arg[], site: FdqCallSite): Scalar | Scalar[][] {
  const error = values.find((v): v is ExcelError => v instanceof ExcelError);
  if (error) return error;
  const args = values as FormulaArg[];
  let length = args.length;
  while (length > 0 && args[length - 1] === null) length--;
  return site.answerOf({ name, args: args.slice(0, length) }) ?? new ExcelError("#N/A");
}

const asValue = (v: Scalar | Scalar[][]): Value => (Array.isArray(v) ? new Arr(v) : v);

/** FDQ.NAME(args) in a formula: the answer fetched, the call recorded, or the error Excel would show. */
export function callFdq(stored: string, raw: Args, ctx: Context, site: FdqCallSite): Value {
  const name = stored.toUpperCase();
  if (!isFunctionName(name)) return new ExcelError("#NAME?", `FDQ.${name} is not an FDQ function`);
  const spec = FUNCTION_SPECS[name];
  if (raw.length > spec.parameters.length) {
    return new ExcelError(
      "#VALUE!",
      `FDQ.${name} takes at most ${spec.parameters.length} arguments, ${raw.length} given: ${describeSignature(spec)}`,
    );
  }
  const args = raw.map((v) => liftArgOf(v, ctx));
  if (!isLiftable(name)) {
    const refused = refuseRanges(name, args);
    if (refused) return refused;
  }
  // A placeholder stands for an argument not read yet: such a call would ask for the wrong thing.
  if (site.argumentsIncomplete()) return new ExcelError("#N/A");
  const single = args.flatMap((a) => ("value" in a ? [a.value] : []));
  if (single.length === args.length) return asValue(answerOne(name, single, site));
  // Lifted: every cell's call is recorded in this pass, so the whole range is fetched in one batch.
  return new Arr(
    lift(args).calls.map((row) =>
      row.map((values): Scalar => {
        if (values === BEYOND_RANGE) return new ExcelError("#N/A");
        const answer = answerOne(name, values, site);
        return Array.isArray(answer) ? (answer[0]?.[0] ?? null) : answer;
      }),
    ),
  );
}
