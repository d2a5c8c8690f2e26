// The dependents corpus: one workbook, written part by part as openpyxl writes one (shared strings, formulas
// without cached values, `<calcPr calcId="124519" fullCalcOnLoad="1"/>`), holding FDQ cells in every form a
// workbook holds them and, on the sheet Deps, one dependent per row for each class of formula a refresh must
// either compute exactly as Excel does or leave alone and report:
// - functions over ranges mixing errors, blanks, text, text numbers and logicals;
// - implicit intersection (a range in a plain formula, `_xlfn.SINGLE` as a file stores `@`), the intersection
//   operator (a space) and the union operator;
// - dynamic arrays and legacy array formulas feeding other formulas (`A1#`, as a file stores it
//   `_xlfn.ANCHORARRAY(A1)`, SORT, SEQUENCE, `{=...}`);
// - defined names (constants, ranges, FDQ calls, a sheet's own beside the workbook's, a relative one) and
//   structured references to a table;
// - whole-column and whole-row references;
// - dates, times, percentages and numbers written as text;
// - a circular reference (the book allows iteration);
// - volatile functions (TODAY, NOW and RAND on the sheet Clock, read by dependents; RAND in one), OFFSET and
//   INDIRECT;
// - SUBTOTAL over a hidden row;
// - a two-way what-if data table (`<f t="dataTable" ref="I6:K8">`, its results from "yesterday") and a formula
//   reading it; a reference across sheets (Data:Clock!C2).
// FDQ calls: plain, as Excel stores a JavaScript custom function (_xldudf_FDQ_), in lower case, nested in ROUND
// and IFERROR, a legacy array formula over B8:F8, a dynamic array (as Excel marks one), three defined names
// (one no formula uses), a conditional format's rule and a data validation's limit.
import { ExcelError, type Scalar } from "../../../src/workbook/model";
import { DECLARATION, zipParts, type Parts } from "./zip-parts";

/** The refreshed values of the Data sheet's cells by address, for the values worked out by hand. */
export type DataValues = (address: string) => Scalar;
/** Who wrote the book: LibreOffice writes a dynamic array as a legacy array formula (so A1# is #REF!). */
export type Writer = "openpyxl" | "libreoffice";

export interface DependentCase {
  /** A cell of the sheet Deps. */
  readonly cell: string;
  readonly formula: string;
  /** A legacy array formula's range (`{=...}` over it), or with `dynamic` a dynamic array's first extent. */
  readonly array?: string;
  readonly dynamic?: boolean;
  /**
   * Where LibreOffice 7 is no oracle: the value Excel gives, worked out by hand from the FDQ cells' refreshed
   * values, for the cell and the cells it spills into. LibreOffice lacks SORT, SEQUENCE, _xlfn.SINGLE and the
   * spill operator #; it has no logical type (a TRUE in a range is the number 1 to SUM, COUNT, AVERAGE, MIN,
   * MEDIAN, SUMPRODUCT and TEXTJOIN, where Excel skips it or writes "TRUE"); it gives #REF! for an empty
   * intersection (Excel: #NULL!) and #VALUE! for SUM(x,TRUE,"3") (Excel: x+4), and counts RoicTbl[#Data] as
   * one cell.
   */
  readonly byHand?: (data: DataValues, writer: Writer) => Record<string, Scalar>;
}

const num = (v: Scalar): number => (typeof v === "number" ? v : NaN);

/** Data!C2:C5, the ROIC of 2022 of AAPL, MSFT, NFLX and K (C6, GOOG's, is #N/A). */
const c = (d: DataValues): number[] => [2, 3, 4, 5].map((r) => num(d(`C${r}`)));
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
/** The numbers among the cells (Excel's aggregates over a range read only those). */
const numbers = (d: DataValues, cells: readonly string[]): number[] =>
  cells.map(d).filter((v): v is number => typeof v === "number");
const grid = (cols: string, top: number, bottom: number): string[] =>
  Array.from({ length: bottom - top + 1 }, (_, i) => [...cols].map((col) => `${col}${top + i}`)).flat();
/** Data!F2:F6 as Excel reads it in a range: "n/a", TRUE (skipped), empty, "12" (text, skipped), 7. */
const MIXED_NUMBERS = [7];
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}
/** A value as Excel's TEXTJOIN writes it (General format: up to 15 significant digits). */
const joined = (v: Scalar): string =>
  v === null
    ? ""
    : typeof v === "number"
      ? String(Number(v.toPrecision(15)))
      : v === true
        ? "TRUE"
        : String(v);

