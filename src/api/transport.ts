// One GET to the service: headers, per-attempt timeout (a timer raced against fetch and the body, plus an
// abort for fetches that honour it), concurrency slot, retries with backoff, the 429 pause every queued
// request waits out, and the translation of every failure into an FdqError without the key.
// Nothing else in the add-in calls fetch (probe.ts aside).
import { decodeEnvelope, describeBody, errorMessageOf, parseJson } from "./decode";
import {
  BadResponseError,
  FdqError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  type ErrorHints,
} from "./errors";
import { Limiter } from "./limiter";
import { redactKey } from "./redact";
import { errorFromAnswer, withHints } from "./response-errors";
import { nextDelay, parseRetryAfter } from "./retry";
import type { ClientEvent, RetryOptions } from "./types";

export interface Counters {
  requestsSent: number;
  cacheHits: number;
  coalescedCalls: number;
  retries: number;
  failures: Record<string, number>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  timeoutMs: number;
  retry: RetryOptions;
  concurrency: number;
  counters: Counters;
  emit: (e: ClientEvent) => void;
  hints: ErrorHints;
}

/** Shortest per-attempt timeout when the retry budget is almost spent. */
const MIN_ATTEMPT_TIMEOUT_MS = 1_000;

function networkDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code =
    typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "";
  return code ? `${error.message}: ${code}` : error.message;
}

export class Transport {
  readonly limiter: Limiter;
  private readonly headers: Record<string, string>;
  /** While the service asks to slow down (429 + Retry-After), no request starts. */
  private throttled: Promise<void> | undefined;

  constructor(private readonly o: TransportOptions) {
    this.limiter = new Limiter(o.concurrency);
    this.headers = {
      "x-api-key": o.apiKey,
      "Content-Type": "application/json",
      Accept: "application/json",
    };
  }

  url(relative: string): string {
    return `${this.o.baseUrl}/${relative}`;
  }

  /** GETs `relative` (after the base URL) and answers the envelope's `results`, retrying transient failures. */
  async get(relative: string): Promise<unknown> {
    const url = this.url(relative);
    let started: number | undefined;
    for (let attempt = 1; ; attempt++) {
      let delay: number | undefined;
      let wait: Promise<void> | undefined;
      await this.acquireUnthrottled();
      const first = (started ??= this.o.now());
      try {
        const timeout = Math.min(
          this.o.timeoutMs,
          Math.max(MIN_ATTEMPT_TIMEOUT_MS, this.o.retry.maxElapsedMs - (this.o.now() - first)),
        );
        return await this.attempt(url, attempt, timeout);
      } catch (caught) {
        const error =
          caught instanceof FdqError ? withHints(caught, this.o.hints) : this.networkError(caught);
        delay = nextDelay(error, attempt, this.o.now() - first, this.o.retry, this.o.random);
        if (delay === undefined) {
          this.countFailure(url, error);
          throw error;
        }
        this.o.counters.retries++;
        this.o.emit({ type: "retry", url, attempt, delayMs: delay, reason: error.name });
        wait =
          error instanceof RateLimitedError && error.retryAfterMs !== undefined
            ? this.throttle(delay)
            : undefined;
      } finally {
        this.limiter.release();
      }
      // The slot is free while waiting, so a backing-off request never blocks the queue.
      await (wait ?? this.o.sleep(delay));
    }
  }

  /** Counts a request's final error and tells the listeners (without the key). */
  countFailure(url: string, error: FdqError): void {
    const { failures } = this.o.counters;
    failures[error.name] = (failures[error.name] ?? 0) + 1;
    this.o.emit({ type: "failure", url, error: error.name, message: this.redact(error.message) });
  }

  private redact(text: string): string {
    return redactKey(text, this.o.apiKey);
  }

  private networkError(cause: unknown): NetworkError {
    return new NetworkError(this.redact(networkDetail(cause)), { cause }, this.o.hints);
  }

  /**
   * A concurrency slot, taken only while no 429 pause is on: a request that queued for a slot before the
   * pause began gives the slot back and waits the pause out, so nothing starts until it ends.
   */
  private async acquireUnthrottled(): Promise<void> {
    for (;;) {
      if (this.throttled) await this.throttled;
      await this.limiter.acquire();
      if (!this.throttled) return;
      this.limiter.release();
    }
  }

  /** Holds back every request for `ms` (one shared wait), so a throttled service is not hammered. */
  private throttle(ms: number): Promise<void> {
    if (this.throttled) return this.throttled;
    const pause = this.o.sleep(ms).finally(() => {
      if (this.throttled === pause) this.throttled = undefined;
    });
    this.throttled = pause;
    return pause;
  }

  private async attempt(url: string, attempt: number, timeoutMs: number): Promise<unknown> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Not every fetch honours the abort (some webviews, test doubles): the timer settles the call itself.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new TimeoutError(timeoutMs));
        controller.abort();
      }, timeoutMs);
    });
    timedOut.catch(() => undefined);
    const sent = this.o.now();
    const fail = (cause: unknown): FdqError =>
      cause instanceof TimeoutError
        ? cause
        : controller.signal.aborted
          ? new TimeoutError(timeoutMs, { cause })
          : this.networkError(cause);
    try {
      this.o.counters.requestsSent++;
      this.o.emit({ type: "request", url, attempt });
      let response: Response;
      let text: string;
      try {
        const fetched = this.o.fetch(url, {
          method: "GET",
          headers: this.headers,
          signal: controller.signal,
        });
        response = await Promise.race([fetched, timedOut]);
        text = await Promise.race([response.text(), timedOut]);
      } catch (cause) {
        throw fail(cause);
      }
      this.o.emit({ type: "response", url, status: response.status, ms: this.o.now() - sent });
      return this.interpret(response, text);
    } finally {
      clearTimeout(timer);
    }
  }

  private interpret(response: Response, text: string): unknown {
    const parsed = parseJson(text);
    const contentType = response.headers.get("content-type");
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.o.now());
    if (response.ok) {
      if (!parsed) {
        const detail = this.redact(`${describeBody(text, contentType)} instead of JSON`);
        throw new BadResponseError(detail, {}, this.o.hints);
      }
      const envelope = decodeEnvelope(parsed.json);
      if (envelope.ok) return envelope.results;
      throw errorFromAnswer({ ...envelope, detail: "an error inside the envelope", retryAfterMs }, this.o);
    }
    throw errorFromAnswer(
      {
        status: response.status,
        message: parsed ? errorMessageOf(parsed.json) : undefined,
        detail: parsed ? "a JSON body without a message" : describeBody(text, contentType),
        retryAfterMs,
      },
      this.o,
    );
  }
}
