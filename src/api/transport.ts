// One GET to the service: headers, per-attempt timeout (a timer raced against fetch and the body, plus an
// abort for fetches that honour it), concurrency slot, retries with backoff, the 429 pause every queued
// request waits out, the translation of every failure into an FdqError without the key, and the answer read
// once (answer-reading.ts) into the value the day cache keeps.
// Redirects, the body's bound and the timeout are the upstream policy the gateway shares (upstream-policy.ts).
// Nothing else in the add-in calls fetch (probe.ts aside).
import { answerOf, resultsOf } from "./answer-reading";
import type { CacheValue } from "./cache-codec";
import { BodyTooLarge, readBody } from "./body";
import { inRefreshWindow } from "./vendor-clock";
import {
  BadResponseError,
  ServiceRefreshingError,
  ServiceUnavailableError,
  FdqError,
  NetworkError,
  QuotaExhaustedError,
  RateLimitedError,
  TimeoutError,
  type ErrorHints,
} from "./errors";
import { DEFAULTS } from "./defaults";
import { Limiter } from "./limiter";
import { redactorFor, type Redactor } from "./redact";
import type { RequestKey } from "./request-key";
import { nextDelay, parseRetryAfter } from "./retry";
import type { ClientEvent, RetryOptions } from "./types";
import { fetchUnderPolicy, RedirectRefused, UPSTREAM_POLICY } from "./upstream-policy";

export interface Counters {
  requestsSent: number;
  /** Same-origin redirects followed (each also counts as a request sent). */
  redirects: number;
  unitsSpent: number;
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
  /** An error that stops a request before it is sent (the quota is spent), or undefined to send it. */
  refuse?: () => FdqError | undefined;
  /** Told of a "Limit Exceeded" before the slot is given back, so no queued request starts after it. */
  onQuotaExhausted?: () => void;
  /** The longest body read (default DEFAULTS.maxBodyBytes); a longer one is cancelled unread. */
  maxBodyBytes?: number;
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

/**
 * A 503 or a timeout inside the vendor's daily refresh window (5:00-5:20 AM US Central, production-service.md, fact 13) is
 * the refresh, not an outage: say so. Like every transient failure it is never cached.
 */
function refreshing(error: FdqError, nowMs: number): FdqError {
  const unavailable =
    (error instanceof ServiceUnavailableError && error.status === 503) || error instanceof TimeoutError;
  if (!unavailable || !inRefreshWindow(nowMs)) return error;
  return new ServiceRefreshingError({ ...error.options, cause: error });
}

export class Transport {
  readonly limiter: Limiter;
  private readonly headers: Record<string, string>;
  /** Built once per key: every body is redacted as soon as it is read. */
  private readonly redactor: Redactor;
  private readonly maxBodyBytes: number;

  constructor(private readonly o: TransportOptions) {
    this.limiter = new Limiter(o.concurrency);
    this.redactor = redactorFor(o.apiKey);
    this.maxBodyBytes = o.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
    this.headers = {
      "x-api-key": o.apiKey,
      "Content-Type": "application/json",
      Accept: "application/json",
    };
  }

  url(key: RequestKey): string {
    return key.url(this.o.baseUrl);
  }

  /**
   * GETs the request of `key`, retrying transient failures, and answers what its results mean (answerOf: every
   * record checked against `key`). Every failure is counted once, here.
   */
  async get(key: RequestKey): Promise<CacheValue> {
    const url = this.url(key);
    const results = await this.results(url);
    try {
      return answerOf(key, results);
    } catch (caught) {
      if (!(caught instanceof FdqError)) throw caught;
      const error = caught.withHints(this.o.hints);
      this.countFailure(url, error);
      throw error;
    }
  }

  /** The envelope's `results` of the GET of `url`. */
  private async results(url: string): Promise<unknown> {
    let started: number | undefined;
    for (let attempt = 1; ; attempt++) {
      // The slot is held for one attempt only, so a backing-off request never blocks the queue.
      const release = await this.limiter.acquire();
      let outcome: Awaited<ReturnType<Transport["attemptInSlot"]>>;
      try {
        outcome = await this.attemptInSlot(url, attempt, (started ??= this.o.now()));
      } finally {
        release();
      }
      if ("results" in outcome) return outcome.results;
      const { error, delay, pause } = outcome;
      if (delay === undefined) {
        this.countFailure(url, error);
        throw error;
      }
      this.o.counters.retries++;
      this.o.emit({ type: "retry", url, attempt, delayMs: delay, reason: error.name });
      await (pause ?? this.o.sleep(delay));
    }
  }

