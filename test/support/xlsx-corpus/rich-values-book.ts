// A workbook holding rich values as Excel writes them (MS-XLSX 2.3.4 and 2.6.175 onwards): cells with `vm="N"`
// pointing at the N-th valueMetadata block of xl/metadata.xml, whose XLRICHVALUE future metadata names a record
// of xl/richData/rdrichvalue.xml, shaped by xl/richData/rdrichvaluestructure.xml, with rdRichValueTypes.xml and
// richValueRel.xml beside them. An entity (a card, a linked data type) is cached as `t="e"` #VALUE!, its plain
// fallback; a number carrying its source is cached as its number.
//
// Sheet "Model":
//   A1 "Ticker"   B1 "AAPL"
//   A2 =FDQ.CARD(B1)                                  vm=1: a card (an _entity of FDQ's card fields)
//   A3 =FDQ.DATAPOINT(B1,"metrics/roic","ROIC",2023)  vm=2: a number with its source
//   B3 =A3*100                                        a dependent of the number with its source
//   A4 =FDQ.DATAPOINT(B1,"metrics/roic","ROIC",2022)  a plain FDQ number
//   B4 =A4*100                                        its dependent
//   C1 a linked data type typed as a value (vm=3, no formula)
//   C2 =C1                                            reads it, nothing new flows in
//   C3 =A4+C1                                         reads it and a refreshed cell
import { DECLARATION, zipParts } from "./zip-parts";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";
const RICH = "http://schemas.microsoft.com/office/spreadsheetml/2017/richdata";
const RICH2 = "http://schemas.microsoft.com/office/spreadsheetml/2017/richdata2";

/** The cached values before the refresh, in the synthetic service's range but not its answers. */
export const OLD = { roic2023: 0.11, roic2022: 0.1 } as const;

/** The parts a refresh must keep byte for byte: every rich-value part and the metadata that indexes them. */
export const RICH_PARTS = [
  "xl/metadata.xml",
  "xl/richData/rdrichvalue.xml",
  "xl/richData/rdrichvaluestructure.xml",
  "xl/richData/rdRichValueTypes.xml",
  "xl/richData/richValueRel.xml",
] as const;

export const SHEET_PART = "xl/worksheets/sheet1.xml";

const STRINGS = ["Ticker", "AAPL"];

const SHEET =
  `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:C4"/><sheetData>` +
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="e" vm="3"><v>#VALUE!</v></c></row>' +
  '<row r="2"><c r="A2" t="e" vm="1"><f>_xludf.FDQ.CARD(B1)</f><v>#VALUE!</v></c>' +
  '<c r="C2" t="e" vm="3"><f>C1</f><v>#VALUE!</v></c></row>' +
  `<row r="3"><c r="A3" vm="2"><f>_xludf.FDQ.DATAPOINT(B1,"metrics/roic","ROIC",2023)</f><v>${OLD.roic2023}</v></c>` +
  `<c r="B3"><f>A3*100</f><v>${OLD.roic2023 * 100}</v></c><c r="C3" t="e"><f>A4+C1</f><v>#VALUE!</v></c></row>` +
  `<row r="4"><c r="A4"><f>_xludf.FDQ.DATAPOINT(B1,"metrics/roic","ROIC",2022)</f><v>${OLD.roic2022}</v></c>` +
  `<c r="B4"><f>A4*100</f><v>${OLD.roic2022 * 100}</v></c></row>` +
  "</sheetData></worksheet>";

// One XLRICHVALUE type; value metadata blocks 1..3 (vm is 1-based) point at rich values 0..2.
const METADATA =
  `${DECLARATION}<metadata xmlns="${MAIN}" xmlns:xlrd="${RICH}">` +
  '<metadataTypes count="1"><metadataType name="XLRICHVALUE" minSupportedVersion="120000" copy="1" ' +
  'pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" ' +
  'assign="1" coerce="1"/></metadataTypes>' +
  '<futureMetadata name="XLRICHVALUE" count="3">' +
  [0, 1, 2]
    .map(
      (i) =>
        `<bk><extLst><ext uri="{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}"><xlrd:rvb i="${i}"/></ext></extLst></bk>`,
    )
    .join("") +
  "</futureMetadata>" +
  '<valueMetadata count="3"><bk><rc t="1" v="0"/></bk><bk><rc t="1" v="1"/></bk><bk><rc t="1" v="2"/></bk></valueMetadata>' +
  "</metadata>";

