import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** 429 that outlasted the retries (or asked for a longer wait than the client honours). */
export class RateLimitedError extends FdqError {
  override name = "RateLimitedError" as const;

  /** The service's message, unless it is the stock "Too Many Requests", is kept (e.g. a quota's "Limit Exceeded"). */
  constructor(options: FdqErrorOptions = {}) {
    const said = options.serviceMessage?.trim();
    const own = said && !/^too many requests$/i.test(said) ? `: ${said}` : "";
    super(
      { status: 429, ...options },
      `The FDQ service is limiting the request rate (429${own}) and the retries did not get through. Wait a minute, then recalculate.`,
    );
  }
}
