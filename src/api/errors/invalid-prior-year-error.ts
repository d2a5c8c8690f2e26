import { SPEC_ERRORS } from "../../catalog";
import type { FdqErrorOptions } from "./fdq-error";
import { InvalidArgumentError } from "./invalid-argument-error";

/** InvalidPriorYear (400): prior_year is outside 0 to 5 (an argument error: #VALUE!). */
export class InvalidPriorYearError extends InvalidArgumentError {
  override name = "InvalidPriorYearError" as const;
  readonly specName = "InvalidPriorYear" as const;

  constructor(message: string = SPEC_ERRORS.InvalidPriorYear.message, options: FdqErrorOptions = {}) {
    super("prior_year", message, options);
  }
}
