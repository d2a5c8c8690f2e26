import { clipText } from "./clip";
import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** An answer that is not the service's JSON (an HTML page, a truncated body, an unexpected shape): `detail` says what. */
export class BadResponseError extends FdqError {
  override name = "BadResponseError" as const;

  constructor(options: FdqErrorOptions & { detail: string }) {
    // Cut here too: a detail may quote the answer (a name, a value), and an error never holds a body.
    const o = { ...options, detail: clipText(options.detail) };
    super(
      o,
      `The FDQ service sent an answer that could not be read (${o.detail}). ${FdqError.hints(o).baseUrl}`,
    );
  }

  get detail(): string {
    return this.options.detail!;
  }
}
