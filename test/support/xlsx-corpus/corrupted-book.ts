// A workbook written by hand, part by part, as Excel saves one whose FDQ formulas it no longer recognises
// (office-js#2051, #2568, #6395): a shared formula behind an add-in's external-workbook prefix ([N]!, its
// followers carrying no text), an array formula, _xludf.FDQ., lower case, a quoted add-in path prefix inside
// IFERROR (its quotes written as &quot;), an unquoted one, a defined name, beside recognised FDQ calls, a
// formula reading another workbook and a dependent. The add-in's link (BloombergUI.xla, listing the function
// names Excel took for its own) and a real external workbook's link (Prices.xlsx) come in the order given.
import { DECLARATION, zipParts, type Parts } from "./zip-parts";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";

export type LinkKind = "bloomberg" | "prices";

export const BLOOMBERG_PATH = "C:\\Users\\ana\\AppData\\Roaming\\Bloomberg\\BloombergUI.xla";

export interface CorruptedBookOptions {
  /** The external links in workbook.xml's order (default: Prices, then the add-in). */
  readonly links?: readonly LinkKind[];
}

/** The repaired cells the book holds (sheet Model), each formula before and after, as `fdq repair` lists them. */
export function corruptedCells(
  options: CorruptedBookOptions = {},
): { cell: string; before: string; after: string }[] {
  const b = `[${indexOf("bloomberg", options)}]!`;
  const roic = (ticker: string, year: number): string => `(${ticker},"metrics/roic","ROIC",${year})`;
  const b2 = (row: number) => ({
    cell: `B${row}`,
    before: `=${b}_xldudf_FDQ_DATAPOINT${roic(`$A${row}`, 2023)}`,
    after: `=_xldudf_FDQ_DATAPOINT${roic(`$A${row}`, 2023)}`,
  });
  // In the sheet's order; B3 and B4 are the shared formula's followers, each at its own row.
  return [
    {
      cell: "D1",
      before: `=${b}_xldudf_FDQ_DATASET("AAPL","roic",2023)`,
      after: '=_xldudf_FDQ_DATASET("AAPL","roic",2023)',
    },
    b2(2),
    { cell: "C2", before: '=_xludf.FDQ.RATING($A2,"overall")', after: '=_xldudf_FDQ_RATING($A2,"overall")' },
    b2(3),
    { cell: "C3", before: '=fdq.security($A3,"name")', after: '=_xldudf_FDQ_SECURITY($A3,"name")' },
    b2(4),
    {
      cell: "C4",
      before: `=IFERROR('${BLOOMBERG_PATH}'!_xldudf_FDQ_DATAPOINT${roic("$A4", 2022)},"n/a")`,
      after: `=IFERROR(_xldudf_FDQ_DATAPOINT${roic("$A4", 2022)},"n/a")`,
    },
    {
      cell: "B6",
      before: `=BloombergUI.xla!_xldudf_FDQ_DATAPOINT${roic('"MSFT"', 2023)}`,
      after: `=_xldudf_FDQ_DATAPOINT${roic('"MSFT"', 2023)}`,
    },
  ];
}

const linksOf = (options: CorruptedBookOptions): readonly LinkKind[] =>
  options.links ?? ["prices", "bloomberg"];
/** The link's index as formulas write it ([2]), or 0 when the book has none of that kind. */
export const indexOf = (kind: LinkKind, options: CorruptedBookOptions = {}): number =>
  linksOf(options).indexOf(kind) + 1;

const STRINGS = ["Ticker", "ROIC", "AAPL", "MSFT", "NFLX"];
const str = (ref: string, text: string): string => `<c r="${ref}" t="s"><v>${STRINGS.indexOf(text)}</v></c>`;
const nameError = (ref: string, f: string): string => `<c r="${ref}" t="e">${f}<v>#NAME?</v></c>`;

