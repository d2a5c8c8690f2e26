// Excel's error values as the workbook reports them ("#N/A"), and what Excel itself means by those the
// request module has nothing to add to. The codes are the one list of src/formula/excel-values.ts.
import { isErrorCode } from "../../formula/excel-values";

export function isErrorValue(value: unknown): boolean {
  return typeof value === "string" && isErrorCode(value);
}

/** Errors that come from Excel, not from an FDQ function's answer: asking the service again tells nothing. */
export const EXCEL_REASONS: Readonly<Record<string, string>> = {
  "#NAME?": "Excel does not know the FDQ functions here: the add-in's functions are not loaded.",
  "#BUSY!": "Still calculating.",
  "#SPILL!": "The result cannot spill: the cells it needs below or to the right are not empty.",
  "#CALC!": "Excel could not calculate the result.",
};
