// Typed errors: one class per failure, matched on status + message, and one table to the Excel error. The
// messages are worded with the Excel hints, as the add-in's clients word them, unless a test says otherwise.
import { EXCEL_CODES, excelCodeOf } from "../../../src/functions/errors";
import {
  BadResponseError,
  DataNotFoundError,
  DataPointNotFoundError,
  FdqError,
  InvalidArgumentError,
  InvalidPriorYearError,
  InvalidSecurityTypeError,
  NetworkError,
  NotCachedError,
  NotConfiguredError,
  NotInPortfolioError,
  QuotaExhaustedError,
  RateLimitedError,
  RatingNotFoundError,
  ServiceRefreshingError,
  SectorDataPointNotFoundError,
  UncoveredTickerError,
  ServiceError,
  ServiceUnavailableError,
  TimeoutError,
  UnauthorizedError,
  NEUTRAL_HINTS,
  SPEC_ERROR_CLASSES,
} from "../../../src/api";
import { errorFromAnswer } from "../../../src/api/errors";
import { SPEC_ERRORS, type SpecErrorName } from "../../../src/catalog";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";
import { API_KEY, FakeFetch, json, makeClient } from "./fake-fetch";

const answer = (status: number, message?: string) =>
  errorFromAnswer(
    { status, message, detail: "a JSON body without a message", retryAfterMs: undefined },
    { hints: EXCEL_HINTS },
  );

describe("status + message to error class", () => {
  it.each(Object.keys(SPEC_ERRORS) as SpecErrorName[])("maps %s by its status and exact message", (name) => {
    const { status, message } = SPEC_ERRORS[name];
    const error = answer(status, message);
    expect(error.name).toBe(`${name}Error`);
    expect(error.message).toBe(message);
    expect(error.status).toBe(status);
  });

  it("keeps a spec message with another status as a ServiceError with the service's text", () => {
    const error = answer(400, SPEC_ERRORS.RatingNotFound.message);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toBe(
      `The FDQ service answered 400 (${SPEC_ERRORS.RatingNotFound.message}). Check the function's arguments.`,
    );
  });

  it("maps 401 and 403 to UnauthorizedError saying what failed and what to do, without the key", async () => {
    for (const status of [401, 403]) {
      const error = answer(status, "Forbidden");
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error.message).toBe(
        `The FDQ service refused the API key (${status}). Check the key in the FDQ task pane.`,
      );
    }
    const fake = new FakeFetch(() => json(403, { message: "Forbidden" }));
    const error = await makeClient(fake)
      .datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 })
      .then(
        () => undefined,
        (e: unknown) => e as FdqError,
      );
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error?.message).not.toContain(API_KEY);
    expect(excelCodeOf(error!)).toBe("#N/A");
  });

  it("maps 429 to RateLimitedError, 5xx to ServiceUnavailableError and other 4xx to ServiceError", () => {
    expect(answer(429, "Too Many Requests")).toBeInstanceOf(RateLimitedError);
    expect(answer(429).message).toBe(
      "The FDQ service is limiting the request rate (429) and the retries did not get through. Wait a minute, then recalculate.",
    );
    const unavailable = answer(503, "Service Unavailable");
    expect(unavailable).toBeInstanceOf(ServiceUnavailableError);
    expect(unavailable.message).toBe(
      "The FDQ service is unavailable (503: Service Unavailable). Try again later, then recalculate.",
    );
    const other = answer(400, "year is required");
    expect(other).toBeInstanceOf(ServiceError);
    expect(other.message).toBe(
      "The FDQ service answered 400 (year is required). Check the function's arguments.",
    );
    expect(answer(418).message).toBe(
      "The FDQ service answered 418 (a JSON body without a message). Check the base URL in the FDQ task pane: it must end in /v1.",
    );
  });
});

