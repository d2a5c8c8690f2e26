import { FdqError, type FdqErrorOptions } from "./fdq-error";

/**
 * Any other non-2xx answer: says the status, what the service said (or what the body was) and what to do.
 * A 400 is about the arguments; any other status means the URL did not reach the FDQ API.
 */
export class ServiceError extends FdqError {
  override name = "ServiceError" as const;

  constructor(options: FdqErrorOptions & { status: number }) {
    const hints = FdqError.hints(options);
    const hint = options.status === 400 ? hints.arguments : hints.baseUrl;
    const said = options.serviceMessage || options.detail;
    super(options, `The FDQ service answered ${options.status}${said ? ` (${said})` : ""}. ${hint}`);
  }
}
