// The fidelity corpus: one workbook written by hand, part by part, the way analysts' files look when Excel (or
// openpyxl) saved them, holding everything a re-serialising writer loses: a chart and its drawing, notes in plain
// <t> form with their authors, a threaded comment and its person, a table with a calculated column (4 columns),
// defined names (a constant, an expression an FDQ call reads, a sheet-scoped one, a hidden one, a print area),
// an internal hyperlink, a what-if data table, an external link with [1] formulas, x14 sparklines and a
// cross-sheet list validation, the add-in's web extension and task pane, customXml, custom document properties,
// printer settings, named cell styles, shared strings, shared formulas, calcId 191029, two dynamic-array spills
// of FDQ calls (one grows, one shrinks), and FDQ calls as _xludf.FDQ., _xldudf_FDQ_ and in lower case.
// `macros: true` gives the same book as an .xlsm with its vbaProject.bin.
import { DECLARATION, zipParts, type Parts } from "./zip-parts";

/** The cells a refresh may change (values only), by sheet: the FDQ cells, their dependents, the spills. */
export const MAY_CHANGE: Readonly<Record<string, readonly string[]>> = {
  Inputs: ["B3", "B4", ...range("D", "E", 1, 22)],
  Model: ["C2", "C3", "C4", "D2", "D3", "D4", "E2", "E3", "E4", "B8", "B9", "B12", ...range("F", "G", 1, 19)],
};

/** The sheets' parts. */
export const SHEET_PARTS = { Inputs: "xl/worksheets/sheet1.xml", Model: "xl/worksheets/sheet2.xml" } as const;

