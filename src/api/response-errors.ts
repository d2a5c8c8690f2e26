// The one place that turns a failed HTTP answer into an error class (status + message, wire-notes 4 and 9),
// and that rebuilds a remembered "does not exist" answer from the cache.
import { SPEC_ERRORS, type SpecErrorName } from "../catalog";
import {
  FdqError,
  NotInPortfolioError,
  QuotaExhaustedError,
  RateLimitedError,
  SPEC_ERROR_CLASSES,
  ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
  type ErrorHints,
  type SpecErrorClass,
} from "./errors";
import { clipText as clip } from "./errors/clip";
import { redactKey } from "./redact";
import { centralDay, nextMonthStart } from "./usage-ledger";

/** The vendor's answer to a spent quota, exactly (wire-notes 12): a 429 with this message, no Retry-After. */
export const LIMIT_EXCEEDED = "Limit Exceeded";

export { MAX_SERVICE_TEXT } from "./errors/clip";

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
  /** The clock, for the day a spent quota resets. */
  now?: () => number;
}

/** The error of a failed answer; the service's text is kept (without the key) so the user can read it. */
export function errorFromAnswer(answer: FailedAnswer, context: AnswerContext = {}): FdqError {
  const { status, retryAfterMs } = answer;
  const hints = context.hints;
  // Redacted first (a cut could split the key), then cut: a cell shows a message, not a body.
  const clean = (text: string): string => clip(redactKey(text, context.apiKey ?? ""));
  const serviceMessage = answer.message === undefined ? undefined : clean(answer.message).trim();
  const detail = clean(answer.detail);
  const options = { status, serviceMessage, detail, retryAfterMs, hints };
  if ((status === 403 || status === 404) && /portfolio/i.test(serviceMessage ?? "")) {
    return new NotInPortfolioError({ ...options, status });
  }
  if (status === 401 || status === 403) return new UnauthorizedError(options);
  if (status === 429) {
    // A quota refusal is exactly {"message":"Limit Exceeded"} without Retry-After (wire-notes 12); anything
    // looser ("Rate limit exceeded, slow down") is a throttle, retried, never a month's stop.
    if (retryAfterMs === undefined && serviceMessage === LIMIT_EXCEEDED) {
      const resetsOn = context.now ? nextMonthStart(centralDay(context.now()).slice(0, 7)) : undefined;
      return new QuotaExhaustedError({ ...options, resetsOn });
    }
    return new RateLimitedError(options);
  }
  if (status >= 500) return new ServiceUnavailableError(options);
  const spec =
    serviceMessage === undefined ? undefined : SPEC_BY_STATUS_AND_MESSAGE.get(`${status} ${serviceMessage}`);
  if (spec) return new SPEC_ERROR_CLASSES[spec](options);
  return new ServiceError({ ...options, serviceMessage: serviceMessage || undefined });
}

const REMEMBERED_BY_NAME = new Map<string, SpecErrorClass>(
  Object.values(SPEC_ERROR_CLASSES)
    .filter((cls) => new cls().remembered)
    .map((cls) => [new cls().name, cls]),
);

/** A fresh error of a remembered class, or undefined when the name is not a remembered "does not exist" class. */
export function rememberedError(
  name: string,
  message: string,
  status: number | undefined,
): FdqError | undefined {
  const cls = REMEMBERED_BY_NAME.get(name);
  return cls ? new cls({ serviceMessage: message, status }) : undefined;
}
