import { SPEC_ERRORS } from "../../catalog";
import type { FdqErrorOptions } from "./fdq-error";
import { InvalidArgumentError } from "./invalid-argument-error";

/** InvalidPriorYear (400): prior_year is outside 0 to 5 (an argument error). */
export class InvalidPriorYearError extends InvalidArgumentError {
  override name = "InvalidPriorYearError" as const;

  constructor(options: FdqErrorOptions = {}) {
    super({
      ...options,
      argument: "prior_year",
      message: options.serviceMessage ?? options.message ?? SPEC_ERRORS.InvalidPriorYear.message,
    });
  }
}