const RICH_VALUES =
  `${DECLARATION}<rvData xmlns="${RICH}" count="3">` +
  // The card: display string, then its fields in the structure's order.
  '<rv s="0"><v>Aplo Synthetic Holdings (AAPL)</v><v>AAPL</v><v>Technology</v><v>1</v><v>Very Attractive</v></rv>' +
  // The number with its source: the number, then its provenance.
  `<rv s="1"><v>${OLD.roic2023}</v><v>AAPL</v><v>metrics/roic</v><v>ROIC</v><v>2023</v><v>FY2023</v></rv>` +
  // A linked data type typed as a value.
  '<rv s="0"><v>Mizu Synthetic Corp (MSFT)</v><v>MSFT</v><v>Technology</v><v>2</v><v>Attractive</v></rv>' +
  "</rvData>";

const STRUCTURES =
  `${DECLARATION}<rvStructures xmlns="${RICH}" count="2">` +
  '<s t="_entity"><k n="_DisplayString" t="s"/><k n="Ticker" t="s"/><k n="Sector" t="s"/>' +
  '<k n="Overall rating" t="s"/><k n="Overall rating (words)" t="s"/></s>' +
  '<s t="_formattednumber"><k n="_Value"/><k n="ticker" t="s"/><k n="dataset" t="s"/><k n="datapoint" t="s"/>' +
  '<k n="period asked" t="s"/><k n="period resolved" t="s"/></s>' +
  "</rvStructures>";

const TYPES =
  `${DECLARATION}<rvTypesInfo xmlns="${RICH2}" ` +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x" ' +
  `xmlns:x="${MAIN}"><global><keyFlags>` +
  '<key name="_Self"><flag name="ExcludeFromFile" value="1"/><flag name="ExcludeFromCalcComparison" value="1"/></key>' +
  '<key name="_DisplayString"><flag name="ExcludeFromCalcComparison" value="1"/></key>' +
  "</keyFlags></global></rvTypesInfo>";

const RELS_OF_RICH_VALUES =
  `${DECLARATION}<richValueRels xmlns="http://schemas.microsoft.com/office/spreadsheetml/2022/richvaluerel" ` +
  `xmlns:r="${REL}"/>`;

/** The workbook, as Excel saves it with an FDQ card, a number with its source and a linked data type. */
export function richValuesBook(): Uint8Array {
  const override = (part: string, type: string): string =>
    `<Override PartName="/${part}" ContentType="${type}"/>`;
  return zipParts({
    "[Content_Types].xml":
      DECLARATION +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      override("xl/workbook.xml", `${SML}.sheet.main+xml`) +
      override(SHEET_PART, `${SML}.worksheet+xml`) +
      override("xl/sharedStrings.xml", `${SML}.sharedStrings+xml`) +
      override("xl/metadata.xml", `${SML}.sheetMetadata+xml`) +
      override("xl/richData/rdrichvalue.xml", "application/vnd.ms-excel.rdrichvalue+xml") +
      override("xl/richData/rdrichvaluestructure.xml", "application/vnd.ms-excel.rdrichvaluestructure+xml") +
      override("xl/richData/rdRichValueTypes.xml", "application/vnd.ms-excel.rdrichvaluetypes+xml") +
      override("xl/richData/richValueRel.xml", "application/vnd.ms-excel.richvaluerel+xml") +
      "</Types>",
    "_rels/.rels":
      `${DECLARATION}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml":
      `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
      '<sheet name="Model" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>',
    "xl/_rels/workbook.xml.rels":
      `${DECLARATION}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
      `<Relationship Id="rId3" Type="${REL}/sheetMetadata" Target="metadata.xml"/>` +
      '<Relationship Id="rId4" Type="http://schemas.microsoft.com/office/2017/06/relationships/rdRichValue" ' +
      'Target="richData/rdrichvalue.xml"/>' +
      '<Relationship Id="rId5" Type="http://schemas.microsoft.com/office/2017/06/relationships/rdRichValueStructure" ' +
      'Target="richData/rdrichvaluestructure.xml"/>' +
      '<Relationship Id="rId6" Type="http://schemas.microsoft.com/office/2017/06/relationships/rdRichValueTypes" ' +
      'Target="richData/rdRichValueTypes.xml"/>' +
      '<Relationship Id="rId7" Type="http://schemas.microsoft.com/office/2022/10/relationships/richValueRel" ' +
      'Target="richData/richValueRel.xml"/>' +
      "</Relationships>",
    "xl/sharedStrings.xml":
      `${DECLARATION}<sst xmlns="${MAIN}" count="${STRINGS.length}" uniqueCount="${STRINGS.length}">` +
      STRINGS.map((t) => `<si><t>${t}</t></si>`).join("") +
      "</sst>",
    [SHEET_PART]: SHEET,
    "xl/metadata.xml": METADATA,
    "xl/richData/rdrichvalue.xml": RICH_VALUES,
    "xl/richData/rdrichvaluestructure.xml": STRUCTURES,
    "xl/richData/rdRichValueTypes.xml": TYPES,
    "xl/richData/richValueRel.xml": RELS_OF_RICH_VALUES,
  });
}
