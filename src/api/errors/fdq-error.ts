import { EXCEL_ERRORS, type ExcelErrorCode, type FdqErrorName } from "./excel-errors";

export interface FdqErrorOptions {
  /** HTTP status of the answer that caused the error, when there was one. */
  status?: number;
  cause?: unknown;
  /** Wait the service asked for (Retry-After), in ms. */
  retryAfterMs?: number;
}

/** Base of every error the request module throws; `excelCode` says which Excel error a cell shows. */
export class FdqError extends Error {
  override name: FdqErrorName = "FdqError";
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: FdqErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  get excelCode(): ExcelErrorCode {
    return EXCEL_ERRORS[this.name].excelCode;
  }

  /** A "does not exist" answer: the same request gives the same answer for the rest of the refresh day. */
  get remembered(): boolean {
    return EXCEL_ERRORS[this.name].remembered;
  }
}
