import { SPEC_ERRORS } from "../../catalog";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** SectorDataPointNotFound (404): the sector datapoint has no data for the requested prior_year. The service's own words are shown. */
export class SectorDataPointNotFoundError extends FdqError {
  override name = "SectorDataPointNotFoundError" as const;
  override readonly remembered = true;

  constructor(options: FdqErrorOptions = {}) {
    super(options, options.serviceMessage ?? options.message ?? SPEC_ERRORS.SectorDataPointNotFound.message);
  }
}
