import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** An argument failed the checks made before any request; `argument` names it and the message says why. */
export class InvalidArgumentError extends FdqError {
  override name: "InvalidArgumentError" | "InvalidSecurityTypeError" | "InvalidPriorYearError" =
    "InvalidArgumentError";

  constructor(
    readonly argument: string,
    message: string,
    options: FdqErrorOptions = {},
  ) {
    super(message, options);
  }
}
