import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** 401/403: the service (or its gateway) refused the API key. The message never carries the key. */
export class UnauthorizedError extends FdqError {
  override name = "UnauthorizedError" as const;

  constructor(status: number, options: FdqErrorOptions = {}) {
    super(`The FDQ service refused the API key (${status}). Check the key in the FDQ task pane.`, {
      status,
      ...options,
    });
  }
}
