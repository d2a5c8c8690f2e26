import { FdqError, type FdqErrorOptions } from "./fdq-error";
import { EXCEL_HINTS } from "./hints";

/** An answer that is not the service's JSON (an HTML page, a truncated body, an unexpected shape). */
export class BadResponseError extends FdqError {
  override name = "BadResponseError" as const;

  constructor(
    readonly detail: string,
    options: FdqErrorOptions = {},
    hints = EXCEL_HINTS,
  ) {
    super(`The FDQ service sent an answer that could not be read (${detail}). ${hints.baseUrl}`, options);
  }
}
