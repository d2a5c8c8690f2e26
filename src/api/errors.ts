// The request module's errors, in one module with one factory (openai-node's error.ts, ky's few classes
// carrying data). `errorFromAnswer` is the one place that turns a failed HTTP answer (status, body, headers)
// into an error; `rememberedError` rebuilds a remembered "does not exist" answer from a cache. Each class
// exists because src/functions maps it to an Excel error and src/cli to an exit code; every class carries
// the same data (FdqErrorOptions) and words its own message. The spec's error texts are owned by the
// catalog (SPEC_ERRORS) and only read here.
import { SPEC_ERRORS, type SpecErrorName } from "../catalog";
import { NEUTRAL_HINTS, type ErrorHints } from "./error-hints";
import { redactKey } from "./redact";
import { quotaResetsOn } from "./vendor-clock";

export { NEUTRAL_HINTS, type ErrorHints } from "./error-hints";

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
  | "UncoveredTickerError"
  | "UnauthorizedError"
  | "NotInPortfolioError"
  | "NotConfiguredError"
  | "NotCachedError"
  | "RateLimitedError"
  | "QuotaExhaustedError"
  | "ServiceUnavailableError"
  | "ServiceRefreshingError"
  | "NetworkError"
  | "TimeoutError"
  | "BadResponseError"
  | "ServiceError";

/**
 * The one constructor shape of every error class: each class words its message from these. `status`: of the
 * answer, when there was one; `serviceMessage`: what the service said, already without the key; `detail`: what
 * went wrong in our words where the service said nothing; `hints`: what messages tell the user to do (the
 * surface's, else NEUTRAL_HINTS); `retryAfterMs`: the wait the service asked for; `argument`: the one at fault;
 * `message`: the whole text, for errors whose text is the caller's or the spec's; `timeoutMs`: the limit that
 * ran out.
 */
export interface FdqErrorOptions {
  status?: number;
  serviceMessage?: string;
  detail?: string;
  hints?: ErrorHints;
  cause?: unknown;
  retryAfterMs?: number;
  argument?: string;
  message?: string;
  timeoutMs?: number;
}

/** The most characters of the service's text an error keeps: errors keep a message, never a body. */
export const MAX_SERVICE_TEXT = 300;

const clip = (text: string): string =>
  text.length <= MAX_SERVICE_TEXT
    ? text
    : `${text.slice(0, MAX_SERVICE_TEXT)}… (${text.length} characters in all)`;

/** The vendor's answer to a spent quota, exactly (production-service.md, fact 12): a 429 with this message, no Retry-After. */
export const LIMIT_EXCEEDED = "Limit Exceeded";

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
    return options.hints ?? NEUTRAL_HINTS;
  }

  /** The same error worded for another surface (the CLI's flags instead of the task pane). */
  withHints(hints: ErrorHints): FdqError {
    if (this.options.hints === hints) return this;
    const Class = this.constructor as new (options: FdqErrorOptions) => FdqError;
    return new Class({ ...this.options, hints });
  }
}

/** A spec error's text: the service's own words, else the caller's, else the spec's (owned by the catalog). */
const specText = (options: FdqErrorOptions, name: SpecErrorName): string =>
  options.serviceMessage ?? options.message ?? SPEC_ERRORS[name].message;

/** A "does not exist" answer of the spec, remembered for the refresh day; the service's own words are shown. */
const RememberedSpecError = (spec: SpecErrorName) =>
  class extends FdqError {
    override readonly remembered = true;
    constructor(options: FdqErrorOptions = {}) {
      super(options, specText(options, spec));
    }
  };

/** An argument failed the checks made before any request; `argument` names it and the message says why. */
export class InvalidArgumentError extends FdqError {
  override name: "InvalidArgumentError" | "InvalidSecurityTypeError" | "InvalidPriorYearError" =
    "InvalidArgumentError";
  readonly argument: string;
  constructor(options: FdqErrorOptions & { argument: string; message: string }) {
    super(options);
    this.argument = options.argument;
  }
}

/** InvalidSecurityType (400): the security type is outside the allowed set (an argument error). */
export class InvalidSecurityTypeError extends InvalidArgumentError {
  override name = "InvalidSecurityTypeError" as const;
  constructor(options: FdqErrorOptions = {}) {
    super({ ...options, argument: "security_type", message: specText(options, "InvalidSecurityType") });
  }
}

