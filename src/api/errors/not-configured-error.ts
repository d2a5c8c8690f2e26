import { FdqError } from "./fdq-error";
import { EXCEL_HINTS } from "./hints";

/** No API key has been saved yet, so no request can be made. */
export class NotConfiguredError extends FdqError {
  override name = "NotConfiguredError" as const;

  constructor(hints = EXCEL_HINTS) {
    super(`No FDQ API key is set. ${hints.missingKey}`);
  }
}
