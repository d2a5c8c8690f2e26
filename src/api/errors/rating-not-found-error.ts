import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** RatingNotFound (404): no rating information exists for the ticker. */
export class RatingNotFoundError extends FdqError {
  override name = "RatingNotFoundError" as const;
  readonly specName = "RatingNotFound" as const;

  constructor(message: string = SPEC_ERRORS.RatingNotFound.message, options: FdqErrorOptions = {}) {
    super(message, options);
  }
}
