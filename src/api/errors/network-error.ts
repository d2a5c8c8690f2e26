import { FdqError, type FdqErrorOptions } from "./fdq-error";
import { EXCEL_HINTS } from "./hints";

/** The request never got an HTTP answer: refused or dropped connection, DNS, CORS. */
export class NetworkError extends FdqError {
  override name = "NetworkError" as const;

  constructor(detail: string, options: FdqErrorOptions = {}, hints = EXCEL_HINTS) {
    super(`Could not reach the FDQ service (${detail}). ${hints.connection}`, options);
  }
}
