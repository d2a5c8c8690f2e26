// fdq retrofit --apply and fdq thaw's restore of the constants it replaced (src/workbook/retrofit/apply.ts), on a
// small package: the formula cells written, the constants kept, and every part given back.
import { unzipSync } from "fflate";
import { CatalogSearchIndex } from "../../../../src/catalog/search";
import { applyRetrofit, restoreConstants } from "../../../../src/workbook/retrofit/apply";
import { readKept } from "../../../../src/workbook/retrofit/kept-constants";
import { planRetrofit, runRetrofit } from "../../../../src/workbook/retrofit/retrofit";
import { gridSheets } from "../../../../src/workbook/retrofit/xlsx-grid";
import { openPackage } from "../../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../../src/workbook/xlsx/read-model";
import { PackageEditor } from "../../../../src/workbook/xlsx/structure";
import { smallBook } from "../../../support/small-book";

const BOOK = smallBook({
  AAPL: {
    B1: "FY2022",
    C1: "FY2023",
    A2: "Revenue",
    B2: 22_804.2,
    C2: 25_239.5,
    A3: "Headcount",
    B3: 154,
    C3: 161,
  },
});
const REVENUE: Record<number, number> = { 2022: 22_804_249_668.46, 2023: 25_239_479_689.09 };

async function applied(): Promise<Uint8Array> {
  const pkg = openPackage(BOOK);
  const plan = planRetrofit(gridSheets(pkg, readWorkbook(pkg).model), {
    index: CatalogSearchIndex.fromCatalog(),
  });
  const rows = await runRetrofit(plan, {
    price: (calls) => Promise.resolve({ units: calls.length, shared: [] }),
    fetch: (calls) =>
      Promise.resolve(
        calls.map((c) => (c.args[2] === "REVENUE" ? (REVENUE[Number(c.args[3])] ?? null) : null)),
      ),
  });
  return applyRetrofit(pkg, rows).editor.write();
}

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);
const sheetOf = (book: Uint8Array): string => text(unzipSync(book)["xl/worksheets/sheet1.xml"]);

describe("retrofit --apply and its restore", () => {
  it("writes each linked constant as its FDQ formula with the value the formula gives, the others untouched", async () => {
    const xml = sheetOf(await applied());
    expect(xml).toContain(
      '<c r="B2"><f>_xldudf_FDQ_DATAPOINT("AAPL","screens/traditional","REVENUE",2022)/1000000</f>' +
        `<v>${22_804_249_668.46 / 1_000_000}</v></c>`,
    );
    expect(xml).toContain('<c r="B3"><v>154</v></c>');
  });

  it("keeps each replaced cell as the file stored it", async () => {
    const kept = readKept(new PackageEditor(openPackage(await applied())));
    expect(kept.map((k) => [k.sheet, k.cell, k.original])).toEqual([
      ["AAPL", "B2", '<c r="B2"><v>22804.2</v></c>'],
      ["AAPL", "C2", '<c r="C2"><v>25239.5</v></c>'],
    ]);
  });

  it("gives back every part as it was", async () => {
    const editor = new PackageEditor(openPackage(await applied()));
    const outcome = restoreConstants(editor);
    expect(outcome.skipped).toEqual([]);
    expect(outcome.restored.map((k) => k.cell)).toEqual(["B2", "C2"]);
    const before = unzipSync(BOOK);
    const after = unzipSync(editor.write());
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const part of Object.keys(before))
      expect([part, text(after[part])]).toEqual([part, text(before[part])]);
  });

  it("restores a cell whose formula a refresh gave a new value, and leaves a cell changed since", async () => {
    const pkg = openPackage(await applied());
    const editor = new PackageEditor(pkg);
    const part = "xl/worksheets/sheet1.xml";
    editor.setText(
      part,
      editor
        .text(part)
        .replace(`<v>${22_804_249_668.46 / 1_000_000}</v>`, "<v>22810</v>")
        .replace(/<c r="C2"><f>[^<]*<\/f><v>[^<]*<\/v><\/c>/, '<c r="C2"><v>1</v></c>'),
    );
    expect(editor.text(part)).toContain("/1000000</f><v>22810</v></c>");
    expect(editor.text(part)).toContain('<c r="C2"><v>1</v></c>');
    const outcome = restoreConstants(editor);
    expect(outcome.restored.map((k) => k.cell)).toEqual(["B2"]);
    expect(outcome.skipped).toEqual([
      "AAPL!C2: changed since fdq retrofit (it no longer holds the FDQ formula retrofit wrote); left as it is",
    ]);
    expect(editor.text(part)).toContain('<c r="B2"><v>22804.2</v></c>');
    expect(readKept(editor).map((k) => k.cell)).toEqual(["C2"]);
  });
});
