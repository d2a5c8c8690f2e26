// The one place that turns a failed HTTP answer into an error class (status + message, wire-notes 4 and 9),
// and that rebuilds a remembered "does not exist" answer from the cache.
import { SPEC_ERRORS, type SpecErrorName } from "../catalog";
import {
  BadResponseError,
  DataNotFoundError,
  DataPointNotFoundError,
  FdqError,
  InvalidPriorYearError,
  InvalidSecurityTypeError,
  RateLimitedError,
  RatingNotFoundError,
  SectorDataPointNotFoundError,
  ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
  EXCEL_HINTS,
  type ErrorHints,
  type FdqErrorOptions,
} from "./errors";
import { redactKey } from "./redact";

type SpecErrorClass = new (message?: string, options?: FdqErrorOptions) => FdqError;

const SPEC_ERROR_CLASSES: Record<SpecErrorName, SpecErrorClass> = {
  DataPointNotFound: DataPointNotFoundError,
  InvalidSecurityType: InvalidSecurityTypeError,
  SectorDataPointNotFound: SectorDataPointNotFoundError,
  InvalidPriorYear: InvalidPriorYearError,
  DataNotFound: DataNotFoundError,
  RatingNotFound: RatingNotFoundError,
};

const SPEC_BY_STATUS_AND_MESSAGE = new Map(
  Object.entries(SPEC_ERRORS).map(([name, e]) => [`${e.status} ${e.message}`, name as SpecErrorName]),
);

export interface FailedAnswer {
  status: number;
  /** The `message` of a JSON error body, when there was one. */
  message: string | undefined;
  /** What the body was when it had no message (e.g. "an HTML page"); for 5xx messages. */
  detail: string;
  retryAfterMs: number | undefined;
}

export interface AnswerContext {
  /** Replaced by "[API key]" wherever the answer echoes it. */
  apiKey?: string;
  hints?: ErrorHints;
}

/** The error of a failed answer; the service's text is kept (without the key) so the user can read it. */
export function errorFromAnswer(answer: FailedAnswer, context: AnswerContext = {}): FdqError {
  const { status, retryAfterMs } = answer;
  const hints = context.hints ?? EXCEL_HINTS;
  const clean = (text: string): string => redactKey(text, context.apiKey ?? "");
  const message = answer.message === undefined ? undefined : clean(answer.message);
  const detail = clean(answer.detail);
  if (status === 401 || status === 403) return new UnauthorizedError(status, {}, message, hints);
  if (status === 429) return new RateLimitedError({ retryAfterMs }, message);
  if (status >= 500) return new ServiceUnavailableError(status, message ?? detail, { retryAfterMs });
  const spec =
    message === undefined ? undefined : SPEC_BY_STATUS_AND_MESSAGE.get(`${status} ${message.trim()}`);
  if (spec) return new SPEC_ERROR_CLASSES[spec](message?.trim(), { status });
  return new ServiceError(status, message?.trim() || detail, { status }, hints);
}

/** A decoding error raised without the client's hints, given them (other errors keep their message). */
export function withHints(error: FdqError, hints: ErrorHints): FdqError {
  if (error instanceof BadResponseError && hints !== EXCEL_HINTS) {
    return new BadResponseError(error.detail, { cause: error.cause, status: error.status }, hints);
  }
  return error;
}

const REMEMBERED_BY_NAME = new Map<string, SpecErrorClass>(
  Object.values(SPEC_ERROR_CLASSES).map((cls) => [new cls().name, cls]),
);

/** A fresh error of a remembered class, or undefined when the name is not a remembered "does not exist" class. */
export function rememberedError(
  name: string,
  message: string,
  status: number | undefined,
): FdqError | undefined {
  const cls = REMEMBERED_BY_NAME.get(name);
  if (!cls) return undefined;
  const error = new cls(message, { status });
  return error.remembered ? error : undefined;
}
