import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** 429 that outlasted the retries (or asked for a longer wait than the client honours). */
export class RateLimitedError extends FdqError {
  override name = "RateLimitedError" as const;

  constructor(options: FdqErrorOptions = {}) {
    super(
      "The FDQ service is limiting the request rate (429) and the retries did not get through. Wait a minute, then recalculate.",
      { status: 429, ...options },
    );
  }
}