function range(from: string, to: string, top: number, bottom: number): string[] {
  const out: string[] = [];
  for (let r = top; r <= bottom; r++) {
    for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) out.push(`${String.fromCharCode(c)}${r}`);
  }
  return out;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const SHEET_NS =
  `xmlns="${MAIN}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
  'mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" ' +
  'xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" ' +
  'xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" ' +
  'xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3"';

const STRINGS = [
  "Ticker",
  "AAPL",
  "FirstYear",
  "ROIC",
  "Beats hurdle",
  "Go to model",
  "Rate",
  "Year",
  "Spread",
  "MSFT",
  "NFLX",
  "Local",
  "Total",
  "Data table",
  "stale",
  "below",
  "CAPITAL_INVESTED",
];
const s = (text: string): number => {
  const i = STRINGS.indexOf(text);
  if (i < 0) throw new Error(`no shared string ${text}`);
  return i;
};
const str = (ref: string, text: string, style = ""): string =>
  `<c r="${ref}"${style} t="s"><v>${s(text)}</v></c>`;
const num = (ref: string, n: number): string => `<c r="${ref}"><v>${n}</v></c>`;
const row = (r: number, cells: string): string =>
  `<row r="${r}" spans="1:26" x14ac:dyDescent="0.25">${cells}${num(`H${r}`, r)}</row>`;

function inputsSheet(): string {
  const rows: string[] = [];
  for (let r = 1; r <= 22; r++) {
    let cells = "";
    if (r === 1) cells += str("A1", "Ticker") + str("B1", "AAPL", ' s="1"');
    if (r === 2) cells += str("A2", "FirstYear") + `<c r="B2" s="1"><v>2019</v></c>`;
    if (r === 3) {
      cells +=
        str("A3", "ROIC") +
        '<c r="B3" s="2"><f>FDQ.DATAPOINT(B1,"metrics/roic","ROIC",LastYear)</f><v>0.1</v></c>';
    }
    if (r === 4) cells += str("A4", "Beats hurdle") + '<c r="B4" t="b"><f>B3&gt;Hurdle</f><v>0</v></c>';
    if (r === 5) cells += str("A5", "Go to model", ' s="3"');
    if (r === 6) cells += str("A6", "Rate") + '<c r="B6"><f>HiddenRate*2</f><v>0.1</v></c>';
    // A dynamic array fdq wrote last time over 22 rows: this refresh's answer is shorter, the rest is emptied.
    cells +=
      r === 1
        ? '<c r="D1" cm="1" t="str"><f t="array" ref="D1:E22">FDQ.DATASET("MSFT","roic",2023)</f><v>old</v></c><c r="E1"><v>1</v></c>'
        : `${str(`D${r}`, "stale")}<c r="E${r}" s="2"><v>${r * 1.5}</v></c>`;
    rows.push(row(r, cells));
  }
  return (
    DECLARATION +
    `<worksheet ${SHEET_NS} xr:uid="{00000000-0001-0000-0000-000000000000}">` +
    '<sheetPr codeName="Sheet1"><tabColor rgb="FF00B050"/></sheetPr><dimension ref="A1:Z40"/>' +
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"><selection activeCell="B3" sqref="B3"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="18.7109375" customWidth="1"/></cols>' +
    `<sheetData>${rows.join("")}</sheetData>` +
    '<hyperlinks><hyperlink ref="A5" location="\'Model\'!A1" display="Go to model" xr:uid="{5C1E0E5B-9F0A-4B8E-8B8A-2C4B8D7E1A01}"/></hyperlinks>' +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
    '<pageSetup paperSize="9" orientation="landscape" r:id="rId1"/><legacyDrawing r:id="rId2"/>' +
    "<extLst>" +
    '<ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">' +
    '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">' +
    '<x14:dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1">' +
    "<x14:formula1><xm:f>Model!$A$2:$A$4</xm:f></x14:formula1><xm:sqref>B1</xm:sqref></x14:dataValidation></x14:dataValidations></ext>" +
    '<ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">' +
    '<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">' +
    '<x14:sparklineGroup displayEmptyCellsAs="gap"><x14:colorSeries theme="4"/><x14:colorNegative theme="5"/>' +
    "<x14:sparklines><x14:sparkline><xm:f>Model!C2:C4</xm:f><xm:sqref>I1</xm:sqref></x14:sparkline></x14:sparklines>" +
    "</x14:sparklineGroup></x14:sparklineGroups></ext></extLst></worksheet>"
  );
}

function modelSheet(): string {
  const rows: string[] = [];
  const spread = (r: number, v: number): string =>
    `<c r="D${r}" s="2"><f>PeTbl[[#This Row],[ROIC]]-Hurdle</f><v>${v}</v></c>`;
  for (let r = 1; r <= 20; r++) {
    let cells = "";
    if (r === 1) {
      cells +=
        str("A1", "Ticker") +
        str("B1", "Year") +
        str("C1", "ROIC") +
        str("D1", "Spread") +
        // A dynamic array fdq wrote last time over 3 rows: this refresh's answer is longer.
        '<c r="F1" cm="1" t="str"><f t="array" ref="F1:G3">FDQ.DATASET("AAPL","roic",2023)</f><v>old</v></c><c r="G1"><v>5</v></c>';
    }
    if (r === 2) {
      cells +=
        str("A2", "AAPL") +
        num("B2", 2023) +
        '<c r="C2" s="2"><f>_xludf.FDQ.DATAPOINT(A2,"metrics/roic","ROIC",B2)</f><v>0.2</v></c>' +
        spread(2, 0.12) +
        '<c r="E2"><f t="shared" ref="E2:E4" si="0">C2*100</f><v>20</v></c>' +
        `${str("F2", "stale")}<c r="G2"><v>6</v></c>`;
    }
    if (r === 3) {
      cells +=
        str("A3", "MSFT") +
        num("B3", 2023) +
        '<c r="C3" s="2"><f>_xldudf_FDQ_DATAPOINT(A3,"metrics/roic","ROIC",B3)</f><v>0.3</v></c>' +
        spread(3, 0.22) +
        '<c r="E3"><f t="shared" si="0"/><v>30</v></c>' +
        `${str("F3", "stale")}<c r="G3"><v>7</v></c>`;
    }
    if (r === 4) {
      cells +=
        str("A4", "NFLX") +
        num("B4", 2023) +
        '<c r="C4" s="2"><f>fdq.datapoint(A4,"metrics/roic","ROIC",B4)</f><v>0.4</v></c>' +
        spread(4, 0.32) +
        '<c r="E4"><f t="shared" si="0"/><v>40</v></c>';
    }
    if (r === 6) cells += str("A6", "Local") + '<c r="B6"><f>Local*1</f><v>2023</v></c>';
    if (r === 8) cells += str("A8", "Total") + '<c r="B8" s="2"><f>SUM(C2:C4)</f><v>0.9</v></c>';
    if (r === 9) cells += '<c r="B9" t="str"><f>IF(C2&gt;Hurdle,"above","below")</f><v>below</v></c>';
    if (r === 10) cells += '<c r="B10"><f>[1]Prices!B2*2</f><v>84</v></c>';
    if (r === 12) cells += str("A12", "Data table") + '<c r="B12"><f>C2*B2</f><v>404.6</v></c>';
    if (r === 13)
      cells +=
        num("A13", 2022) +
        '<c r="B13"><f t="dataTable" ref="B13:B14" dt2D="0" dtr="0" r1="B2"/><v>400.4</v></c>';
    if (r === 14) cells += num("A14", 2023) + num("B14", 404.6);
    rows.push(row(r, cells));
  }
  return (
    DECLARATION +
    `<worksheet ${SHEET_NS} xr:uid="{00000000-0001-0000-0100-000000000000}">` +
    '<dimension ref="A1:Z40"/><sheetViews><sheetView workbookViewId="0"/></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/>' +
    `<sheetData>${rows.join("")}</sheetData>` +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
    '<drawing r:id="rId2"/><tableParts count="1"><tablePart r:id="rId1"/></tableParts></worksheet>'
  );
}

const rels = (entries: readonly [string, string, string, string?][]): string =>
  DECLARATION +
  `<Relationships xmlns="${PKG_REL}">` +
  entries
    .map(
      ([id, type, target, mode]) =>
        `<Relationship Id="${id}" Type="${type.startsWith("http") ? type : `${REL}/${type}`}" Target="${target}"${mode ? ` TargetMode="${mode}"` : ""}/>`,
    )
    .join("") +
  "</Relationships>";

function contentTypes(macros: boolean): string {
  const o = (part: string, type: string): string => `<Override PartName="/${part}" ContentType="${type}"/>`;
  const sml = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  return (
    DECLARATION +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.printerSettings"/>' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    o(
      "xl/workbook.xml",
      macros ? "application/vnd.ms-excel.sheet.macroEnabled.main+xml" : `${sml}.sheet.main+xml`,
    ) +
    (macros ? o("xl/vbaProject.bin", "application/vnd.ms-office.vbaProject") : "") +
    o("xl/worksheets/sheet1.xml", `${sml}.worksheet+xml`) +
    o("xl/worksheets/sheet2.xml", `${sml}.worksheet+xml`) +
    o("xl/externalLinks/externalLink1.xml", `${sml}.externalLink+xml`) +
    o("xl/theme/theme1.xml", "application/vnd.openxmlformats-officedocument.theme+xml") +
    o("xl/styles.xml", `${sml}.styles+xml`) +
    o("xl/sharedStrings.xml", `${sml}.sharedStrings+xml`) +
    o("xl/metadata.xml", `${sml}.sheetMetadata+xml`) +
    o("xl/calcChain.xml", `${sml}.calcChain+xml`) +
    o("xl/comments1.xml", `${sml}.comments+xml`) +
    o("xl/threadedComments/threadedComment1.xml", "application/vnd.ms-excel.threadedcomments+xml") +
    o("xl/persons/person.xml", "application/vnd.ms-excel.person+xml") +
    o("xl/tables/table1.xml", `${sml}.table+xml`) +
    o("xl/drawings/drawing1.xml", "application/vnd.openxmlformats-officedocument.drawing+xml") +
    o("xl/charts/chart1.xml", "application/vnd.openxmlformats-officedocument.drawingml.chart+xml") +
    o("xl/webextensions/taskpanes.xml", "application/vnd.ms-office.webextensiontaskpanes+xml") +
    o("xl/webextensions/webextension1.xml", "application/vnd.ms-office.webextension+xml") +
    o("customXml/itemProps1.xml", "application/vnd.openxmlformats-officedocument.customXmlProperties+xml") +
    o("docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml") +
    o("docProps/app.xml", "application/vnd.openxmlformats-officedocument.extended-properties+xml") +
    o("docProps/custom.xml", "application/vnd.openxmlformats-officedocument.custom-properties+xml") +
    "</Types>"
  );
}

