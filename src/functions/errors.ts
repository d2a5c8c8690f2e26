// The one place where a failure becomes an Excel error. Excel's CustomFunctions.Error exists only
// inside Excel, so errors are built through a factory the caller provides: functions.ts passes one
// over the CustomFunctions global, the CLI and tests pass their own.
import { FdqError, type ExcelErrorCode } from "../api/errors";

export interface ExcelErrorFactory<E> {
  create(code: ExcelErrorCode, message: string): E;
}

/** What the CLI prints and what tests compare: the code a cell shows and its message. */
export interface ExcelErrorValue {
  readonly error: ExcelErrorCode;
  readonly message: string;
}

export const plainErrors: ExcelErrorFactory<ExcelErrorValue> = {
  create: (error, message) => ({ error, message }),
};

/** The Excel code and message for anything a function implementation threw or rejected with. */
export function describeFailure(err: unknown): ExcelErrorValue {
  if (err instanceof FdqError) return { error: err.excelCode, message: err.message };
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
