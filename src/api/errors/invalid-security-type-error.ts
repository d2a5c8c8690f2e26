import { SPEC_ERRORS } from "../../catalog";
import type { FdqErrorOptions } from "./fdq-error";
import { InvalidArgumentError } from "./invalid-argument-error";

/** InvalidSecurityType (400): the security type is outside the allowed set (an argument error). */
export class InvalidSecurityTypeError extends InvalidArgumentError {
  override name = "InvalidSecurityTypeError" as const;

  constructor(options: FdqErrorOptions = {}) {
    super({
      ...options,
      argument: "security_type",
      message: options.serviceMessage ?? options.message ?? SPEC_ERRORS.InvalidSecurityType.message,
    });
  }
}
