import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** 429 that outlasted the retries (or asked for a longer wait than the client honours). */
export class RateLimitedError extends FdqError {
  override name = "RateLimitedError" as const;

  /** `serviceMessage`, unless it is the stock "Too Many Requests", is kept (e.g. a quota's "Limit Exceeded"). */
  constructor(options: FdqErrorOptions = {}, serviceMessage?: string) {
    const own = serviceMessage?.trim() && !/^too many requests$/i.test(serviceMessage.trim());
    super(
      `The FDQ service is limiting the request rate (429${own ? `: ${serviceMessage!.trim()}` : ""}) and the retries did not get through. Wait a minute, then recalculate.`,
      { status: 429, ...options },
    );
  }
}