export const DEPENDENTS: readonly DependentCase[] = [
  // Ranges mixing errors, blanks, text, text numbers and logicals (Data!F2:F6 is "n/a", TRUE, empty, "12", 7).
  {
    cell: "B2",
    formula: "SUM(Data!C2:C5,Data!F2:F6)",
    byHand: (d) => ({ B2: sum(c(d)) + sum(MIXED_NUMBERS) }),
  },
  { cell: "B3", formula: "Data!C2:C6*2" },
  { cell: "B4", formula: "_xlfn.SINGLE(Data!C2:C6)+1", byHand: (d) => ({ B4: num(d("C4")) + 1 }) },
  {
    cell: "B5",
    formula: "AVERAGE(Data!C2:C5,Data!F2:F6)",
    byHand: (d) => ({ B5: (sum(c(d)) + sum(MIXED_NUMBERS)) / (4 + MIXED_NUMBERS.length) }),
  },
  {
    cell: "B6",
    formula: "COUNT(Data!B2:F6)",
    byHand: (d) => ({ B6: numbers(d, grid("BCDE", 2, 6)).length + MIXED_NUMBERS.length }),
  },
  { cell: "B7", formula: "COUNTA(Data!B2:F6)" },
  { cell: "B8", formula: "COUNTBLANK(Data!B2:F6)" },
  { cell: "B9", formula: "SUM(Data!B2:B6)" },
  { cell: "B10", formula: "IFERROR(SUM(Data!B2:B6),-1)" },
  { cell: "B11", formula: "MAX(Data!E2:E6)" },
  { cell: "B12", formula: "MIN(Data!C2:C5,Data!F2:F6)" },
  { cell: "B13", formula: "SUMPRODUCT(Data!C2:C5,Data!F2:F5)", byHand: () => ({ B13: 0 }) },
  { cell: "B14", formula: 'SUM(Data!C2,TRUE,"3")', byHand: (d) => ({ B14: num(d("C2")) + 1 + 3 }) },
  { cell: "B15", formula: 'SUMIF(Data!B2:B6,">0.1")' },
  { cell: "B16", formula: 'COUNTIF(Data!E2:E6,"n/a")+Data!C2' },
  { cell: "B17", formula: "MATCH(TRUE,Data!F2:F6,0)+Data!C2" },
  {
    cell: "B18",
    formula: '_xlfn.TEXTJOIN(";",FALSE,Data!E2:F6)',
    byHand: (d) => ({
      B18: grid("EF", 2, 6)
        .map((a) => joined(d(a)))
        .join(";"),
    }),
  },
  {
    cell: "B19",
    formula: "MEDIAN(Data!C2:F5)",
    byHand: (d) => ({ B19: median(numbers(d, grid("CDE", 2, 5))) }),
  },
  { cell: "B20", formula: "_xlfn.STDEV.S(Data!B2:B6)" },
  { cell: "B21", formula: "AVERAGEA(Data!C2:C5,Data!F2:F6)" },
  { cell: "B22", formula: "AGGREGATE(9,6,Data!B2:B6)" },
  { cell: "B23", formula: "ISNUMBER(Data!F5)+Data!C2" },
  { cell: "B24", formula: "Data!F5*Data!C2" },
  { cell: "B25", formula: "Data!F2*1+Data!C2" },
  // The intersection and union operators.
  { cell: "B26", formula: "SUM(Data!B2:D6 Data!C2:C5)" },
  { cell: "B27", formula: "Data!B2:D6 Data!C4" },
  { cell: "B28", formula: "SUM(Data!B2:B3 Data!D2:D3)", byHand: () => ({ B28: new ExcelError("#NULL!") }) },
  { cell: "B29", formula: "SUM(Data!C:C Data!3:4)" },
  { cell: "B30", formula: "SUM((Data!C2,Data!C4))" },
  { cell: "B31", formula: "Data!C2:C6*2" },
  // Dynamic arrays and legacy array formulas feeding other formulas.
  { cell: "D2", formula: "Data!C2:C6*100", array: "D2:D6" },
  { cell: "B32", formula: "SUM(D2:D6)" },
  { cell: "B33", formula: "SUM(Data!B8:F8)" },
  {
    cell: "B34",
    formula: "SUM(_xlfn.ANCHORARRAY(Data!B9))",
    byHand: (d, writer) => ({
      B34:
        writer === "libreoffice"
          ? new ExcelError("#REF!")
          : ["B9", "C9", "D9", "E9", "F9"].reduce((s, a) => s + num(d(a)), 0),
    }),
  },
  {
    cell: "B35",
    formula: "SUM(_xlfn._xlws.SORT(Data!C2:C5))",
    byHand: (d) => ({ B35: c(d).reduce((s, x) => s + x, 0) }),
  },
  {
    cell: "B36",
    formula: "INDEX(_xlfn._xlws.SORT(Data!C2:C5,1,-1),1)",
    byHand: (d) => ({ B36: Math.max(...c(d)) }),
  },
  {
    cell: "E2",
    formula: "_xlfn.SEQUENCE(3)*Data!C2",
    array: "E2:E4",
    dynamic: true,
    byHand: (d) => ({ E2: num(d("C2")), E3: 2 * num(d("C2")), E4: 3 * num(d("C2")) }),
  },
  { cell: "B37", formula: "SUM(E2#)", byHand: (d) => ({ B37: 6 * num(d("C2")) }) },
  // Defined names and structured references.
  { cell: "B38", formula: "AaplRoic21*2" },
  { cell: "B39", formula: "MsftRoic20+1" },
  { cell: "B40", formula: "IFERROR(SUM(Roics),0)+Hurdle" },
  { cell: "B41", formula: "SUM(RoicTbl[ROIC22])" },
  { cell: "B42", formula: "SUM(RoicTbl[[ROIC22]:[ROIC21]])" },
  { cell: "B43", formula: "INDEX(RoicTbl[ROIC22],2)*Hurdle" },
  { cell: "B44", formula: "COUNTA(RoicTbl[#Data])", byHand: () => ({ B44: 25 }) },
  { cell: "G2", formula: "Data!C2*Rate" },
  { cell: "G3", formula: "RoicHere*2" },
  // Whole columns and rows.
  { cell: "B45", formula: "SUM(Data!C:C)" },
  { cell: "B46", formula: 'SUMIF(Data!A:A,"MSFT",Data!C:C)' },
  { cell: "B47", formula: 'VLOOKUP("K",Data!A:C,3,FALSE)' },
  { cell: "B48", formula: 'INDEX(Data!C:C,MATCH("NFLX",Data!A:A,0))' },
  {
    cell: "B49",
    formula: "COUNT(Data!3:3)",
    byHand: (d) => ({ B49: numbers(d, ["B3", "C3", "D3", "E3", "H3", "I3"]).length }),
  },
  // Dates, times, percentages, numbers as text.
  { cell: "B50", formula: "DATE(2023,1,31)+ROUND(Data!C2*100,0)" },
  { cell: "B51", formula: "EOMONTH(Data!H2,ROUND(Data!C3*100,0))" },
  { cell: "B52", formula: 'TEXT(Data!H2+ROUND(Data!C2*100,0),"yyyy-mm-dd")' },
  { cell: "B53", formula: 'TEXT(Data!C2,"0.00%")' },
  { cell: "B54", formula: "Data!I2*24+Data!C2" },
  { cell: "B55", formula: "HOUR(Data!I2+Data!C2)" },
  { cell: "B56", formula: "WEEKDAY(Data!H2+ROUND(Data!C2*100,0))" },
  { cell: "B57", formula: 'Data!C2*"50%"' },
  { cell: "B58", formula: '"1,234"+Data!C2' },
  { cell: "B59", formula: 'VALUE("12.5%")*Data!C2' },
  { cell: "B60", formula: '"2023-01-05"+Data!C2' },
  { cell: "B61", formula: 'VALUE("$1,234")*Data!C2' },
  { cell: "B62", formula: 'Data!C2&"%"' },
  { cell: "B63", formula: "Data!C2*10%" },
  { cell: "B64", formula: 'Data!C2>"0.1"' },
  // A circular reference, and a formula reading it.
  { cell: "B65", formula: "Data!C2+0.5*B66" },
  { cell: "B66", formula: "B65*0.1" },
  { cell: "B67", formula: "B65*2" },
  // Volatile functions, OFFSET and INDIRECT.
  { cell: "B68", formula: "Data!C2*RAND()" },
  { cell: "B69", formula: "Clock!A1+Data!C2" },
  { cell: "B70", formula: "Clock!A2*0+Data!C2" },
  { cell: "B71", formula: "IF(Data!C2>0,Data!C2,RAND())" },
  { cell: "B72", formula: "OFFSET(Data!C1,2,0)*2" },
  { cell: "B73", formula: "SUM(OFFSET(Data!C2,0,0,3,1))" },
  { cell: "B74", formula: 'INDIRECT("Data!C"&4)*2' },
  { cell: "B75", formula: "Clock!A3+Data!C2" },
  // SUBTOTAL over a hidden row (Data's row 4, NFLX): 109 leaves it out; 9 keeps it unless a filter hid it.
  { cell: "B78", formula: "SUBTOTAL(109,Data!C2:C5)" },
  { cell: "B79", formula: "SUBTOTAL(9,Data!C2:C5)" },
  // Numbers as text, empty cells, logicals in arithmetic, references returned by INDEX, array idioms.
  { cell: "B80", formula: 'Data!C2/3&""' },
  { cell: "B81", formula: 'Data!C2*1E-9&""' },
  { cell: "B82", formula: "TRUE+Data!C2" },
  { cell: "B83", formula: "Data!Z99&Data!C2" },
  { cell: "B84", formula: 'IF(Data!Z99="",Data!C2,0)' },
  { cell: "B85", formula: "INDEX(Data!B2:E6,2,0)*1" },
  { cell: "B86", formula: 'LOOKUP(2,1/(Data!A2:A6="K"),Data!C2:C6)' },
  { cell: "B87", formula: "SUM(Data!C2:C5*2)" },
  { cell: "B88", formula: 'TEXT(Data!H2+Data!I2+Data!C2,"yyyy-mm-dd hh:mm")' },
  { cell: "B89", formula: 'COUNTIFS(Data!C2:C6,">0.1",Data!F2:F6,"<>n/a")' },
  { cell: "B90", formula: "ROUND(Data!C2,2)=0.14" },
  { cell: "B91", formula: 'Data!C2*100&"%"' },
  // Errors and logicals met by conditional sums, lookups and logical functions.
  { cell: "B92", formula: 'SUMIF(Data!A2:A6,"<>GOOG",Data!C2:C6)' },
  { cell: "B93", formula: "MATCH(Data!C4,Data!C2:C6,0)" },
  { cell: "B94", formula: 'VLOOKUP("GOOG",Data!A2:C6,3,FALSE)' },
  { cell: "B95", formula: 'COUNTIF(Data!C2:C6,"#N/A")+Data!C2' },
  { cell: "B96", formula: "LARGE(Data!C2:C6,1)" },
  { cell: "B97", formula: 'AVERAGEIF(Data!C2:C6,">0")' },
  { cell: "B98", formula: "ERROR.TYPE(Data!C6)+Data!C2" },
  { cell: "B99", formula: "SUMPRODUCT(ISNUMBER(Data!E2:E6)*1)+Data!C2" },
  { cell: "B100", formula: "N(Data!F3)+Data!C2" },
  { cell: "B101", formula: "Data!F3*Data!C2" },
  { cell: "B102", formula: "AND(Data!F2:F6,Data!C2>0)" },
  { cell: "B103", formula: "MIN(Data!F2:F6)+Data!C2", byHand: (d) => ({ B103: 7 + num(d("C2")) }) },
  // Binary floating point met by comparisons and subtractions.
  { cell: "B104", formula: "Data!C2*0+0.1+0.2=0.3" },
  { cell: "B105", formula: "IF(Data!C2*0+0.1+0.2=0.3,1,2)" },
  { cell: "B106", formula: "(Data!C2*0+0.3)-0.2-0.1" },
  { cell: "B107", formula: 'COUNTIF(Data!C2:C5,"<"&Data!C3)' },
  // A what-if data table (I6:K8 from H5, inputs H2 and H3) and a formula reading it; a 3-D reference.
  { cell: "H5", formula: "Data!C2*H2+H3" },
  { cell: "B76", formula: "MAX(I6:K8)" },
  { cell: "B77", formula: "SUM(Data:Clock!C2)" },
];