function sheet(options: CorruptedBookOptions): string {
  const b = `[${indexOf("bloomberg", options)}]!`;
  const prices = indexOf("prices", options);
  const roic = '"metrics/roic","ROIC"';
  const q = (s: string): string => s.replace(/"/g, "&quot;");
  const rows = [
    `<row r="1" spans="1:5">${str("A1", "Ticker")}${str("B1", "ROIC")}` +
      nameError("D1", `<f t="array" ref="D1:E3">${b}_xldudf_FDQ_DATASET("AAPL","roic",2023)</f>`) +
      "</row>",
    `<row r="2" spans="1:5">${str("A2", "AAPL")}` +
      nameError("B2", `<f t="shared" ref="B2:B4" si="0">${b}_xldudf_FDQ_DATAPOINT($A2,${roic},2023)</f>`) +
      nameError("C2", '<f>_xludf.FDQ.RATING($A2,"overall")</f>') +
      "</row>",
    `<row r="3" spans="1:5">${str("A3", "MSFT")}${nameError("B3", '<f t="shared" si="0"/>')}` +
      nameError("C3", '<f>fdq.security($A3,"name")</f>') +
      "</row>",
    `<row r="4" spans="1:5">${str("A4", "NFLX")}${nameError("B4", '<f t="shared" si="0"/>')}` +
      nameError(
        "C4",
        `<f>${q(`IFERROR('${BLOOMBERG_PATH}'!_xldudf_FDQ_DATAPOINT($A4,${roic},2022),"n/a")`)}</f>`,
      ) +
      "</row>",
    '<row r="5" spans="1:5">' +
      `<c r="B5" s="1"><f>_xldudf_FDQ_DATAPOINT("AAPL",${roic},2022)</f><v>0.125</v></c>` +
      `<c r="C5" s="1"><f>FDQ.DATAPOINT("MSFT",${roic},2022)</f><v>0.25</v></c>` +
      (prices > 0 ? `<c r="D5"><f>[${prices}]Prices!B2*2</f><v>84</v></c>` : "") +
      '<c r="E5" t="e"><f>SUM(B2:B4)</f><v>#NAME?</v></c></row>',
    `<row r="6" spans="1:5">${nameError("B6", `<f>BloombergUI.xla!_xldudf_FDQ_DATAPOINT("MSFT",${roic},2023)</f>`)}</row>`,
  ];
  return (
    DECLARATION +
    `<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:E6"/>` +
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>' +
    `<sheetData>${rows.join("")}</sheetData>` +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>'
  );
}

const rels = (entries: readonly [string, string, string, string?][]): string =>
  DECLARATION +
  `<Relationships xmlns="${PKG_REL}">` +
  entries
    .map(
      ([id, type, target, mode]) =>
        `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${mode ? ` TargetMode="${mode}"` : ""}/>`,
    )
    .join("") +
  "</Relationships>";

const LINK_PARTS: Record<LinkKind, { xml: string; target: string }> = {
  bloomberg: {
    xml:
      DECLARATION +
      `<externalLink xmlns="${MAIN}" xmlns:r="${REL}"><externalBook r:id="rId1"><definedNames>` +
      '<definedName name="_xldudf_FDQ_DATAPOINT"/><definedName name="_xldudf_FDQ_DATASET"/></definedNames>' +
      "</externalBook></externalLink>",
    target: `file:///${BLOOMBERG_PATH}`,
  },
  prices: {
    xml:
      DECLARATION +
      `<externalLink xmlns="${MAIN}" xmlns:r="${REL}"><externalBook r:id="rId1"><sheetNames><sheetName val="Prices"/></sheetNames>` +
      '<sheetDataSet><sheetData sheetId="0"><row r="2"><cell r="B2"><v>42</v></cell></row></sheetData></sheetDataSet></externalBook></externalLink>',
    target: "Prices.xlsx",
  },
};

export function corruptedParts(options: CorruptedBookOptions = {}): Parts {
  const links = linksOf(options);
  const b = `[${indexOf("bloomberg", options)}]!`;
  const linkRel = (i: number): string => `rId${10 + i}`;
  const parts: Parts = {
    "[Content_Types].xml":
      DECLARATION +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SML}.worksheet+xml"/>` +
      links
        .map(
          (_, i) =>
            `<Override PartName="/xl/externalLinks/externalLink${i + 1}.xml" ContentType="${SML}.externalLink+xml"/>`,
        )
        .join("") +
      `<Override PartName="/xl/styles.xml" ContentType="${SML}.styles+xml"/>` +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="${SML}.sharedStrings+xml"/>` +
      `<Override PartName="/xl/calcChain.xml" ContentType="${SML}.calcChain+xml"/>` +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      "</Types>",
    "_rels/.rels":
      DECLARATION +
      `<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>` +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
    "xl/workbook.xml":
      DECLARATION +
      `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr defaultThemeVersion="202300"/>` +
      '<bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15720"/></bookViews>' +
      '<sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets>' +
      (links.length > 0
        ? `<externalReferences>${links.map((_, i) => `<externalReference r:id="${linkRel(i)}"/>`).join("")}</externalReferences>`
        : "") +
      "<definedNames>" +
      '<definedName name="Hurdle">0.08</definedName>' +
      `<definedName name="RoicAapl">${b}_xldudf_FDQ_DATAPOINT(&quot;AAPL&quot;,&quot;metrics/roic&quot;,&quot;ROIC&quot;,2023)</definedName>` +
      '<definedName name="Tickers" localSheetId="0">Model!$A$2:$A$4</definedName>' +
      "</definedNames>" +
      '<calcPr calcId="191029"/></workbook>',
    "xl/_rels/workbook.xml.rels": rels([
      ["rId1", "worksheet", "worksheets/sheet1.xml"],
      ...links.map((_, i): [string, string, string] => [
        linkRel(i),
        "externalLink",
        `externalLinks/externalLink${i + 1}.xml`,
      ]),
      ["rId2", "styles", "styles.xml"],
      ["rId3", "sharedStrings", "sharedStrings.xml"],
      ["rId4", "calcChain", "calcChain.xml"],
    ]),
    "xl/worksheets/sheet1.xml": sheet(options),
    "xl/sharedStrings.xml":
      DECLARATION +
      `<sst xmlns="${MAIN}" count="${STRINGS.length}" uniqueCount="${STRINGS.length}">` +
      STRINGS.map((s) => `<si><t>${s}</t></si>`).join("") +
      "</sst>",
    "xl/styles.xml":
      DECLARATION +
      `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0%"/></numFmts>` +
      '<fonts count="1"><font><sz val="11"/><name val="Aptos Narrow"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      "</styleSheet>",
    "xl/calcChain.xml":
      DECLARATION +
      `<calcChain xmlns="${MAIN}"><c r="D1" i="1"/><c r="B2"/><c r="C2"/><c r="B3"/><c r="C3"/><c r="B4"/><c r="C4"/><c r="B5"/><c r="C5"/><c r="E5"/><c r="B6"/></calcChain>`,
    "docProps/core.xml":
      DECLARATION +
      '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      '<dc:creator>Ana Analyst</dc:creator><dcterms:modified xsi:type="dcterms:W3CDTF">2026-06-02T09:00:00Z</dcterms:modified></cp:coreProperties>',
  };
  links.forEach((kind, i) => {
    parts[`xl/externalLinks/externalLink${i + 1}.xml`] = LINK_PARTS[kind].xml;
    parts[`xl/externalLinks/_rels/externalLink${i + 1}.xml.rels`] = rels([
      ["rId1", "externalLinkPath", LINK_PARTS[kind].target, "External"],
    ]);
  });
  return parts;
}

/** The book's bytes. */
export const corruptedBook = (options: CorruptedBookOptions = {}): Uint8Array =>
  zipParts(corruptedParts(options));
