// The implementations of the FDQ functions, shared by Excel (functions.ts) and the CLI, and the
// dispatcher that runs a parsed formula through them.
import type { FdqCall } from "../formula";
import { FUNCTION_SPECS, type FunctionName } from "../signatures";
import type { FdqApi } from "./client";
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
export { coverage, datapoint, dataset, info, rating, sector, security, series };

/** A function's result: one value, or rows of values (errors allowed in place of values). */
export type FunctionResult<E> = number | string | (number | string | E)[][];

type Args = Record<string, unknown>;

const RUN: Readonly<
  Record<
    FunctionName,
    <E>(client: FdqApi, args: Args, toError: (err: unknown) => E) => Promise<FunctionResult<E>>
  >
> = {
  DATAPOINT: (client, args) => datapoint(client, args),
  DATASET: (client, args) => dataset(client, args),
  SERIES: (client, args, toError) => series(client, args as never, toError),
  RATING: (client, args) => rating(client, args),
  SECTOR: (client, args) => sector(client, args),
  COVERAGE: (client, args) => coverage(client, args),
  SECURITY: (client, args) => security(client, args),
  INFO: (client, args) => info(client, args),
};

/** Runs a parsed call: its positional arguments are named by the function's signature. */
export function evaluateCall<E>(
  client: FdqApi,
  call: FdqCall,
  toError: (err: unknown) => E,
): Promise<FunctionResult<E>> {
  const args: Args = {};
  const parameters = FUNCTION_SPECS[call.name].parameters;
  for (let i = 0; i < parameters.length; i++) args[parameters[i]!.name] = call.args[i] ?? null;
  return RUN[call.name](client, args, toError);
}
