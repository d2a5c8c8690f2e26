// The one place where a failure becomes an Excel error. The request module also serves the CLI and a
// server, which have no cells, so the Excel side of its errors lives here. Excel's CustomFunctions.Error
// exists only inside Excel, so errors are built through a factory the caller provides: functions.ts passes
// one over the CustomFunctions global, the CLI and tests pass their own.
import { FdqError, NotCachedError, unitsText, type FdqErrorName } from "../api";

/** The two Excel errors that carry a message. */
export type ExcelErrorCode = "#VALUE!" | "#N/A";

/**
 * The Excel error of every error class: `#VALUE!` for arguments refused before any request (the message
 * names the argument), `#N/A` for everything the service or the network answered.
 */
export const EXCEL_CODES: Readonly<Record<FdqErrorName, ExcelErrorCode>> = {
  FdqError: "#N/A",
  InvalidArgumentError: "#VALUE!",
  InvalidSecurityTypeError: "#VALUE!",
  InvalidPriorYearError: "#VALUE!",
  DataPointNotFoundError: "#N/A",
  SectorDataPointNotFoundError: "#N/A",
  DataNotFoundError: "#N/A",
  RatingNotFoundError: "#N/A",
  UncoveredTickerError: "#N/A",
  UnauthorizedError: "#N/A",
  NotInPortfolioError: "#N/A",
  NotConfiguredError: "#N/A",
  NotCachedError: "#N/A",
  RateLimitedError: "#N/A",
  QuotaExhaustedError: "#N/A",
  ServiceUnavailableError: "#N/A",
  ServiceRefreshingError: "#N/A",
  NetworkError: "#N/A",
  TimeoutError: "#N/A",
  BadResponseError: "#N/A",
  ServiceError: "#N/A",
};

export const excelCodeOf = (error: FdqError): ExcelErrorCode => EXCEL_CODES[error.name];

/**
 * Errors that are no answer about the data: the service was not reached, refused the key or the quota, or sent
 * an answer that cannot be trusted. A cell keeps its last value through them (Excel does until the cell is
 * recalculated; `fdq refresh` keeps the workbook's cached value), where an argument error or the service's
 * "does not exist" is the cell's new result.
 */
export const NO_ANSWER: Readonly<Record<FdqErrorName, boolean>> = {
  // The functions' own "does not apply" answers (a rating field an ETF has and a stock has not).
  FdqError: false,
  InvalidArgumentError: false,
  InvalidSecurityTypeError: false,
  InvalidPriorYearError: false,
  DataPointNotFoundError: false,
  SectorDataPointNotFoundError: false,
  DataNotFoundError: false,
  RatingNotFoundError: false,
  UncoveredTickerError: false,
  UnauthorizedError: true,
  NotInPortfolioError: false,
  NotConfiguredError: true,
  NotCachedError: true,
  RateLimitedError: true,
  QuotaExhaustedError: true,
  ServiceUnavailableError: true,
  ServiceRefreshingError: true,
  NetworkError: true,
  TimeoutError: true,
  BadResponseError: true,
  ServiceError: true,
};

/** Whether `err` left the cell without an answer (see NO_ANSWER); a bug of ours counts as none too. */
export const isNoAnswer = (err: unknown): boolean => !(err instanceof FdqError) || NO_ANSWER[err.name];

export interface ExcelErrorFactory<E> {
  create(code: ExcelErrorCode, message: string): E;
}

/** What the CLI prints and what tests compare: the code a cell shows and its message. */
export interface ExcelErrorValue {
  readonly error: ExcelErrorCode;
  readonly message: string;
}

/** The Excel code and message for anything a function implementation threw or rejected with. */
export function describeFailure(err: unknown): ExcelErrorValue {
  // Only a value preview reads cache-only: the cell itself fetches once the formula is entered.
  if (err instanceof NotCachedError)
    return {
      error: "#N/A",
      message: `Not fetched for the preview: FDQ fetches this value when the formula is entered, which costs ${err.list ? `at most ${unitsText(err.units)} (less if the day's ticker coverage list, asked first, does not list the ticker)` : unitsText(err.units)}.`,
    };
  if (err instanceof FdqError) return { error: excelCodeOf(err), message: err.message };
  // A bug of ours must still settle the cell with a readable message, never a bare #VALUE!.
  const detail = err instanceof Error ? err.message : String(err);
  return { error: "#N/A", message: `FDQ internal error: ${detail}. Please report it.` };
}

export function toExcelError<E>(err: unknown, factory: ExcelErrorFactory<E>): E {
  const { error, message } = describeFailure(err);
  return factory.create(error, message);
}

/** The factory over Excel's CustomFunctions global (looked up on use: it exists only inside Excel). */
export const customFunctionsErrors: ExcelErrorFactory<CustomFunctions.Error> = {
  create: (code, message) =>
    new CustomFunctions.Error(
      code === "#VALUE!" ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable,
      message,
    ),
};
