// Excel's error values as the workbook reports them ("#N/A"), and what Excel itself means by those the
// request module has nothing to add to.

const EXCEL_ERROR =
  /^#(N\/A|VALUE!|NAME\?|NUM!|REF!|DIV\/0!|NULL!|SPILL!|CALC!|BUSY!|CONNECT!|FIELD!|BLOCKED!|UNKNOWN!)$/;

export function isErrorValue(value: unknown): boolean {
  return typeof value === "string" && EXCEL_ERROR.test(value);
}

/** Errors that come from Excel, not from an FDQ function's answer: asking the service again tells nothing. */
export const EXCEL_REASONS: Readonly<Record<string, string>> = {
  "#NAME?": "Excel does not know the FDQ functions here: the add-in's functions are not loaded.",
  "#BUSY!": "Still calculating.",
  "#SPILL!": "The result cannot spill: the cells it needs below or to the right are not empty.",
  "#CALC!": "Excel could not calculate the result.",
};
