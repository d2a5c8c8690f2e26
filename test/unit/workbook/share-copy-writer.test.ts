// The package step of Share as values (pane and `fdq freeze --share`): the cells asked for become values, the
// sources sheet is added with every list of parts updated, and every other part is kept.
import { unzipSync } from "fflate";
import { sourcesRows } from "../../../src/workbook/share/fdq-sources";
import { parseFrozenParts } from "../../../src/workbook/freeze/frozen-formulas";
import { writeShareCopy } from "../../../src/workbook/share/share-copy-writer";
import { fidelityParts } from "../../support/xlsx-corpus/fidelity-book";
import { DECLARATION, zipParts } from "../../support/xlsx-corpus/zip-parts";

const text = (b: Uint8Array | undefined): string => new TextDecoder().decode(b);

const APP_WITH_TITLES =
  DECLARATION +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
  '<Application>Microsoft Excel</Application><HeadingPairs><vt:vector size="4" baseType="variant">' +
  "<vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>2</vt:i4></vt:variant>" +
  "<vt:variant><vt:lpstr>Named Ranges</vt:lpstr></vt:variant><vt:variant><vt:i4>1</vt:i4></vt:variant>" +
  '</vt:vector></HeadingPairs><TitlesOfParts><vt:vector size="3" baseType="lpstr">' +
  "<vt:lpstr>Inputs</vt:lpstr><vt:lpstr>Model</vt:lpstr><vt:lpstr>Inputs!Print_Area</vt:lpstr>" +
  "</vt:vector></TitlesOfParts></Properties>";

const cells = [
  { sheet: "Model", cell: "C2", formula: '=_xludf.FDQ.DATAPOINT(A2,"metrics/roic","ROIC",B2)', value: 0.2 },
  { sheet: "Model", cell: "C3", formula: '=_xldudf_FDQ_DATAPOINT(A3,"metrics/roic","ROIC",B3)', value: 0.3 },
];

describe("writeShareCopy", () => {
  const input = zipParts({ ...fidelityParts(), "docProps/app.xml": APP_WITH_TITLES });
  const out = unzipSync(
    writeShareCopy(
      { bytes: input, cells, sourcesSheet: { name: "FDQ sources", rows: sourcesRows(cells) } },
      new Date("2026-01-05T09:00:00Z"),
    ),
  );

  it("freezes the cells asked for and no other", () => {
    const model = text(out["xl/worksheets/sheet2.xml"]);
    expect(model).toContain('<c r="C2" s="2"><v>0.2</v></c>');
    expect(model).toContain('<c r="C3" s="2"><v>0.3</v></c>');
    expect(model).toContain(
      '<c r="C4" s="2"><f>fdq.datapoint(A4,"metrics/roic","ROIC",B4)</f><v>0.4</v></c>',
    );
    const item = Object.keys(out).find(
      (k) => /^customXml\/item\d+\.xml$/.test(k) && text(out[k]).includes("frozenFormulas"),
    );
    expect(parseFrozenParts([text(out[item as string])]).map((c) => c.cell)).toEqual(["C2", "C3"]);
  });

  it("adds the sheet's title after the worksheets' titles in docProps/app.xml and counts it", () => {
    const app = text(out["docProps/app.xml"]);
    expect(app).toContain("<vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>3</vt:i4>");
    expect(app).toContain(
      '<vt:vector size="4" baseType="lpstr"><vt:lpstr>Inputs</vt:lpstr><vt:lpstr>Model</vt:lpstr><vt:lpstr>FDQ sources</vt:lpstr><vt:lpstr>Inputs!Print_Area</vt:lpstr></vt:vector>',
    );
  });

  it("writes the rows as constants: a formula's text is text, never a formula", () => {
    const sheet = text(out["xl/worksheets/sheet3.xml"]);
    expect(sheet).not.toContain("<f>");
    expect(sheet).toContain(
      '<c r="C3" t="inlineStr"><is><t>=_xldudf_FDQ_DATAPOINT(A3,"metrics/roic","ROIC",B3)</t></is></c><c r="D3"><v>0.3</v></c>',
    );
  });

  it("names the sheet FDQ sources (2) when the workbook has one already", () => {
    const parts = fidelityParts();
    const workbook = String(parts["xl/workbook.xml"]).replace(
      '<sheet name="Model"',
      '<sheet name="fdq Sources"',
    );
    const again = unzipSync(
      writeShareCopy({
        bytes: zipParts({ ...parts, "xl/workbook.xml": workbook }),
        cells: [],
        sourcesSheet: { name: "FDQ sources", rows: sourcesRows([]) },
      }),
    );
    expect(text(again["xl/workbook.xml"])).toContain('<sheet name="FDQ sources (2)" sheetId="3"');
  });
});
