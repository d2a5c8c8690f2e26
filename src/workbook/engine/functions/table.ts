// The shape of the function table: eager functions get their evaluated arguments, lazy ones (IF, IFERROR,
// CHOOSE, LET...) the syntax trees, so that a branch not taken is never evaluated (and its FDQ calls never
// fetched). `arrays` lists the parameters Excel evaluates as arrays even in a plain formula (SUMPRODUCT's,
// INDEX's first...): there `A1:A5>0` is an array, not the cell of the formula's row.
import type { Args, Context } from "../context";
import type { Node } from "../../../formula/parser";
import type { Value } from "../values";

export interface EagerFn {
  readonly min: number;
  readonly max: number;
  /** Parameters (0-based) evaluated in array mode; true for all. */
  readonly arrays?: boolean | readonly number[];
  call(args: Args, ctx: Context): Value;
}

export interface LazyFn {
  readonly min: number;
  readonly max: number;
  lazy(args: readonly Node[], ctx: Context): Value;
}

export type Fn = EagerFn | LazyFn;

export type FunctionTable = Record<string, Fn>;

export const MANY = 255;

export const eager = (
  min: number,
  max: number,
  call: EagerFn["call"],
  arrays?: EagerFn["arrays"],
): EagerFn => (arrays === undefined ? { min, max, call } : { min, max, call, arrays });
