import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** DataNotFound (400): no data for the ticker, sector or period. The service's own words are shown. */
export class DataNotFoundError extends FdqError {
  override name = "DataNotFoundError" as const;
  override readonly remembered = true;

  constructor(options: FdqErrorOptions = {}) {
    super(options, options.serviceMessage ?? options.message ?? SPEC_ERRORS.DataNotFound.message);
  }
}
