import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** The request never got an HTTP answer: refused or dropped connection, DNS, CORS. */
export class NetworkError extends FdqError {
  override name = "NetworkError" as const;

  constructor(detail: string, options: FdqErrorOptions = {}) {
    super(
      `Could not reach the FDQ service (${detail}). Check the network connection and the base URL in the FDQ task pane.`,
      options,
    );
  }
}
