import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** DataNotFound (400): no data for the ticker, sector or period. */
export class DataNotFoundError extends FdqError {
  override name = "DataNotFoundError" as const;
  readonly specName = "DataNotFound" as const;

  constructor(message: string = SPEC_ERRORS.DataNotFound.message, options: FdqErrorOptions = {}) {
    super(message, options);
  }
}
