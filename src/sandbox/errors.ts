// Every error the sandbox answers with: a status and the `{"message": ...}` body (app.ts writes it).
import { SPEC_ERRORS, type SpecErrorName } from "../catalog";

/** The sandbox's answer: it carries the HTTP status it is answered with (a server's error, not a client's). */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 405 | 429 | 500 | 503,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** One of the spec's named errors, with its exact status and message. */
export function specError(name: SpecErrorName): ApiError {
  const { status, message } = SPEC_ERRORS[name];
  return new ApiError(status, message);
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