/** InvalidPriorYear (400): prior_year is outside 0 to 5 (an argument error). */
export class InvalidPriorYearError extends InvalidArgumentError {
  override name = "InvalidPriorYearError" as const;
  constructor(options: FdqErrorOptions = {}) {
    super({ ...options, argument: "prior_year", message: specText(options, "InvalidPriorYear") });
  }
}

/** DataPointNotFound (404): the datapoint name is unknown to the dataset, to /datapoint or to /sector. */
export class DataPointNotFoundError extends RememberedSpecError("DataPointNotFound") {
  override name = "DataPointNotFoundError" as const;
}

/** SectorDataPointNotFound (404): the sector datapoint has no data for the requested prior_year. */
export class SectorDataPointNotFoundError extends RememberedSpecError("SectorDataPointNotFound") {
  override name = "SectorDataPointNotFoundError" as const;
}

/** DataNotFound (400): no data for the ticker, sector or period. */
export class DataNotFoundError extends RememberedSpecError("DataNotFound") {
  override name = "DataNotFoundError" as const;
}

/** RatingNotFound (404): no rating information exists for the ticker. */
export class RatingNotFoundError extends RememberedSpecError("RatingNotFound") {
  override name = "RatingNotFoundError" as const;
}

/** What a ticker is looked up as in the service's coverage: an inactive stock by its colon form, else a stock. */
export type CoveredAs = "stock" | "inactive";

const COVERED_AS_WORDS: Readonly<Record<CoveredAs, string>> = {
  stock: "stock",
  inactive: "inactive stock",
};

/**
 * A data call's ticker is not in the service's coverage: its data answer was "not found" and its coverage
 * record (/coverage/stock/:ticker, or /coverage/inactive/:ticker) is "not found" too. Not a "no value for
 * this period": the latest-period search stops at it instead of walking back through empty years.
 */
export class UncoveredTickerError extends FdqError {
  override name = "UncoveredTickerError" as const;
  readonly ticker: string;
  readonly coveredAs: CoveredAs;
  constructor(options: FdqErrorOptions & { ticker: string; coveredAs: CoveredAs }) {
    super(
      options,
      `FDQ does not cover the ticker "${options.ticker}" (no ${COVERED_AS_WORDS[options.coveredAs]} of that ticker in its coverage). ${FdqError.hints(options).ticker}`,
    );
    this.ticker = options.ticker;
    this.coveredAs = options.coveredAs;
  }
}

/** The gateways' stock texts for 401/403, which add nothing to "refused the API key". */
const STOCK_REFUSAL = /^(forbidden|unauthorized)$/i;

/**
 * 401/403: the service (or its gateway) refused the API key. A message other than the stock one is kept:
 * API Gateway answers a wrong path with 403 "Missing Authentication Token", so the base URL is named too.
 * The message never carries the key.
 */
export class UnauthorizedError extends FdqError {
  override name = "UnauthorizedError" as const;
  constructor(options: FdqErrorOptions & { status: number }) {
    const hints = FdqError.hints(options);
    const said = options.serviceMessage?.trim() ?? "";
    const own = said && !STOCK_REFUSAL.test(said) ? said : "";
    super(
      options,
      own
        ? `The FDQ service refused the request (${options.status}: ${own}). ${hints.apiKey} ${hints.baseUrl}`
        : `The FDQ service refused the API key (${options.status}). ${hints.apiKey}`,
    );
  }
}

/**
 * A portfolio-limited plan refused a security (production-service.md, fact 14): company data is served only for the member's
 * portfolio, from the day after a ticker is added. Status and words are not documented: a 403 or 404 whose
 * message speaks of the portfolio. The service's own message is shown.
 */
export class NotInPortfolioError extends FdqError {
  override name = "NotInPortfolioError" as const;
  constructor(options: FdqErrorOptions & { status: number }) {
    super(
      options,
      `The FDQ service refused this security for your plan (${options.status}: ${options.serviceMessage ?? "not in your portfolio"}). Individual plans serve company data only for securities in the member's portfolio, from the day after one is added.`,
    );
  }
}

/** No API key has been saved yet, so no request can be made. */
export class NotConfiguredError extends FdqError {
  override name = "NotConfiguredError" as const;
  constructor(options: FdqErrorOptions = {}) {
    super(options, `No FDQ API key is set. ${FdqError.hints(options).missingKey}`);
  }
}

