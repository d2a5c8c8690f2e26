// FDQ calls a workbook holds outside its cells' formulas, which `fdq refresh` has no value to write for and so
// reports by place and function: a conditional format's rule or a data validation's limit (Excel evaluates
// them when it shows the sheet; the file stores no result of them), and a defined name calling FDQ that no
// formula uses (a name has no value of its own; a formula using it is refreshed, or reported, as a cell).
// Read from the worksheet parts' text after <sheetData> (where both live, the x14 forms in extLst included),
// without parsing the cells again or decoding their text.
import { engineFormula } from "../formula-text";
import type { FormulaCell, WorkbookModel } from "../model";
import type { WorkbookPackage } from "./package";
import { unescapeXml } from "./xml";

export interface FdqElsewhere {
  /** "Model!B2:B9" for a sheet's rule, "the name Roic" for a defined name. */
  readonly where: string;
  /** What holds the calls and why fdq refresh writes nothing for them. */
  readonly reason: string;
  /** The FDQ functions called ("FDQ.DATAPOINT"), in order of first appearance. */
  readonly functions: readonly string[];
}

/** The FDQ functions a formula calls, in the form FDQ.NAME; none: empty. */
function fdqFunctions(stored: string): string[] {
  const { text, callsFdq } = engineFormula(stored);
  if (!callsFdq) return [];
  return [...new Set([...text.matchAll(/FDQ\.([A-Z]+)\s*\(/g)].map((m) => `FDQ.${m[1] as string}`))];
}

const BLOCK = (element: string): RegExp =>
  new RegExp(`<(?:[\\w.-]+:)?${element}\\b([^>]*)>([\\s\\S]*?)</(?:[\\w.-]+:)?${element}>`, "g");
const FORMULA =
  /<(?:[\w.-]+:)?(?:formula|formula1|formula2|f)\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?(?:formula|formula1|formula2|f)>/g;
const SQREF_ATTRIBUTE = /\bsqref="([^"]*)"/;
const SQREF_ELEMENT = /<(?:[\w.-]+:)?sqref>([\s\S]*?)<\/(?:[\w.-]+:)?sqref>/;

function rulesOf(sheet: string, tail: string, element: string, what: string): FdqElsewhere[] {
  const found: FdqElsewhere[] = [];
  for (const block of tail.matchAll(BLOCK(element))) {
    const [, attributes = "", body = ""] = block;
    const functions = [
      ...new Set([...body.matchAll(FORMULA)].flatMap((f) => fdqFunctions(unescapeXml(f[1] as string)))),
    ];
    if (functions.length === 0) continue;
    const sqref = (SQREF_ATTRIBUTE.exec(attributes)?.[1] ?? SQREF_ELEMENT.exec(body)?.[1] ?? "").trim();
    found.push({
      where: `${sheet}!${sqref.replace(/ /g, ",")}`,
      reason: `${what} calls ${functions.join(", ")}; Excel evaluates it when it shows the sheet and the file stores no value of it, so fdq refresh has nothing to write`,
      functions,
    });
  }
  return found;
}

/** Whether a formula uses the defined name `name` (as a whole name, outside text literals). */
function uses(formula: string, name: string): boolean {
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""');
  const escaped = name.replace(/[.\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.\\\\])${escaped}(?![\\w.(\\\\])`, "i").test(code);
}

export function fdqElsewhere(pkg: WorkbookPackage, model: WorkbookModel): FdqElsewhere[] {
  const found: FdqElsewhere[] = [];
  for (const entry of pkg.sheets) {
    if (entry.part === undefined || !pkg.has(entry.part)) continue;
    const tail = pkg.textFromLast(entry.part, "sheetData>");
    if (!/fdq/i.test(tail)) continue;
    found.push(
      ...rulesOf(entry.name, tail, "conditionalFormatting", "a conditional format's rule"),
      ...rulesOf(entry.name, tail, "dataValidation", "a data validation's limit"),
    );
  }
  const formulas: readonly FormulaCell[] = model.formulas;
  for (const name of model.names) {
    const functions = fdqFunctions(name.text);
    if (functions.length === 0) continue;
    const used =
      formulas.some((f) => uses(f.formula, name.name)) ||
      model.names.some((other) => other !== name && uses(other.text, name.name));
    if (used) continue;
    found.push({
      where: `the name ${name.scope === undefined ? "" : `${name.scope}!`}${name.name}`,
      reason: `calls ${functions.join(", ")} and no formula uses it, so there is no value to refresh`,
      functions,
    });
  }
  return found;
}
