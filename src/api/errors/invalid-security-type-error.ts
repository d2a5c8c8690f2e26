import { SPEC_ERRORS } from "../../catalog";
import type { FdqErrorOptions } from "./fdq-error";
import { InvalidArgumentError } from "./invalid-argument-error";

/** InvalidSecurityType (400): the security type is outside the allowed set (an argument error: #VALUE!). */
export class InvalidSecurityTypeError extends InvalidArgumentError {
  override name = "InvalidSecurityTypeError" as const;
  readonly specName = "InvalidSecurityType" as const;

  constructor(message: string = SPEC_ERRORS.InvalidSecurityType.message, options: FdqErrorOptions = {}) {
    super("security_type", message, options);
  }
}
