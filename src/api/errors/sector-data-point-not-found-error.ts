import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** SectorDataPointNotFound (404): the sector datapoint has no data for the requested prior_year. */
export class SectorDataPointNotFoundError extends FdqError {
  override name = "SectorDataPointNotFoundError" as const;
  readonly specName = "SectorDataPointNotFound" as const;

  constructor(message: string = SPEC_ERRORS.SectorDataPointNotFound.message, options: FdqErrorOptions = {}) {
    super(message, options);
  }
}