/** The data table of Deps: its anchor and range, and yesterday's results (none is today's). */
export const DATA_TABLE = { anchor: "I6", ref: "I6:K8", rowInput: "H2", columnInput: "H3" } as const;

/** Every FDQ call of the book, by where it is (the counting test finds them in the package on its own). */
export const FDQ_CELLS = [
  ...["B", "C", "D", "E"].flatMap((col) => [2, 3, 4, 5, 6].map((r) => `Data!${col}${r}`)),
  "Data!B8",
  "Data!B9",
  "Data!A11",
];

const TICKERS = ["AAPL", "MSFT", "NFLX", "K", "GOOG"];

type Cell = number | string | boolean | { f: string; array?: string; dynamic?: boolean };

function dataSheet(): Record<string, Cell> {
  const cells: Record<string, Cell> = {
    A1: "Ticker",
    B1: "ROIC",
    C1: "ROIC22",
    D1: "ROIC21",
    E1: "ROIC20",
    F1: "Mixed",
    H1: "Date",
    I1: "Time",
  };
  TICKERS.forEach((t, i) => {
    const r = i + 2;
    cells[`A${r}`] = t;
    cells[`B${r}`] = { f: `FDQ.DATAPOINT($A${r},"metrics/roic","ROIC",2023)` };
    cells[`C${r}`] = { f: `_xldudf_FDQ_DATAPOINT($A${r},"metrics/roic","ROIC",2022)` };
    cells[`D${r}`] = { f: `ROUND(FDQ.DATAPOINT($A${r},"metrics/roic","ROIC",2021),4)` };
    cells[`E${r}`] = { f: `IFERROR(fdq.datapoint($A${r},"metrics/roic","ROIC",2020),"n/a")` };
    cells[`H${r}`] = 44927 + 31 * i;
    cells[`I${r}`] = 0.25 + 0.125 * i;
  });
  Object.assign(cells, { F2: "n/a", F3: true, F5: "12", F6: 7 });
  cells.A8 = "Series";
  cells.B8 = { f: 'FDQ.SERIES("AAPL","roic","ROIC",2019,2023)', array: "B8:F8" };
  cells.A9 = "Spill";
  cells.B9 = { f: '_xldudf_FDQ_SERIES("MSFT","roic","ROIC",2019,2023)', array: "B9:F9", dynamic: true };
  cells.A11 = { f: 'FDQ.SECURITY("AAPL","name")' };
  return cells;
}

