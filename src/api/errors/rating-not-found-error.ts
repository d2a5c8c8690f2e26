import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** RatingNotFound (404): no rating information exists for the ticker. The service's own words are shown. */
export class RatingNotFoundError extends FdqError {
  override name = "RatingNotFoundError" as const;
  override readonly remembered = true;

  constructor(options: FdqErrorOptions = {}) {
    super(options, options.serviceMessage ?? options.message ?? SPEC_ERRORS.RatingNotFound.message);
  }
}
