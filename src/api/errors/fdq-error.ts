import { EXCEL_HINTS, type ErrorHints } from "./hints";

/** Every error class of the request module, by its `name`. */
export type FdqErrorName =
  | "FdqError"
  | "InvalidArgumentError"
  | "InvalidSecurityTypeError"
  | "InvalidPriorYearError"
  | "DataPointNotFoundError"
  | "SectorDataPointNotFoundError"
  | "DataNotFoundError"
  | "RatingNotFoundError"
  | "UnauthorizedError"
  | "NotInPortfolioError"
  | "NotConfiguredError"
  | "RateLimitedError"
  | "QuotaExhaustedError"
  | "ServiceUnavailableError"
  | "ServiceRefreshingError"
  | "NetworkError"
  | "TimeoutError"
  | "BadResponseError"
  | "ServiceError";

/** The one constructor shape of every error class: each class words its message from these. */
export interface FdqErrorOptions {
  /** HTTP status of the answer that caused the error, when there was one. */
  status?: number;
  /** What the service said (its `message`, or what its body was), already without the key. */
  serviceMessage?: string;
  /** What went wrong in our words, where the service said nothing (a network failure, an unreadable body). */
  detail?: string;
  /** What messages tell the user to do; default the Excel task pane's wording. */
  hints?: ErrorHints;
  cause?: unknown;
  /** Wait the service asked for (Retry-After), in ms. */
  retryAfterMs?: number;
  /** The argument at fault (argument errors). */
  argument?: string;
  /** The whole message, for errors whose text is the caller's (argument checks) or the spec's. */
  message?: string;
  /** The per-request time limit that ran out (timeouts). */
  timeoutMs?: number;
}

/**
 * Base of every error the request module throws. The module serves Excel, the CLI and a server alike, so
 * it says nothing of cells: src/functions maps classes to Excel errors.
 */
export class FdqError extends Error {
  override name: FdqErrorName = "FdqError";
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly retryAfterMs: number | undefined;
  /**
   * A "does not exist" answer: the same request gets the same answer for the rest of the refresh day, so
   * the day cache (the add-in's and the gateway's) keeps it. Transient failures never are.
   */
  readonly remembered: boolean = false;

  constructor(
    readonly options: FdqErrorOptions,
    message: string = options.message ?? "FDQ request failed.",
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.serviceMessage = options.serviceMessage;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** The hints the message was worded with. */
  protected static hints(options: FdqErrorOptions): ErrorHints {
    return options.hints ?? EXCEL_HINTS;
  }

  /** The same error worded for another surface (the CLI's flags instead of the task pane). */
  withHints(hints: ErrorHints): FdqError {
    if (this.options.hints === hints) return this;
    const Class = this.constructor as new (options: FdqErrorOptions) => FdqError;
    return new Class({ ...this.options, hints });
  }
}
