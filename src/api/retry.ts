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

/** Retry-After as a delay in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

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
