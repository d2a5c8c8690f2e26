import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** DataPointNotFound (404): the datapoint name is unknown to the dataset, to /datapoint or to /sector. The service's own words are shown. */
export class DataPointNotFoundError extends FdqError {
  override name = "DataPointNotFoundError" as const;
  override readonly remembered = true;

  constructor(options: FdqErrorOptions = {}) {
    super(options, options.serviceMessage ?? options.message ?? SPEC_ERRORS.DataPointNotFound.message);
  }
}
