// The one table from error class to the Excel error a cell shows, and to whether the answer may be
// remembered for the refresh day (only "does not exist" answers; never transient failures).

export type ExcelErrorCode = "#VALUE!" | "#N/A";

export const EXCEL_ERRORS = {
  FdqError: { excelCode: "#N/A", remembered: false },
  InvalidArgumentError: { excelCode: "#VALUE!", remembered: false },
  InvalidSecurityTypeError: { excelCode: "#VALUE!", remembered: false },
  InvalidPriorYearError: { excelCode: "#VALUE!", remembered: false },
  DataPointNotFoundError: { excelCode: "#N/A", remembered: true },
  SectorDataPointNotFoundError: { excelCode: "#N/A", remembered: true },
  DataNotFoundError: { excelCode: "#N/A", remembered: true },
  RatingNotFoundError: { excelCode: "#N/A", remembered: true },
  UnauthorizedError: { excelCode: "#N/A", remembered: false },
  NotConfiguredError: { excelCode: "#N/A", remembered: false },
  RateLimitedError: { excelCode: "#N/A", remembered: false },
  ServiceUnavailableError: { excelCode: "#N/A", remembered: false },
  NetworkError: { excelCode: "#N/A", remembered: false },
  TimeoutError: { excelCode: "#N/A", remembered: false },
  BadResponseError: { excelCode: "#N/A", remembered: false },
  ServiceError: { excelCode: "#N/A", remembered: false },
} as const satisfies Record<string, { excelCode: ExcelErrorCode; remembered: boolean }>;

export type FdqErrorName = keyof typeof EXCEL_ERRORS;
