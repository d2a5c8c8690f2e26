// Retry timing: which failures are worth another attempt, full-jitter exponential backoff, Retry-After.
import { FdqError, NetworkError, RateLimitedError, ServiceUnavailableError, TimeoutError } from "./errors";
import type { RetryOptions } from "./types";

const RETRY_STATUSES = new Set([502, 503, 504]);

/** Transient failures only; the caller's own faults (4xx other than 429, 401/403) never retry. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof RateLimitedError || error instanceof NetworkError || error instanceof TimeoutError) {
    return true;
  }
  return error instanceof ServiceUnavailableError && RETRY_STATUSES.has(error.status ?? 0);
}

/** Full jitter: a random delay below min(maxDelay, base * 2^(retry-1)). `retry` counts from 1. */
export function backoffDelay(retry: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After as RFC 9110 defines it: delay-seconds (a non-negative integer) or an HTTP-date (IMF-fixdate,
 * or the obsolete RFC 850 and asctime forms, all naming GMT); undefined for anything else, which is ignored
 * ("-5", "1.5", "soon", an ISO date). A date in the past is no wait.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return undefined;
  // asctime names no zone; HTTP dates are GMT.
  const at = Date.parse(text.endsWith("GMT") ? text : `${text} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT"), asctime. */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** The wait before the next attempt, or undefined when no retry fits the options. */
export function nextDelay(
  error: unknown,
  attempt: number,
  elapsedMs: number,
  options: RetryOptions,
  random: () => number,
): number | undefined {
  if (!isRetryable(error) || attempt >= options.attempts) return undefined;
  const retryAfter = error instanceof FdqError ? error.retryAfterMs : undefined;
  if (retryAfter !== undefined && retryAfter > options.maxRetryAfterMs) return undefined;
  const delay = retryAfter ?? backoffDelay(attempt, options, random);
  return elapsedMs + delay < options.maxElapsedMs ? delay : undefined;
}
