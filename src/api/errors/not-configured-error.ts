import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** No API key has been saved yet, so no request can be made. */
export class NotConfiguredError extends FdqError {
  override name = "NotConfiguredError" as const;

  constructor(options: FdqErrorOptions = {}) {
    super(options, `No FDQ API key is set. ${FdqError.hints(options).missingKey}`);
  }
}