function depsSheet(): Record<string, Cell> {
  const cells: Record<string, Cell> = {
    A1: "Dependent",
    H2: 1,
    H3: 2,
    I5: 1,
    J5: 2,
    K5: 3,
    H6: 10,
    H7: 20,
    H8: 30,
  };
  for (const d of DEPENDENTS) {
    cells[d.cell] = {
      f: d.formula,
      ...(d.array ? { array: d.array } : {}),
      ...(d.dynamic ? { dynamic: true } : {}),
    };
  }
  // Yesterday's results of the data table: its first cell holds the table's formula.
  ["I6", "J6", "K6", "I7", "J7", "K7", "I8", "J8", "K8"].forEach((a, i) => (cells[a] = 100 + i));
  return cells;
}

const clockSheet = (): Record<string, Cell> => ({
  A1: { f: "TODAY()" },
  A2: { f: "NOW()" },
  A3: { f: "RAND()" },
  C2: 1000,
});

export const NAMES = [
  { name: "AaplRoic21", text: 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2021)' },
  { name: "MsftRoic20", text: '_xldudf_FDQ_DATAPOINT("MSFT","metrics/roic","ROIC",2020)' },
  { name: "Unused", text: 'FDQ.DATAPOINT("K","metrics/roic","ROIC",2019)' },
  { name: "Roics", text: "Data!$B$2:$B$6" },
  { name: "Hurdle", text: "0.1" },
  { name: "Rate", text: "0.5" },
  { name: "Rate", text: "0.1", localSheetId: 1 },
  // Relative: as Excel stores it, seen from A1 (column C of the row the formula is on).
  { name: "RoicHere", text: "Data!$C1" },
];

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";

