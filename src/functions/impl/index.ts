// The implementations of the FDQ functions, shared by Excel (functions.ts) and the CLI, and the
// dispatcher that runs a parsed formula through them.
import type { FdqCall } from "../formula";
import { FUNCTION_SPECS, type FunctionName } from "../signatures";
import type { FdqApi } from "./client";
import type { RichValue } from "../cell-values";
import { DEFAULT_VALUE_OPTIONS, type ValueOptions } from "../value-options";
import { card } from "./card";
import { coverage } from "./coverage";
import { datapoint } from "./datapoint";
import { dataset } from "./dataset";
import { info } from "./info";
import { rating } from "./rating";
import { sector } from "./sector";
import { security } from "./security";
import { series } from "./series";

export type { FdqApi, CellValue, Matrix } from "./client";
export { cacheOnly } from "./client";
export { card, coverage, datapoint, dataset, info, rating, sector, security, series };
export { basicArg, tickerArg } from "./ticker-arg";

/**
 * A function's result: one value, or rows of values (errors allowed in place of values). A value is a number or
 * text, or, where the options ask for it, a data-type value (FDQ.CARD's entity, a number with its source).
 */
export type FunctionResult<E> = number | string | RichValue | (number | string | RichValue | E)[][];

type Args = Record<string, unknown>;

const RUN: Readonly<
  Record<
    FunctionName,
    <E>(
      client: FdqApi,
      args: Args,
      toError: (err: unknown) => E,
      options: ValueOptions,
    ) => Promise<FunctionResult<E>>
  >
> = {
  DATAPOINT: (client, args, _toError, options) => datapoint(client, args, options.withSource),
  DATASET: (client, args, _toError, options) => dataset(client, args, options.withSource),
  SERIES: (client, args, toError, options) => series(client, args as never, toError, options.withSource),
  RATING: (client, args) => rating(client, args),
  SECTOR: (client, args, _toError, options) => sector(client, args, options.withSource),
  CARD: (client, args, _toError, options) => card(client, args, options.cardMetrics),
  COVERAGE: (client, args) => coverage(client, args),
  SECURITY: (client, args) => security(client, args),
  INFO: (client, args) => info(client, args),
};

/**
 * A function's arguments by the names of its signature (signatures.ts), read from a parsed call's positional list
 * when asked (an omitted one is null, as Excel passes it). One class per function, its parameters getters on the
 * prototype: a cell builds one small object, where an object given a property per parameter name cost a W1 cell
 * about 2.5 k instructions in megamorphic keyed stores (bench/README.md, tenth round).
 */
type NamedArguments = new (values: readonly unknown[]) => Args;

/** Where a Named object keeps the call's list: a symbol, so that no parameter's name can hide it. */
const POSITIONAL: unique symbol = Symbol("positional arguments");

function namedArguments(name: FunctionName): NamedArguments {
  class Named {
    readonly [POSITIONAL]: readonly unknown[];
    constructor(values: readonly unknown[]) {
      this[POSITIONAL] = values;
    }
  }
  FUNCTION_SPECS[name].parameters.forEach((parameter, i) => {
    Object.defineProperty(Named.prototype, parameter.name, {
      get(this: Named): unknown {
        return this[POSITIONAL][i] ?? null;
      },
      enumerable: true,
    });
  });
  return Named as unknown as NamedArguments;
}

const NAMED = Object.fromEntries(
  Object.keys(FUNCTION_SPECS).map((name) => [name, namedArguments(name as FunctionName)]),
) as Readonly<Record<FunctionName, NamedArguments>>;

/**
 * Runs a parsed call: its positional arguments are named by the function's signature. `options` are the analyst's
 * choices of how values return (numbers with their source, a card's metrics); by default plain values, no metrics.
 */
export function evaluateCall<E>(
  client: FdqApi,
  call: FdqCall,
  toError: (err: unknown) => E,
  options: ValueOptions = DEFAULT_VALUE_OPTIONS,
): Promise<FunctionResult<E>> {
  return RUN[call.name](client, new NAMED[call.name](call.args), toError, options);
}
