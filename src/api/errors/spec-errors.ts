// The one table from the spec's named errors (service-spec "Errors") to the classes that carry them.
import type { SpecErrorName } from "../../catalog";
import { DataNotFoundError } from "./data-not-found-error";
import { DataPointNotFoundError } from "./data-point-not-found-error";
import type { FdqError, FdqErrorOptions } from "./fdq-error";
import { InvalidPriorYearError } from "./invalid-prior-year-error";
import { InvalidSecurityTypeError } from "./invalid-security-type-error";
import { RatingNotFoundError } from "./rating-not-found-error";
import { SectorDataPointNotFoundError } from "./sector-data-point-not-found-error";

export type SpecErrorClass = new (options?: FdqErrorOptions) => FdqError;

export const SPEC_ERROR_CLASSES: Readonly<Record<SpecErrorName, SpecErrorClass>> = {
  DataPointNotFound: DataPointNotFoundError,
  InvalidSecurityType: InvalidSecurityTypeError,
  SectorDataPointNotFound: SectorDataPointNotFoundError,
  InvalidPriorYear: InvalidPriorYearError,
  DataNotFound: DataNotFoundError,
  RatingNotFound: RatingNotFoundError,
};
