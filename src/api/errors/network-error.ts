import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** The request never got an HTTP answer: refused or dropped connection, DNS, CORS. `detail` says which. */
export class NetworkError extends FdqError {
  override name = "NetworkError" as const;

  constructor(options: FdqErrorOptions & { detail: string }) {
    super(
      options,
      `Could not reach the FDQ service (${options.detail}). ${FdqError.hints(options).connection}`,
    );
  }
}
