import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** DataPointNotFound (404): the datapoint name is unknown to the dataset, to /datapoint or to /sector. */
export class DataPointNotFoundError extends FdqError {
  override name = "DataPointNotFoundError" as const;
  readonly specName = "DataPointNotFound" as const;

  constructor(message: string = SPEC_ERRORS.DataPointNotFound.message, options: FdqErrorOptions = {}) {
    super(message, options);
  }
}
