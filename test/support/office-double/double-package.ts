// The Office double's document file as a real .xlsx package: the double's getFileAsync asks the page's
// window.__officeDoubleXlsx (exposed from Node by a test: exposeDoublePackage) for the package of its grid as it
// is now, and slices these bytes as Office slices the file. Built with the corpus's TestBook (hand-written
// SpreadsheetML, zipped with fflate): each cell's formula in the form Excel saves a custom function
// (_xldudf_FDQ_DATAPOINT) and the value the grid shows as its cached value, so a copy built from the file holds
// exactly what the grid showed. The double's custom XML parts are not in it (the share copy does not read them).
import type { Page } from "playwright-core";
import { TestBook, type CellValue, type Constant } from "../xlsx-corpus/test-book";

/** What the double hands over: its packageOf() (office-double.js). */
export interface DoubleContents {
  readonly sheets: readonly string[];
  readonly cells: Readonly<Record<string, { formula: string; value: unknown }>>;
}

const ERROR = /^#(N\/A|VALUE!|NAME\?|NUM!|REF!|DIV\/0!|NULL!|SPILL!|CALC!|BUSY!|CONNECT!)$/;

function constantOf(value: unknown): Constant | undefined {
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value !== "string" || value === "") return undefined;
  return ERROR.test(value) ? { error: value } : value;
}

/** "'My sheet'!A1" -> ["My sheet", "A1"]. */
function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf("!");
  const sheet = address.slice(0, at);
  const unquoted = /^'.*'$/.test(sheet) ? sheet.slice(1, -1).replace(/''/g, "'") : sheet;
  return [unquoted, address.slice(at + 1)];
}

/** The .xlsx package of the double's grid. */
export function doublePackage(contents: DoubleContents): Uint8Array {
  const book = new TestBook();
  const sheets = new Map(contents.sheets.map((name) => [name, book.addWorksheet(name)]));
  for (const [address, { formula, value }] of Object.entries(contents.cells)) {
    const [sheet, cell] = splitAddress(address);
    const result = constantOf(value);
    let written: CellValue;
    if (formula.startsWith("=")) {
      const saved = formula.slice(1).replace(/\bFDQ\.([A-Za-z]+)\(/g, "_xldudf_FDQ_$1(");
      written = result === undefined ? { formula: saved } : { formula: saved, result };
    } else written = result ?? null;
    const target = sheets.get(sheet);
    if (target) target.getCell(cell).value = written;
  }
  return book.bytes();
}

/** Gives the page's Office double a real document file (base64 across the page's boundary). */
export async function exposeDoublePackage(page: Page): Promise<void> {
  await page.exposeFunction("__officeDoubleXlsx", (contents: DoubleContents) =>
    Buffer.from(doublePackage(contents)).toString("base64"),
  );
}