function workbookXml(): string {
  return (
    DECLARATION +
    `<workbook xmlns="${MAIN}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr6="http://schemas.microsoft.com/office/spreadsheetml/2016/revision6" xmlns:xr10="http://schemas.microsoft.com/office/spreadsheetml/2016/revision10" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2">` +
    '<fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="28429"/>' +
    '<workbookPr codeName="ThisWorkbook" defaultThemeVersion="202300"/>' +
    '<bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15720" activeTab="0" xr2:uid="{00000000-000D-0000-FFFF-FFFF00000000}"/></bookViews>' +
    '<sheets><sheet name="Inputs" sheetId="1" r:id="rId1"/><sheet name="Model" sheetId="2" r:id="rId2"/></sheets>' +
    '<externalReferences><externalReference r:id="rId3"/></externalReferences>' +
    "<definedNames>" +
    '<definedName name="_xlnm.Print_Area" localSheetId="0">Inputs!$A$1:$H$22</definedName>' +
    '<definedName name="HiddenRate" hidden="1">0.05</definedName>' +
    '<definedName name="Hurdle">0.08</definedName>' +
    '<definedName name="LastYear">Inputs!$B$2+4</definedName>' +
    '<definedName name="Local" localSheetId="1">Model!$B$2</definedName>' +
    "</definedNames>" +
    '<calcPr calcId="191029" iterateCount="50"/>' +
    '<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst>' +
    "</workbook>"
  );
}

