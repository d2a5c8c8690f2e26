// A part's text from a marker on (src/workbook/xlsx/package.ts `textFromLast`): what `fdq refresh` reads of a
// worksheet after its cells (conditional formats, data validations) without decoding the cells' text.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { openPackage, PackageError, type WorkbookPackage } from "../../../src/workbook/xlsx/package";
import { TestBook } from "../../support/xlsx-corpus/test-book";

const SHEET = "xl/worksheets/sheet1.xml";

/** A one-sheet book whose worksheet part is `edit` of the one TestBook writes. */
function bookWith(edit: (xml: string) => Uint8Array): WorkbookPackage {
  const b = new TestBook();
  b.addWorksheet("Data").getCell("A1").value = "Zürich";
  const parts = unzipSync(b.bytes());
  parts[SHEET] = new Uint8Array(edit(strFromU8(parts[SHEET] as Uint8Array)));
  return openPackage(zipSync(parts));
}

describe("WorkbookPackage.textFromLast", () => {
  it("gives the text from the last occurrence of the marker on, characters of any width before and after", () => {
    const pkg = bookWith((xml) =>
      strToU8(
        xml.replace(
          "</sheetData>",
          '</sheetData><conditionalFormatting sqref="A1">€ ü</conditionalFormatting>',
        ),
      ),
    );
    const tail = pkg.textFromLast(SHEET, "sheetData>");
    expect(tail.startsWith('sheetData><conditionalFormatting sqref="A1">€ ü</conditionalFormatting>')).toBe(
      true,
    );
    expect(pkg.text(SHEET).endsWith(tail)).toBe(true);
  });

  it("gives the whole text when the marker is absent", () => {
    const pkg = bookWith((xml) => strToU8(xml));
    expect(pkg.textFromLast(SHEET, "<extLst>")).toBe(pkg.text(SHEET));
  });

  it("refuses a tail that is not UTF-8 text as a damaged part", () => {
    const pkg = bookWith((xml) => {
      const at = xml.lastIndexOf("</worksheet>");
      const head = strToU8(xml.slice(0, at));
      return new Uint8Array([...head, 0xff, ...strToU8(xml.slice(at))]);
    });
    expect(() => pkg.textFromLast(SHEET, "sheetData>")).toThrow(
      new PackageError(`it is damaged: its part ${SHEET} is not UTF-8 text`),
    );
  });
});
