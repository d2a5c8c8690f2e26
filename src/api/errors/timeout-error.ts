import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** No complete answer within the per-request timeout. */
export class TimeoutError extends FdqError {
  override name = "TimeoutError" as const;

  constructor(timeoutMs: number, options: FdqErrorOptions = {}) {
    super(
      `The FDQ service did not answer within ${timeoutMs / 1000} s. Try again later, then recalculate.`,
      options,
    );
  }
}
