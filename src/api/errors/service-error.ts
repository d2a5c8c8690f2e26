import { FdqError, type FdqErrorOptions } from "./fdq-error";
import { EXCEL_HINTS } from "./hints";

/**
 * Any other non-2xx answer: says the status, what the service said (or what the body was) and what to do.
 * A 400 is about the arguments; any other status means the URL did not reach the FDQ API.
 */
export class ServiceError extends FdqError {
  override name = "ServiceError" as const;

  constructor(status: number, said: string | undefined, options: FdqErrorOptions = {}, hints = EXCEL_HINTS) {
    const hint = status === 400 ? hints.arguments : hints.baseUrl;
    super(`The FDQ service answered ${status}${said ? ` (${said})` : ""}. ${hint}`, { status, ...options });
  }
}