  /**
   * One attempt, and what follows a failure: the wait before the next (none: give up). A 429 with
   * Retry-After pauses the queue before the slot is given back, so no queued request starts in between.
   */
  private async attemptInSlot(
    url: string,
    attempt: number,
    first: number,
  ): Promise<{ results: unknown } | { error: FdqError; delay: number | undefined; pause?: Promise<void> }> {
    const refused = this.o.refuse?.();
    if (refused) return { error: refused, delay: undefined };
    try {
      const timeout = Math.min(
        this.o.timeoutMs,
        Math.max(MIN_ATTEMPT_TIMEOUT_MS, this.o.retry.maxElapsedMs - (this.o.now() - first)),
      );
      return { results: await this.attempt(url, attempt, timeout) };
    } catch (caught) {
      const error = refreshing(
        caught instanceof FdqError ? caught.withHints(this.o.hints) : this.networkError(caught),
        this.o.now(),
      );
      if (error instanceof QuotaExhaustedError) this.o.onQuotaExhausted?.();
      const delay = nextDelay(error, attempt, this.o.now() - first, this.o.retry, this.o.random);
      if (delay !== undefined && error instanceof RateLimitedError && error.retryAfterMs !== undefined) {
        // While the service asks to slow down, no request starts: one shared pause.
        return { error, delay, pause: this.limiter.pauseUntil(() => this.o.sleep(delay)) };
      }
      return { error, delay };
    }
  }

  /** Counts a request's final error and tells the listeners (without the key). */
  countFailure(url: string, error: FdqError): void {
    const { failures } = this.o.counters;
    failures[error.name] = (failures[error.name] ?? 0) + 1;
    this.o.emit({ type: "failure", url, error: error.name, message: this.redact(error.message) });
  }

  private redact(text: string): string {
    return this.redactor.redact(text);
  }

  private networkError(cause: unknown): NetworkError {
    return new NetworkError({ detail: this.redact(networkDetail(cause)), cause, hints: this.o.hints });
  }

  private async attempt(url: string, attempt: number, timeoutMs: number): Promise<unknown> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Not every fetch honours the abort (some webviews, test doubles): the timer settles the call itself.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new TimeoutError({ timeoutMs, hints: this.o.hints }));
        controller.abort();
      }, timeoutMs);
    });
    timedOut.catch(() => undefined);
    const sent = this.o.now();
    const fail = (cause: unknown): FdqError =>
      cause instanceof TimeoutError
        ? cause
        : controller.signal.aborted
          ? new TimeoutError({ timeoutMs, cause, hints: this.o.hints })
          : this.networkError(cause);
    try {
      this.o.counters.requestsSent++;
      this.o.emit({ type: "request", url, attempt });
      // Assigned before readBody can throw BodyTooLarge, the one cause read after it.
      let response!: Response;
      let text: string | undefined;
      try {
        response = await fetchUnderPolicy(url, {
          fetch: this.o.fetch,
          headers: this.headers,
          signal: controller.signal,
          maxRedirects: UPSTREAM_POLICY.maxRedirects,
          until: timedOut,
          onRedirect: (target) => {
            this.o.counters.requestsSent++;
            this.o.counters.redirects++;
            this.o.emit({ type: "request", url: target, attempt });
          },
        });
        // The timeout covers the body too: a body that trickles in is cut when the attempt's time is up.
        text = await Promise.race([readBody(response, this.maxBodyBytes, controller.signal), timedOut]);
      } catch (cause) {
        if (cause instanceof RedirectRefused)
          throw new BadResponseError({ detail: this.redact(cause.message), hints: this.o.hints });
        if (!(cause instanceof BodyTooLarge)) throw cause instanceof FdqError ? cause : fail(cause);
        // A 200 that large is no answer; an error status keeps its meaning (a 503 is still retried).
        if (response.ok)
          throw new BadResponseError({ detail: `an answer ${cause.message}`, hints: this.o.hints });
      }
      // Every text of the answer (values, names, messages) leaves here without the key, once.
      if (text !== undefined) text = this.redact(text);
      this.o.emit({ type: "response", url, status: response.status, ms: this.o.now() - sent });
      return this.interpret(response, text);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `text` undefined: an error body over the size bound, not read. */
  private interpret(response: Response, text: string | undefined): unknown {
    const answer = {
      status: response.status,
      contentType: response.headers.get("content-type"),
      text,
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), this.o.now()),
    };
    return resultsOf(answer, { ...this.o, maxBodyBytes: this.maxBodyBytes });
  }
}