describe("every error class", () => {
  const instances: FdqError[] = [
    new InvalidArgumentError({
      argument: "year",
      message: "year must be a whole fiscal year such as 2023 (got 1.5).",
    }),
    new InvalidSecurityTypeError(),
    new InvalidPriorYearError(),
    new DataPointNotFoundError(),
    new SectorDataPointNotFoundError(),
    new DataNotFoundError(),
    new RatingNotFoundError(),
    new UncoveredTickerError({ ticker: "ZZZZ", coveredAs: "stock" }),
    new UnauthorizedError({ status: 403 }),
    new NotConfiguredError(),
    new NotCachedError({ units: 1 }),
    new RateLimitedError(),
    new QuotaExhaustedError({ resetsOn: "2026-12-01" }),
    new NotInPortfolioError({ status: 403, serviceMessage: "not in portfolio" }),
    new ServiceRefreshingError(),
    new ServiceUnavailableError({ status: 503 }),
    new NetworkError({ detail: "fetch failed" }),
    new TimeoutError({ timeoutMs: 30_000 }),
    new BadResponseError({ detail: "an empty body" }),
    new ServiceError({ status: 400, serviceMessage: "bad" }),
  ];

  it("is mapped to an Excel error by src/functions: #VALUE! for argument errors, #N/A for every other", () => {
    for (const error of instances) {
      // Argument errors are refused before any request; everything else is what the service or network answered.
      const expected = error instanceof InvalidArgumentError ? "#VALUE!" : "#N/A";
      expect([error.name, excelCodeOf(error)]).toEqual([error.name, expected]);
    }
    expect(instances.filter((e) => excelCodeOf(e) === "#VALUE!")).toHaveLength(3);
    expect(Object.keys(EXCEL_CODES).sort()).toEqual(["FdqError", ...instances.map((e) => e.name)].sort());
  });

  it("remembers only the does-not-exist answers for the day", () => {
    expect(instances.filter((e) => e.remembered).map((e) => e.name)).toEqual([
      "DataPointNotFoundError",
      "SectorDataPointNotFoundError",
      "DataNotFoundError",
      "RatingNotFoundError",
    ]);
  });

  it("says what failed and what to do for the transient failures", () => {
    expect(new NetworkError({ detail: "fetch failed: ECONNRESET", hints: EXCEL_HINTS }).message).toBe(
      "Could not reach the FDQ service (fetch failed: ECONNRESET). Check the network connection and the base URL in the FDQ task pane.",
    );
    expect(new TimeoutError({ timeoutMs: 30_000, hints: EXCEL_HINTS }).message).toBe(
      "The FDQ service did not answer within 30 s. Try again later, then recalculate.",
    );
    expect(new NotConfiguredError({ hints: EXCEL_HINTS }).message).toBe(
      "No FDQ API key is set. Enter the key in the FDQ task pane.",
    );
  });

  it("without hints names no surface: the request module's neutral words, never the task pane's", () => {
    const unhinted = [
      new UnauthorizedError({ status: 403 }),
      new NotConfiguredError(),
      new QuotaExhaustedError({ resetsOn: "2026-12-01" }),
      new NetworkError({ detail: "fetch failed" }),
      new BadResponseError({ detail: "an empty body" }),
      new ServiceError({ status: 400, serviceMessage: "bad" }),
      new TimeoutError({ timeoutMs: 30_000 }),
      new ServiceRefreshingError(),
    ];
    expect(unhinted.map((e) => e.message)).toEqual([
      "The FDQ service refused the API key (403). Check the API key.",
      "No FDQ API key is set. Set the API key.",
      "The monthly quota of this FDQ API key is used up (429: Limit Exceeded). It resets on 2026-12-01 (US Central). No request is sent until then. If the plan was raised, tell the client (planRaised).",
      "Could not reach the FDQ service (fetch failed). Check the network connection and the base URL.",
      "The FDQ service sent an answer that could not be read (an empty body). Check the base URL: it must end in /v1.",
      "The FDQ service answered 400 (bad). Check the request's arguments.",
      "The FDQ service did not answer within 30 s. Try again later, then send the request again.",
      "FDQ is refreshing its data until 5:20 AM CT (US Central) and may not answer until then. Send the request again after 5:20 AM CT.",
    ]);
    expect(new NotConfiguredError().message).toBe(new NotConfiguredError({ hints: NEUTRAL_HINTS }).message);
  });

  it("passes the cause on and keeps every error an FdqError and an Error", () => {
    const cause = new TypeError("fetch failed");
    const error = new NetworkError({ detail: "fetch failed", cause });
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(FdqError);
    expect(error).toBeInstanceOf(Error);
  });
});

describe("one constructor shape", () => {
  it("takes one options object: status, the service's message, hints and cause", () => {
    const cause = new Error("root");
    const hints = { ...EXCEL_HINTS, apiKey: "Pass --api-key." };
    const error = new UnauthorizedError({ status: 401, serviceMessage: "Forbidden", hints, cause });
    expect(error.status).toBe(401);
    expect(error.serviceMessage).toBe("Forbidden");
    expect(error.cause).toBe(cause);
    expect(error.message).toBe("The FDQ service refused the API key (401). Pass --api-key.");
  });

  it("rewords an error for another surface without losing its facts", () => {
    const error = new BadResponseError({ detail: "an HTML page", status: 200, hints: EXCEL_HINTS });
    const cli = error.withHints({ ...EXCEL_HINTS, baseUrl: "Check --base-url." });
    expect(cli).toBeInstanceOf(BadResponseError);
    expect(cli.message).toBe(
      "The FDQ service sent an answer that could not be read (an HTML page). Check --base-url.",
    );
    expect(cli.status).toBe(200);
    expect(error.withHints(EXCEL_HINTS).message).toBe(error.message);
  });

  it("keeps the service's own words for the spec's named errors", () => {
    expect(new DataNotFoundError({ serviceMessage: "No data for X.", status: 400 }).message).toBe(
      "No data for X.",
    );
    expect(new DataPointNotFoundError().message).toBe("The requested datapoint was not found.");
  });
});

describe("the table from the spec's error names to classes", () => {
  it("names a class for every error of the spec, which carries the spec's status and message", () => {
    for (const [name, spec] of Object.entries(SPEC_ERRORS)) {
      const Class = SPEC_ERROR_CLASSES[name as keyof typeof SPEC_ERRORS];
      const error = new Class({ status: spec.status });
      expect(error.name).toBe(`${name}Error`);
      expect(error.message).toBe(spec.message);
    }
  });
});
