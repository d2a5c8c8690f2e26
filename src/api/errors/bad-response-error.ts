import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** An answer that is not the service's JSON (an HTML page, a truncated body, an unexpected shape). */
export class BadResponseError extends FdqError {
  override name = "BadResponseError" as const;

  constructor(detail: string, options: FdqErrorOptions = {}) {
    super(
      `The FDQ service sent an answer that could not be read (${detail}). Check the base URL in the FDQ task pane.`,
      options,
    );
  }
}