/**
 * A cache-only call (CallOptions.cacheOnly: Excel's formula value preview) that today's cache does not answer:
 * it sent nothing, and `units` is what the requests it would have sent cost, priced as `estimate` prices them;
 * `search`, for a relative period not resolved today, is the part of `units` its latest-period search costs
 * (by ticker and period kind: calls of one ticker and kind share one search).
 */
/** Units of `units` that other calls would share: a latest-period search, the day's coverage list. */
export interface SharedCost {
  readonly id: string;
  readonly units: number;
}

export class NotCachedError extends FdqError {
  override name = "NotCachedError" as const;
  /** Everything the call would cost, its shared costs included. */
  readonly units: number;
  readonly shared: readonly SharedCost[];
  /**
   * The day's coverage list among the shared costs, when it is asked first and decides the rest: a ticker it
   * does not list costs only the list, so `units` is then an upper bound.
   */
  readonly list?: SharedCost;
  constructor(
    options: FdqErrorOptions & { units: number; shared?: readonly SharedCost[]; list?: SharedCost },
  ) {
    super(
      options,
      `Not in today's cache, and a cache-only call sends nothing: its requests would cost ${options.list ? "at most " : ""}${options.units} ${options.units === 1 ? "unit" : "units"}.`,
    );
    this.units = options.units;
    this.shared = options.shared ?? [];
    if (options.list) this.list = options.list;
  }

  /** The same refusal with a shared cost more; `list` when it is the coverage list asked before the call's data. */
  with(cost: SharedCost, list?: "list"): NotCachedError {
    return new NotCachedError({
      units: this.units + cost.units,
      shared: [...this.shared, cost],
      ...(list ? { list: cost } : this.list ? { list: this.list } : {}),
    });
  }

  /**
   * One refusal for several calls (a SERIES's years): their own requests' units, and each shared cost once, at
   * the least any of its calls gives it (a call at the latest period asks the search's answer itself).
   */
  static joined(errors: readonly NotCachedError[]): NotCachedError {
    let own = 0;
    const shared = new Map<string, number>();
    for (const { units, shared: costs } of errors) {
      own += units - costs.reduce((n, c) => n + c.units, 0);
      for (const c of costs) shared.set(c.id, Math.min(c.units, shared.get(c.id) ?? Infinity));
    }
    const costs = [...shared].map(([id, units]) => ({ id, units }));
    // The calls of one recalculation joined here are of one ticker: one list decides them all.
    const list = errors.find((e) => e.list)?.list;
    return new NotCachedError({
      units: own + costs.reduce((n, c) => n + c.units, 0),
      shared: costs,
      ...(list && { list }),
    });
  }
}

/** 429 that outlasted the retries (or asked for a longer wait than the client honours). */
export class RateLimitedError extends FdqError {
  override name = "RateLimitedError" as const;

  /** The service's message, unless it is the stock "Too Many Requests", is kept. */
  constructor(options: FdqErrorOptions = {}) {
    const said = options.serviceMessage?.trim();
    const own = said && !/^too many requests$/i.test(said) ? `: ${said}` : "";
    super(
      { status: 429, ...options },
      `The FDQ service is limiting the request rate (429${own}) and the retries did not get through. Wait a minute, then ${FdqError.hints(options).retry}.`,
    );
  }
}

/**
 * 429 "Limit Exceeded" (production-service.md, fact 12): the key's monthly quota is spent. Never retried: every call fails
 * the same way until the month turns (the first, US Central) or the plan is raised. `resetsOn` is that date.
 */
export class QuotaExhaustedError extends FdqError {
  override name = "QuotaExhaustedError" as const;
  constructor(options: FdqErrorOptions & { resetsOn?: string } = {}) {
    const said = options.serviceMessage?.trim() || LIMIT_EXCEEDED;
    const when = options.resetsOn
      ? ` It resets on ${options.resetsOn} (US Central).`
      : " It resets on the 1st of next month (US Central).";
    super(
      { status: 429, ...options },
      `The monthly quota of this FDQ API key is used up (429: ${said}).${when} No request is sent until then. ${FdqError.hints(options).quota}`,
    );
  }
}

