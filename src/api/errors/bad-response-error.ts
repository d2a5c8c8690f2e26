import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** An answer that is not the service's JSON (an HTML page, a truncated body, an unexpected shape): `detail` says what. */
export class BadResponseError extends FdqError {
  override name = "BadResponseError" as const;

  constructor(options: FdqErrorOptions & { detail: string }) {
    super(
      options,
      `The FDQ service sent an answer that could not be read (${options.detail}). ${FdqError.hints(options).baseUrl}`,
    );
  }

  get detail(): string {
    return this.options.detail!;
  }
}
