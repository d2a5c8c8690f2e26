// Evaluates parsed FDQ calls the way one Excel recalculation does: every call is started before any is
// awaited, so the request module can coalesce them; each outcome is a value or an Excel error.
import { describeFailure, isNoAnswer, type ExcelErrorValue } from "../functions/errors";
import type { FdqCall } from "../functions/formula";
import { evaluateCall, type FdqApi, type FunctionResult } from "../functions/impl";

export type CellResult = FunctionResult<ExcelErrorValue>;

/** A failure with `noAnswer` is no answer about the data (network, quota, key...: see NO_ANSWER). */
export type Outcome =
  | { readonly ok: true; readonly value: CellResult }
  | { readonly ok: false; readonly error: ExcelErrorValue; readonly noAnswer: boolean };

const toCellError = (err: unknown): ExcelErrorValue => describeFailure(err);
// Module-level, not inline: one pair of callbacks for every cell instead of a new pair per cell.
const succeeded = (value: CellResult): Outcome => ({ ok: true, value });
const failed = (err: unknown): Outcome => ({
  ok: false,
  error: describeFailure(err),
  noAnswer: isNoAnswer(err),
});

function start(client: FdqApi, call: FdqCall): Promise<Outcome> {
  try {
    return evaluateCall(client, call, toCellError).then(succeeded, failed);
  } catch (err) {
    return Promise.resolve(failed(err));
  }
}

export function evaluateAll(client: FdqApi, calls: readonly FdqCall[]): Promise<Outcome[]> {
  const started = calls.map((call) => start(client, call));
  return Promise.all(started);
}

export function isErrorValue(value: unknown): value is ExcelErrorValue {
  return typeof value === "object" && value !== null && "error" in value && "message" in value;
}