/** 5xx from the service or its gateway (retried first where that can help: 502, 503, 504). */
export class ServiceUnavailableError extends FdqError {
  override name = "ServiceUnavailableError" as const;
  constructor(options: FdqErrorOptions & { status: number }) {
    const said = options.serviceMessage ?? options.detail;
    super(
      options,
      `The FDQ service is unavailable (${options.status}${said ? `: ${said}` : ""}). Try again later, then ${FdqError.hints(options).retry}.`,
    );
  }
}

/** A 503 or a timeout during the vendor's daily refresh, 5:00-5:20 AM US Central (production-service.md, fact 13). */
export class ServiceRefreshingError extends FdqError {
  override name = "ServiceRefreshingError" as const;
  constructor(options: FdqErrorOptions = {}) {
    const retry = FdqError.hints(options).retry;
    super(
      options,
      `FDQ is refreshing its data until 5:20 AM CT (US Central) and may not answer until then. ${retry.charAt(0).toUpperCase()}${retry.slice(1)} after 5:20 AM CT.`,
    );
  }
}

/** The request never got an HTTP answer: refused or dropped connection, DNS, CORS. `detail` says which. */
export class NetworkError extends FdqError {
  override name = "NetworkError" as const;
  constructor(options: FdqErrorOptions & { detail: string }) {
    super(
      options,
      `Could not reach the FDQ service (${options.detail}). ${FdqError.hints(options).connection}`,
    );
  }
}

/** No complete answer within the per-request timeout. */
export class TimeoutError extends FdqError {
  override name = "TimeoutError" as const;
  constructor(options: FdqErrorOptions & { timeoutMs: number }) {
    super(
      options,
      `The FDQ service did not answer within ${options.timeoutMs / 1000} s. Try again later, then ${FdqError.hints(options).retry}.`,
    );
  }
}

/** An answer that is not the service's JSON (an HTML page, a truncated body, an unexpected shape): `detail` says what. */
export class BadResponseError extends FdqError {
  override name = "BadResponseError" as const;
  constructor(options: FdqErrorOptions & { detail: string }) {
    // Cut here too: a detail may quote the answer (a name, a value), and an error never holds a body.
    const o = { ...options, detail: clip(options.detail) };
    super(
      o,
      `The FDQ service sent an answer that could not be read (${o.detail}). ${FdqError.hints(o).baseUrl}`,
    );
  }

  get detail(): string {
    return this.options.detail!;
  }
}

/**
 * Any other non-2xx answer: says the status, what the service said (or what the body was) and what to do.
 * A 400 is about the arguments; any other status means the URL did not reach the FDQ API.
 */
export class ServiceError extends FdqError {
  override name = "ServiceError" as const;
  constructor(options: FdqErrorOptions & { status: number }) {
    const hints = FdqError.hints(options);
    const hint = options.status === 400 ? hints.arguments : hints.baseUrl;
    const said = options.serviceMessage || options.detail;
    super(options, `The FDQ service answered ${options.status}${said ? ` (${said})` : ""}. ${hint}`);
  }
}

export type SpecErrorClass = new (options?: FdqErrorOptions) => FdqError;

/** The one table from the spec's named errors (service-spec "Errors") to the classes that carry them. */
export const SPEC_ERROR_CLASSES: Readonly<Record<SpecErrorName, SpecErrorClass>> = {
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

/**
 * A failed answer as the factory reads it: its status, the `message` of a JSON error body (when there was
 * one), what the body was when it had no message (`detail`, e.g. "an HTML page") and its Retry-After.
 */
export interface FailedAnswer {
  status: number;
  message: string | undefined;
  detail: string;
  retryAfterMs: number | undefined;
}

/** `apiKey` is replaced by "[API key]" wherever the answer echoes it; `now` gives the day a quota resets. */
export interface AnswerContext {
  apiKey?: string;
  hints?: ErrorHints;
  now?: () => number;
}

/**
 * The one factory: the error of a failed answer (status + message, production-service.md, facts 4 and 9). The service's text
 * is kept (without the key) so the user can read it.
 */
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
    // A quota refusal is exactly {"message":"Limit Exceeded"} without Retry-After (production-service.md, fact 12); anything
    // looser ("Rate limit exceeded, slow down") is a throttle, retried, never a month's stop.
    if (retryAfterMs === undefined && serviceMessage === LIMIT_EXCEEDED) {
      const resetsOn = context.now ? quotaResetsOn(context.now()) : undefined;
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
