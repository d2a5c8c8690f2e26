import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** An argument failed the checks made before any request; `argument` names it and the message says why. */
export class InvalidArgumentError extends FdqError {
  override name: "InvalidArgumentError" | "InvalidSecurityTypeError" | "InvalidPriorYearError" =
    "InvalidArgumentError";
  readonly argument: string;

  constructor(options: FdqErrorOptions & { argument: string; message: string }) {
    super(options);
    this.argument = options.argument;
  }
}
