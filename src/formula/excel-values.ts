// The values a cell holds and a formula writes: numbers, text, booleans, empty, and Excel's error values. The
// lexer reads an error code in a formula by this list, the workbook reader a cell's cached error, the task pane a
// cell's shown error.

/**
 * Excel's error codes, as stored in a cell's cached value (`t="e"`), written in formulas and shown in cells: the
 * one list the workbook reader, the lexer, the functions that match errors and the task pane use.
 */
export const ERROR_CODES = [
  "#NULL!",
  "#DIV/0!",
  "#VALUE!",
  "#REF!",
  "#NAME?",
  "#NUM!",
  "#N/A",
  "#GETTING_DATA",
  "#SPILL!",
  "#CALC!",
  "#BUSY!",
  "#CONNECT!",
  "#BLOCKED!",
  "#FIELD!",
  "#UNKNOWN!",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const ERROR_CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `text` is one of Excel's error codes, written as Excel writes it (upper case). */
export const isErrorCode = (text: string): text is ErrorCode => ERROR_CODE_SET.has(text);

/** An Excel error value. The message is ours (FDQ's #N/A reason, for the report); a file stores only the code. */
export class ExcelError {
  constructor(
    readonly code: ErrorCode,
    readonly message?: string,
  ) {}
  toString(): string {
    return this.code;
  }
}

/** A scalar as a cell holds it; null is an empty cell. */
export type Scalar = number | string | boolean | null | ExcelError;