const CALC_CHAIN =
  DECLARATION +
  `<calcChain xmlns="${MAIN}"><c r="B3" i="1" l="1"/><c r="B4"/><c r="B6"/><c r="D1"/><c r="C2" i="2" l="1"/><c r="C3"/><c r="C4"/><c r="D2"/><c r="D3"/><c r="D4"/><c r="E2"/><c r="E3"/><c r="E4"/><c r="F1"/><c r="B6"/><c r="B8"/><c r="B9"/><c r="B10"/><c r="B12"/><c r="B13"/></calcChain>`;

const STYLES =
  DECLARATION +
  `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0%"/></numFmts>` +
  '<fonts count="2"><font><sz val="11"/><name val="Aptos Narrow"/><family val="2"/></font><font><u/><sz val="11"/><color theme="10"/><name val="Aptos Narrow"/></font></fonts>' +
  '<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill><fill><patternFill patternType="solid"><fgColor rgb="FFFFFFCC"/></patternFill></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/><xf numFmtId="0" fontId="0" fillId="2" borderId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="1" applyFill="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="2"/></cellXfs>' +
  '<cellStyles count="3"><cellStyle name="Hyperlink" xfId="2" builtinId="8"/><cellStyle name="Normal" xfId="0" builtinId="0"/><cellStyle name="Analyst Input" xfId="1"/></cellStyles>' +
  '<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/></styleSheet>';

const SHARED_STRINGS =
  DECLARATION +
  `<sst xmlns="${MAIN}" count="${STRINGS.length + 40}" uniqueCount="${STRINGS.length}">` +
  STRINGS.map((t) => `<si><t>${t}</t></si>`).join("") +
  "</sst>";

