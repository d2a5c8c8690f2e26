import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** No complete answer within the per-request timeout. */
export class TimeoutError extends FdqError {
  override name = "TimeoutError" as const;

  constructor(options: FdqErrorOptions & { timeoutMs: number }) {
    super(
      options,
      `The FDQ service did not answer within ${options.timeoutMs / 1000} s. Try again later, then recalculate.`,
    );
  }
}
