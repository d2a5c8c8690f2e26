// Freezing takes the frozen cells out of Excel's calculation chain, handing an entry's sheet and level marks to
// the next entry; a chain left empty goes with its relationship and content type.
import { unzipSync } from "fflate";
import { freezePackage } from "../../../src/workbook/freeze/freeze";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { fidelityParts } from "../../support/xlsx-corpus/fidelity-book";
import { DECLARATION, zipParts } from "../../support/xlsx-corpus/zip-parts";

const text = (b: Uint8Array | undefined): string => new TextDecoder().decode(b);
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

function frozen(chain: string, sheet?: string): Record<string, Uint8Array> {
  const pkg = openPackage(
    zipParts({
      ...fidelityParts(),
      "xl/calcChain.xml": DECLARATION + `<calcChain xmlns="${MAIN}">${chain}</calcChain>`,
    }),
  );
  return unzipSync(freezePackage(pkg, readWorkbook(pkg).model, { sheet, now: new Date() }).editor.write());
}

describe("the calculation chain of a frozen workbook", () => {
  it("hands a dropped entry's sheet and new-level marks to the entry after it", () => {
    const out = frozen('<c r="B3" i="1" l="1"/><c r="B4"/><c r="C2" i="2" l="1"/><c r="C3"/><c r="D2"/>');
    expect(text(out["xl/calcChain.xml"])).toBe(
      DECLARATION + `<calcChain xmlns="${MAIN}"><c r="B4" i="1" l="1"/><c r="D2" i="2" l="1"/></calcChain>`,
    );
  });

  it("keeps the entries of another sheet's cells with the same address", () => {
    const out = frozen('<c r="C2" i="1"/><c r="B3"/><c r="C2" i="2"/><c r="B6" i="1"/>', "Model");
    expect(text(out["xl/calcChain.xml"])).toBe(
      DECLARATION + `<calcChain xmlns="${MAIN}"><c r="C2" i="1"/><c r="B3"/><c r="B6" i="1"/></calcChain>`,
    );
  });

  it("removes a chain left empty, its relationship and its content type", () => {
    const out = frozen('<c r="B3" i="1"/><c r="C2" i="2"/>');
    expect(out["xl/calcChain.xml"]).toBeUndefined();
    expect(text(out["xl/_rels/workbook.xml.rels"])).not.toContain("calcChain");
    expect(text(out["[Content_Types].xml"])).not.toContain("calcChain");
  });
});