const escape = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function position(address: string): [number, number] {
  const m = /^([A-Z]+)(\d+)$/.exec(address) as RegExpExecArray;
  const col = [...(m[1] as string)].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  return [Number(m[2]), col];
}

export function dependentsBook(): Uint8Array {
  const strings: string[] = [];
  const stringIndex = (text: string): number => {
    const i = strings.indexOf(text);
    return i >= 0 ? i : strings.push(text) - 1;
  };
  let dynamic = false;
  const sheetXml = (
    cells: Record<string, Cell>,
    extra: string,
    after: string,
    hidden: number[] = [],
  ): string => {
    const rows = new Map<number, [number, string][]>();
    for (const [address, cell] of Object.entries(cells)) {
      const [row, col] = position(address);
      let xml: string;
      if (typeof cell === "number") xml = `<c r="${address}"><v>${cell}</v></c>`;
      else if (typeof cell === "boolean") xml = `<c r="${address}" t="b"><v>${cell ? 1 : 0}</v></c>`;
      else if (typeof cell === "string") xml = `<c r="${address}" t="s"><v>${stringIndex(cell)}</v></c>`;
      else {
        const array = cell.array ? ` t="array" ref="${cell.array}"` : "";
        const cm = cell.dynamic ? ' cm="1"' : "";
        if (cell.dynamic) dynamic = true;
        xml = `<c r="${address}"${cm}><f${array}>${escape(cell.f)}</f></c>`;
      }
      const line = rows.get(row) ?? [];
      line.push([col, xml]);
      rows.set(row, line);
    }
    const data = [...rows]
      .sort(([a], [b]) => a - b)
      .map(
        ([r, line]) =>
          `<row r="${r}"${hidden.includes(r) ? ' hidden="1"' : ""}>${line
            .sort(([a], [b]) => a - b)
            .map(([, x]) => x)
            .join("")}</row>`,
      )
      .join("");
    return (
      `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetPr><outlinePr summaryBelow="1" summaryRight="1"/>` +
      `</sheetPr><dimension ref="A1:K107"/><sheetViews><sheetView workbookViewId="0"><selection activeCell="A1" sqref="A1"/>` +
      `</sheetView></sheetViews><sheetFormatPr baseColWidth="8" defaultRowHeight="15"/><sheetData>${data}</sheetData>` +
      `${extra}<pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5"/>${after}</worksheet>`
    );
  };

  const deps = depsSheet();
  // The data table's first cell: its formula as Excel stores it, with yesterday's result.
  const depsXml = sheetXml(deps, "", "").replace(
    `<c r="${DATA_TABLE.anchor}"><v>100</v></c>`,
    `<c r="${DATA_TABLE.anchor}"><f t="dataTable" ref="${DATA_TABLE.ref}" dt2D="1" dtr="1" r1="${DATA_TABLE.rowInput}" r2="${DATA_TABLE.columnInput}"/><v>100</v></c>`,
  );
  const conditional =
    '<conditionalFormatting sqref="B2:B6"><cfRule type="expression" dxfId="0" priority="1">' +
    `<formula>${escape('B2>FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2023)')}</formula></cfRule></conditionalFormatting>` +
    '<dataValidations count="1"><dataValidation type="decimal" operator="lessThan" allowBlank="1" showErrorMessage="1" sqref="J2">' +
    `<formula1>${escape('_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)')}</formula1></dataValidation></dataValidations>`;
  const dataXml = sheetXml(
    dataSheet(),
    conditional,
    '<tableParts count="1"><tablePart r:id="rId1"/></tableParts>',
    [4],
  );
  const clockXml = sheetXml(clockSheet(), "", "");

  const sheets = ["Data", "Deps", "Clock"];
  const o = (part: string, type: string): string => `<Override PartName="/${part}" ContentType="${type}"/>`;
  const rels = (list: [string, string, string][]): string =>
    `${DECLARATION}<Relationships xmlns="${PKG_REL}">` +
    list
      .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`)
      .join("") +
    "</Relationships>";
  const parts: Parts = {
    "[Content_Types].xml":
      `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      o("xl/workbook.xml", `${SML}.sheet.main+xml`) +
      sheets.map((_, i) => o(`xl/worksheets/sheet${i + 1}.xml`, `${SML}.worksheet+xml`)).join("") +
      o("xl/tables/table1.xml", `${SML}.table+xml`) +
      o("xl/styles.xml", `${SML}.styles+xml`) +
      o("xl/sharedStrings.xml", `${SML}.sharedStrings+xml`) +
      (dynamic ? o("xl/metadata.xml", `${SML}.sheetMetadata+xml`) : "") +
      o("docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml") +
      o("docProps/app.xml", "application/vnd.openxmlformats-officedocument.extended-properties+xml") +
      "</Types>",
    "_rels/.rels": rels([
      ["rId1", `${REL}/officeDocument`, "xl/workbook.xml"],
      [
        "rId2",
        "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
        "docProps/core.xml",
      ],
      ["rId3", `${REL}/extended-properties`, "docProps/app.xml"],
    ]),
    "docProps/app.xml":
      `${DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
      "<Application>Microsoft Excel</Application><AppVersion>3.1</AppVersion></Properties>",
    "docProps/core.xml":
      `${DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>openpyxl</dc:creator>' +
      '<dcterms:created xsi:type="dcterms:W3CDTF">2026-01-05T09:00:00Z</dcterms:created></cp:coreProperties>',
    "xl/workbook.xml":
      `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr/><workbookProtection/><bookViews>` +
      '<workbookView visibility="visible" minimized="0" showHorizontalScroll="1" showVerticalScroll="1" showSheetTabs="1" tabRatio="600" firstSheet="0" activeTab="0" autoFilterDateGrouping="1"/>' +
      "</bookViews><sheets>" +
      sheets
        .map(
          (n, i) =>
            `<sheet xmlns:r="${REL}" name="${n}" sheetId="${i + 1}" state="visible" r:id="rId${i + 1}"/>`,
        )
        .join("") +
      "</sheets><definedNames>" +
      NAMES.map(
        (n) =>
          `<definedName name="${n.name}"${"localSheetId" in n ? ` localSheetId="${n.localSheetId}"` : ""}>${escape(n.text)}</definedName>`,
      ).join("") +
      '</definedNames><calcPr calcId="124519" fullCalcOnLoad="1" iterate="1"/></workbook>',
    "xl/_rels/workbook.xml.rels": rels([
      ...sheets.map((_, i): [string, string, string] => [
        `rId${i + 1}`,
        `${REL}/worksheet`,
        `/xl/worksheets/sheet${i + 1}.xml`,
      ]),
      ["rId4", `${REL}/styles`, "/xl/styles.xml"],
      ["rId5", `${REL}/sharedStrings`, "/xl/sharedStrings.xml"],
      ...(dynamic ? [["rId6", `${REL}/sheetMetadata`, "/xl/metadata.xml"] as [string, string, string]] : []),
    ]),
    "xl/worksheets/sheet1.xml": dataXml,
    "xl/worksheets/_rels/sheet1.xml.rels": rels([["rId1", `${REL}/table`, "/xl/tables/table1.xml"]]),
    "xl/worksheets/sheet2.xml": depsXml,
    "xl/worksheets/sheet3.xml": clockXml,
    "xl/tables/table1.xml":
      `${DECLARATION}<table xmlns="${MAIN}" id="1" name="RoicTbl" displayName="RoicTbl" ref="A1:E6">` +
      '<autoFilter ref="A1:E6"/><tableColumns count="5">' +
      ["Ticker", "ROIC", "ROIC22", "ROIC21", "ROIC20"]
        .map((n, i) => `<tableColumn id="${i + 1}" name="${n}"/>`)
        .join("") +
      '</tableColumns><tableStyleInfo name="TableStyleMedium9" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>',
    "xl/styles.xml":
      `${DECLARATION}<styleSheet xmlns="${MAIN}"><numFmts count="0"/><fonts count="1"><font><name val="Calibri"/><family val="2"/><sz val="11"/></font></fonts>` +
      '<fills count="2"><fill><patternFill/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" pivotButton="0" quotePrefix="0" xfId="0"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0" hidden="0"/></cellStyles>' +
      '<dxfs count="1"><dxf><font><b val="1"/></font></dxf></dxfs><tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>',
  };
  parts["xl/sharedStrings.xml"] =
    `${DECLARATION}<sst xmlns="${MAIN}" uniqueCount="${strings.length}">` +
    strings.map((s) => `<si><t>${escape(s)}</t></si>`).join("") +
    "</sst>";
  if (dynamic) parts["xl/metadata.xml"] = DYNAMIC_METADATA;
  return zipParts(parts);
}

const DYNAMIC_METADATA =
  `${DECLARATION}<metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';
