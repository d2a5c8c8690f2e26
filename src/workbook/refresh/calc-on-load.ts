// Whether a workbook asks the spreadsheet that opens it to recalculate every formula (`<calcPr
// fullCalcOnLoad="1">` in workbook.xml, which tools that write workbooks without calculating them set). Such a
// workbook throws away the values `fdq refresh` wrote as soon as it is opened: in Excel without the add-in every
// FDQ cell becomes #NAME?, and with the add-in every FDQ cell is fetched again. The refresh leaves the setting as
// it is (it is the user's, like every byte the refresh does not own) and says so: docs/refresh.md.
import type { WorkbookPackage } from "../xlsx/package";
import { attributeOf, childNamed } from "../xlsx/xml";

export function recalculatesOnLoad(pkg: WorkbookPackage): boolean {
  const calcPr = childNamed(pkg.workbook, "calcPr");
  const value = calcPr ? attributeOf(calcPr, "fullCalcOnLoad") : undefined;
  return value === "1" || value === "true";
}

/** The warning `fdq refresh` prints for such a workbook. */
export function calcOnLoadWarning(file: string): string {
  return (
    `${file} is set to recalculate every formula when it is opened (fullCalcOnLoad="1" in the calcPr of ` +
    "xl/workbook.xml), so the values written now are thrown away on open: in Excel without the FDQ add-in every " +
    "FDQ cell becomes #NAME?, and with the add-in every FDQ cell is fetched again. For colleagues without the " +
    "add-in, send a copy made with fdq freeze --share; or remove fullCalcOnLoad from the workbook's calcPr. " +
    "fdq refresh leaves the setting as it is."
  );
}