const METADATA =
  DECLARATION +
  `<metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';

const COMMENTS =
  DECLARATION +
  `<comments xmlns="${MAIN}"><authors><author>Ana Analyst</author><author>tc={6A0F7B3E-2C1D-4E5F-8A9B-0C1D2E3F4A5B}</author></authors><commentList>` +
  '<comment ref="A1" authorId="0"><text><t>Ticker as the service knows it (plain note text, as openpyxl writes it)</t></text></comment>' +
  '<comment ref="B1" authorId="1"><text><t>[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any edits to it will get removed if the file is opened in a newer version of Excel.\nComment:\n    Switch to MSFT next quarter?</t></text></comment>' +
  "</commentList></comments>";

const VML =
  '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">' +
  '<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout>' +
  '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>' +
  '<v:shape id="_x0000_s1025" type="#_x0000_t202" style="position:absolute;margin-left:107pt;margin-top:1pt;width:108pt;height:59pt;z-index:1;visibility:hidden" fillcolor="infoBackground [80]"><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>1, 15, 0, 2, 3, 15, 4, 16</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>0</x:Row><x:Column>0</x:Column></x:ClientData></v:shape>' +
  '<v:shape id="_x0000_s1026" type="#_x0000_t202" style="position:absolute;margin-left:207pt;margin-top:1pt;width:108pt;height:59pt;z-index:2;visibility:hidden" fillcolor="infoBackground [80]"><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>2, 15, 0, 2, 4, 15, 4, 16</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>0</x:Row><x:Column>1</x:Column></x:ClientData></v:shape></xml>';

const THREADED =
  DECLARATION +
  '<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<threadedComment ref="B1" dT="2026-01-05T08:58:12.31" personId="{8E0C0E1A-6B8B-4C3D-9F5A-1A2B3C4D5E6F}" id="{6A0F7B3E-2C1D-4E5F-8A9B-0C1D2E3F4A5B}"><text>Switch to MSFT next quarter?</text></threadedComment></ThreadedComments>';

const PERSONS =
  DECLARATION +
  '<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<person displayName="Ana Analyst" id="{8E0C0E1A-6B8B-4C3D-9F5A-1A2B3C4D5E6F}" userId="ana@example.com" providerId="AD"/></personList>';

const TABLE =
  DECLARATION +
  `<table xmlns="${MAIN}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="xr xr3" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3" id="1" xr:uid="{3A4B5C6D-0000-4000-8000-000000000001}" name="PeTbl" displayName="PeTbl" ref="A1:D4" totalsRowShown="0">` +
  '<autoFilter ref="A1:D4" xr:uid="{3A4B5C6D-0000-4000-8000-000000000002}"/><tableColumns count="4">' +
  '<tableColumn id="1" xr3:uid="{3A4B5C6D-0000-4000-8000-000000000011}" name="Ticker"/>' +
  '<tableColumn id="2" xr3:uid="{3A4B5C6D-0000-4000-8000-000000000012}" name="Year"/>' +
  '<tableColumn id="3" xr3:uid="{3A4B5C6D-0000-4000-8000-000000000013}" name="ROIC" dataDxfId="1"/>' +
  '<tableColumn id="4" xr3:uid="{3A4B5C6D-0000-4000-8000-000000000014}" name="Spread"><calculatedColumnFormula>PeTbl[[#This Row],[ROIC]]-Hurdle</calculatedColumnFormula></tableColumn>' +
  '</tableColumns><tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>';

const DRAWING =
  DECLARATION +
  '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
  '<xdr:twoCellAnchor editAs="oneCell"><xdr:from><xdr:col>9</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>16</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>16</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>' +
  '<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="ROIC chart"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>' +
  '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>';

const CHART =
  DECLARATION +
  '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:roundedCorners val="0"/>' +
  '<c:chart><c:autoTitleDeleted val="0"/><c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>' +
  '<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Model!$C$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>ROIC</c:v></c:pt></c:strCache></c:strRef></c:tx>' +
  '<c:cat><c:strRef><c:f>Model!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/><c:pt idx="0"><c:v>AAPL</c:v></c:pt><c:pt idx="1"><c:v>MSFT</c:v></c:pt><c:pt idx="2"><c:v>NFLX</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
  '<c:val><c:numRef><c:f>Model!$C$2:$C$4</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/><c:pt idx="0"><c:v>0.2</c:v></c:pt><c:pt idx="1"><c:v>0.3</c:v></c:pt><c:pt idx="2"><c:v>0.4</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>' +
  '<c:gapWidth val="219"/><c:axId val="1"/><c:axId val="2"/></c:barChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx>' +
  '<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>';

const EXTERNAL_LINK =
  DECLARATION +
  `<externalLink xmlns="${MAIN}" xmlns:r="${REL}"><externalBook r:id="rId1"><sheetNames><sheetName val="Prices"/></sheetNames>` +
  '<sheetDataSet><sheetData sheetId="0"><row r="2"><cell r="B2"><v>42</v></cell></row></sheetData></sheetDataSet></externalBook></externalLink>';

const WEB_EXTENSION =
  DECLARATION +
  '<we:webextension xmlns:we="http://schemas.microsoft.com/office/webextensions/webextension/2010/11" id="{52811C31-4593-43B8-A697-EB873422D156}">' +
  '<we:reference id="wa200000000" version="1.0.0.0" store="en-US" storeType="OMEX"/><we:alternateReferences/>' +
  '<we:properties><we:property name="Office.AutoShowTaskpaneWithDocument" value="true"/><we:property name="fdq.binding" value="&quot;Model!C2:C4&quot;"/></we:properties>' +
  '<we:bindings><we:binding id="fdqCells" type="matrix" appref="{A1B2C3D4-0000-4000-8000-00000000FDQ1}"/></we:bindings><we:snapshot/></we:webextension>';

const TASKPANES =
  DECLARATION +
  '<wetp:taskpanes xmlns:wetp="http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11">' +
  '<wetp:taskpane dockstate="right" visibility="1" width="350" row="4"><wetp:webextensionref xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>';

const CUSTOM_XML =
  DECLARATION +
  '<labelList xmlns="http://schemas.microsoft.com/office/2020/mipLabelMetadata"><label id="{f42aa342-8706-4288-bd11-ebb85995028c}" enabled="1" method="Standard" siteId="{72f988bf-86f1-41af-91ab-2d7cd011db47}" removed="0"/></labelList>';

const CUSTOM_XML_PROPS =
  DECLARATION +
  '<ds:datastoreItem ds:itemID="{1D2C3B4A-0000-4000-8000-0000000000A1}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs><ds:schemaRef ds:uri="http://schemas.microsoft.com/office/2020/mipLabelMetadata"/></ds:schemaRefs></ds:datastoreItem>';

const CORE =
  DECLARATION +
  '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
  '<dc:creator>Ana Analyst</dc:creator><cp:lastModifiedBy>Ana Analyst</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">2026-01-02T09:00:00Z</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">2026-01-05T08:59:00Z</dcterms:modified></cp:coreProperties>';

const APP =
  DECLARATION +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop><Company>Example Capital</Company><AppVersion>16.0300</AppVersion></Properties>';

const CUSTOM_PROPS =
  DECLARATION +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
  '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="MSIP_Label_f42aa342_Enabled"><vt:lpwstr>true</vt:lpwstr></property>' +
  '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="Coverage team"><vt:lpwstr>Tech</vt:lpwstr></property></Properties>';

const THEME =
  DECLARATION +
  '<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements><a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="0E2841"/></a:dk2><a:lt2><a:srgbClr val="E8E8E8"/></a:lt2><a:accent1><a:srgbClr val="156082"/></a:accent1><a:accent2><a:srgbClr val="E97132"/></a:accent2><a:accent3><a:srgbClr val="196B24"/></a:accent3><a:accent4><a:srgbClr val="0F9ED5"/></a:accent4><a:accent5><a:srgbClr val="A02B93"/></a:accent5><a:accent6><a:srgbClr val="4EA72E"/></a:accent6><a:hlink><a:srgbClr val="467886"/></a:hlink><a:folHlink><a:srgbClr val="96607D"/></a:folHlink></a:clrScheme><a:fontScheme name="Office"><a:majorFont><a:latin typeface="Aptos Display"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Aptos Narrow"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Office"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst><a:lnStyleLst><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>';

/** Bytes standing for a binary part (printer settings, the VBA project): what matters is that they survive. */
function binary(seed: number, length: number, head: readonly number[] = []): Uint8Array {
  const out = new Uint8Array(length);
  out.set(head);
  let x = seed;
  for (let i = head.length; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

export function fidelityParts(options: { macros?: boolean } = {}): Parts {
  const macros = options.macros === true;
  const wb = "http://schemas.microsoft.com/office";
  const parts: Parts = {
    "[Content_Types].xml": contentTypes(macros),
    "_rels/.rels": rels([
      ["rId3", "extended-properties", "docProps/app.xml"],
      [
        "rId2",
        `http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties`,
        "docProps/core.xml",
      ],
      ["rId1", "officeDocument", "xl/workbook.xml"],
      ["rId4", "custom-properties", "docProps/custom.xml"],
      ["rId5", `${wb}/2011/relationships/webextensiontaskpanes`, "xl/webextensions/taskpanes.xml"],
    ]),
    "xl/workbook.xml": workbookXml(),
    "xl/_rels/workbook.xml.rels": rels([
      ["rId8", "customXml", "../customXml/item1.xml"],
      ["rId3", "externalLink", "externalLinks/externalLink1.xml"],
      ["rId7", "calcChain", "calcChain.xml"],
      ["rId2", "worksheet", "worksheets/sheet2.xml"],
      ["rId1", "worksheet", "worksheets/sheet1.xml"],
      ["rId6", "sheetMetadata", "metadata.xml"],
      ["rId5", "sharedStrings", "sharedStrings.xml"],
      ["rId4", "styles", "styles.xml"],
      ["rId9", "theme", "theme/theme1.xml"],
      ["rId10", `${wb}/2017/10/relationships/person`, "persons/person.xml"],
      ...(macros
        ? [["rId11", `${wb}/2006/relationships/vbaProject`, "vbaProject.bin"] as [string, string, string]]
        : []),
    ]),
    "xl/worksheets/sheet1.xml": inputsSheet(),
    "xl/worksheets/sheet2.xml": modelSheet(),
    "xl/worksheets/_rels/sheet1.xml.rels": rels([
      ["rId1", "printerSettings", "../printerSettings/printerSettings1.bin"],
      ["rId2", "vmlDrawing", "../drawings/vmlDrawing1.vml"],
      ["rId3", "comments", "../comments1.xml"],
      ["rId4", `${wb}/2017/10/relationships/threadedComment`, "../threadedComments/threadedComment1.xml"],
    ]),
    "xl/worksheets/_rels/sheet2.xml.rels": rels([
      ["rId1", "table", "../tables/table1.xml"],
      ["rId2", "drawing", "../drawings/drawing1.xml"],
    ]),
    "xl/theme/theme1.xml": THEME,
    "xl/styles.xml": STYLES,
    "xl/sharedStrings.xml": SHARED_STRINGS,
    "xl/metadata.xml": METADATA,
    "xl/calcChain.xml": CALC_CHAIN,
    "xl/comments1.xml": COMMENTS,
    "xl/drawings/vmlDrawing1.vml": VML,
    "xl/threadedComments/threadedComment1.xml": THREADED,
    "xl/persons/person.xml": PERSONS,
    "xl/tables/table1.xml": TABLE,
    "xl/drawings/drawing1.xml": DRAWING,
    "xl/drawings/_rels/drawing1.xml.rels": rels([["rId1", "chart", "../charts/chart1.xml"]]),
    "xl/charts/chart1.xml": CHART,
    "xl/externalLinks/externalLink1.xml": EXTERNAL_LINK,
    "xl/externalLinks/_rels/externalLink1.xml.rels": rels([
      ["rId1", "externalLinkPath", "Prices.xlsx", "External"],
    ]),
    "xl/printerSettings/printerSettings1.bin": binary(7, 1200),
    "xl/webextensions/taskpanes.xml": TASKPANES,
    "xl/webextensions/_rels/taskpanes.xml.rels": rels([
      ["rId1", `${wb}/2011/relationships/webextension`, "webextension1.xml"],
    ]),
    "xl/webextensions/webextension1.xml": WEB_EXTENSION,
    "customXml/item1.xml": CUSTOM_XML,
    "customXml/itemProps1.xml": CUSTOM_XML_PROPS,
    "customXml/_rels/item1.xml.rels": rels([["rId1", "customXmlProps", "itemProps1.xml"]]),
    "docProps/core.xml": CORE,
    "docProps/app.xml": APP,
    "docProps/custom.xml": CUSTOM_PROPS,
  };
  if (macros) parts["xl/vbaProject.bin"] = binary(11, 9000, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  return parts;
}

/** The corpus workbook's bytes (.xlsx, or .xlsm with `macros`). */
export const fidelityBook = (options: { macros?: boolean } = {}): Uint8Array =>
  zipParts(fidelityParts(options));
