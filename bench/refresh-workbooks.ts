// The workbooks the refresh benchmarks build: R1 (bench/refresh-real.ts: 50,000 FDQ cells, all of the
// workbook's work), R2 (bench/refresh-memory.ts: a large workbook of plain values and formulas holding a few
// FDQ cells, where what the refresh holds of the cells it does not refresh shows) and R3 (the same plain cells
// on the FDQ cells' own sheet, beside a few hundred formulas that read them).
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { zipSync } from "fflate";
import { findDataset, type Dataset } from "../src/catalog";
import { columnLetters } from "../src/workbook/engine/references";
import { TestBook } from "../test/support/xlsx-corpus/test-book";
import { DECLARATION } from "../test/support/xlsx-corpus/zip-parts";
import { sandboxUniverse } from "./universe";
import type { CellFetch } from "./workloads";

const YEARS = 10;
const DATASETS = ["metrics/roic", "screens/traditional"];
const NAMES_PER_DATASET = 10;

export interface Model {
  readonly cells: CellFetch[];
  readonly file: string;
}

/**
 * R1: row 1 years (B1 a constant, the rest =previous+1 per block), row 2 names, row 3 datasets, tickers from A4;
 * `tickerCount` x 10 years x 20 names FDQ cells.
 */
export async function buildR1(dir: string, tickerCount: number): Promise<Model> {
  const universe = sandboxUniverse(1, new Date());
  const firstYear = universe.lastYear - YEARS + 1;
  const tickers = universe.stocks
    .filter((s) => s.firstYear <= firstYear)
    .slice(0, tickerCount)
    .map((s) => s.ticker);
  const columns = DATASETS.flatMap((path) => {
    const dataset = findDataset(path)!;
    return dataset.datapoints
      .slice(0, NAMES_PER_DATASET)
      .flatMap((d) =>
        Array.from({ length: YEARS }, (_, i) => ({ dataset, name: d.name, year: firstYear + i })),
      );
  });
  // Written as SpreadsheetML by hand (test/support/xlsx-corpus), as a tool other than Excel writes it: no
  // cached values, so every formula is computed.
  const book = new TestBook();
  const sheet = book.addWorksheet("Model");
  columns.forEach((c, i) => {
    const letter = columnLetters(i + 2);
    const first = i % YEARS === 0;
    sheet.getCell(`${letter}1`).value = first ? c.year : { formula: `${columnLetters(i + 1)}1+1` };
    sheet.getCell(`${letter}2`).value = c.name;
    sheet.getCell(`${letter}3`).value = c.dataset.path;
  });
  const cells: CellFetch[] = [];
  tickers.forEach((ticker, r) => {
    const row = r + 4;
    sheet.getCell(`A${row}`).value = ticker;
    columns.forEach((c, i) => {
      const letter = columnLetters(i + 2);
      sheet.getCell(`${letter}${row}`).value = {
        formula: `_xldudf_FDQ_DATAPOINT($A${row},${letter}$3,${letter}$2,${letter}$1)`,
      };
      cells.push({ kind: "datapoint", ticker, dataset: c.dataset, name: c.name, period: { year: c.year } });
    });
  });
  const file = path.join(dir, "model.xlsx");
  book.writeFile(file);
  return { cells, file };
}

export interface WideShape {
  /** Sheets of plain cells. */
  readonly sheets: number;
  /** Rows of each (10 cells a row: a shared string, four numbers, five formulas over them). */
  readonly rows: number;
  /** Tickers of the FDQ sheet: 10 FDQ cells each (10 datapoints of metrics/roic, the last fiscal year). */
  readonly tickers: number;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const FDQ_COLUMNS = 10;
const LABELS = 1000;

/**
 * R2: `shape.sheets` sheets of `shape.rows` x 10 cells as Excel saves them (shared strings, numbers, formulas with
 * their cached results, row spans), then a sheet "FDQ" of `shape.tickers` x 10 FDQ cells with cached values
 * (yesterday's refresh) and a SUM beside each row. Only the FDQ sheet's cells change in a refresh. Written as
 * text straight into the zip: a TestBook of two million cells would take minutes to build.
 */
export function buildWide(dir: string, shape: WideShape): Model {
  const columns = fdqColumns(shape.tickers);
  const { names, tickers } = columns;
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = {};
  const dataSheet = (s: number): string =>
    `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:J${shape.rows}"/>` +
    `<sheetData>${dataRows(s, 1, shape.rows, false).join("")}</sheetData></worksheet>`;
  const cells: CellFetch[] = [];
  const fdqSheet = (): string => {
    const last = columnLetters(FDQ_COLUMNS + 1);
    const rows = [fdqHeaderRow(columns)];
    columns.tickers.forEach((_, t) => {
      const r = t + 2;
      let xml = fdqRowStart(columns, t, r, cells);
      xml += `<c r="${columnLetters(FDQ_COLUMNS + 2)}${r}"><f>SUM(B${r}:${last}${r})</f><v>0</v></c></row>`;
      rows.push(xml);
    });
    return `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${rows.join("")}</sheetData></worksheet>`;
  };
  const sheetNames = [...Array.from({ length: shape.sheets }, (_, s) => `Data${s + 1}`), "FDQ"];
  sheetNames.forEach((_, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = encoder.encode(
      i < shape.sheets ? dataSheet(i + 1) : fdqSheet(),
    );
  });
  const strings = [...Array.from({ length: LABELS }, (_, i) => `Item ${i}`), ...names, ...tickers];
  const parts = packageParts(sheetNames, strings);
  for (const [name, text] of Object.entries(parts)) files[name] = encoder.encode(text);
  const file = path.join(dir, "wide.xlsx");
  writeFileSync(file, zipSync(files, { level: 6, mtime: new Date("2026-01-05T09:00:00Z") }));
  return { cells, file };
}

interface FdqColumns {
  readonly year: number;
  readonly dataset: Dataset;
  readonly names: readonly string[];
  readonly tickers: readonly string[];
}

/** The FDQ cells' columns of R2 and R3: 10 datapoints of metrics/roic for the last fiscal year. */
function fdqColumns(count: number): FdqColumns {
  const universe = sandboxUniverse(1, new Date());
  const year = universe.lastYear;
  const dataset = findDataset("metrics/roic")!;
  const names = dataset.datapoints.slice(0, FDQ_COLUMNS).map((d) => d.name);
  const tickers = universe.stocks
    .filter((s) => s.firstYear <= year)
    .slice(0, count)
    .map((s) => s.ticker);
  return { year, dataset, names, tickers };
}

/**
 * Rows `from`..`to` of plain cells as Excel saves them: a shared string, four numbers, five formulas over them
 * with their cached results. `shared`: each formula column one shared formula (`t="shared"`, as Excel saves a
 * column filled down), else each cell its own formula.
 */
function dataRows(s: number, from: number, to: number, shared: boolean): string[] {
  const texts = ["B#+C#", "F#*D#", "SUM(B#:E#)", "G#-E#", "IF(H#&gt;50,I#,0)"];
  const rows: string[] = [];
  for (let r = from; r <= to; r++) {
    const n = (k: number): number => ((r * 7919 + s * 104729 + k * 31) % 100000) / 100;
    const [b, c, d, e] = [n(1), n(2), n(3), n(4)];
    const f = b + c;
    const g = f * d;
    const h = b + c + d + e;
    const i = g - e;
    const j = h > 50 ? i : 0;
    const formula = (k: number): string => {
      if (!shared) return `<f>${(texts[k] as string).replaceAll("#", String(r))}</f>`;
      if (r > from) return `<f t="shared" si="${k}"/>`;
      const letter = columnLetters(k + 6);
      return `<f t="shared" ref="${letter}${from}:${letter}${to}" si="${k}">${(texts[k] as string).replaceAll("#", String(r))}</f>`;
    };
    rows.push(
      `<row r="${r}" spans="1:10">` +
        `<c r="A${r}" t="s"><v>${(r + s) % LABELS}</v></c>` +
        `<c r="B${r}"><v>${b}</v></c><c r="C${r}"><v>${c}</v></c>` +
        `<c r="D${r}"><v>${d}</v></c><c r="E${r}"><v>${e}</v></c>` +
        `<c r="F${r}">${formula(0)}<v>${f}</v></c>` +
        `<c r="G${r}">${formula(1)}<v>${g}</v></c>` +
        `<c r="H${r}">${formula(2)}<v>${h}</v></c>` +
        `<c r="I${r}">${formula(3)}<v>${i}</v></c>` +
        `<c r="J${r}">${formula(4)}<v>${j}</v></c></row>`,
    );
  }
  return rows;
}

/** The first row of R3's plain cells, below its FDQ block. */
const R3_DATA_ROW = 201;

/**
 * R3: one sheet "Model" holding R2's FDQ block (`tickers` x 10 FDQ cells from B2, a SUM beside each row in L)
 * and, from row 201, `rows` x 10 plain cells as Excel saves a filled-down block (shared formulas, cached
 * results), which read no FDQ cell. The formulas that do, with cached values: L (SUM of the row's FDQ cells,
 * shared down), M (=L*2), N (the row's share of the whole column M: M2/$O$2, O2 =SUM(M:M)), and a total under
 * each FDQ column. Only the FDQ block and those formulas change in a refresh.
 */
export function buildR3(dir: string, shape: { rows: number; tickers: number }): Model {
  const columns = fdqColumns(shape.tickers);
  const { names, tickers } = columns;
  const cells: CellFetch[] = [];
  const lastFdq = columnLetters(FDQ_COLUMNS + 1);
  const rows = [fdqHeaderRow(columns)];
  const top = 2;
  const bottom = tickers.length + 1;
  tickers.forEach((_, t) => {
    const r = t + top;
    let xml = fdqRowStart(columns, t, r, cells);
    const sum =
      r === top
        ? `<f t="shared" ref="L${top}:L${bottom}" si="9">SUM(B${r}:${lastFdq}${r})</f>`
        : `<f t="shared" si="9"/>`;
    xml += `<c r="L${r}">${sum}<v>0</v></c><c r="M${r}"><f>L${r}*2</f><v>0</v></c>`;
    xml += `<c r="N${r}"><f>M${r}/$O$${top}</f><v>0</v></c>`;
    // O2: the whole column M's total, which N's shares divide by.
    xml += r === top ? `<c r="O${r}"><f>SUM(M:M)</f><v>0</v></c></row>` : "</row>";
    rows.push(xml);
  });
  const totals = names.map((_, i) => {
    const letter = columnLetters(i + 2);
    return `<c r="${letter}${bottom + 1}"><f>SUM(${letter}${top}:${letter}${bottom})</f><v>0</v></c>`;
  });
  rows.push(`<row r="${bottom + 1}">${totals.join("")}</row>`);
  rows.push(...dataRows(1, R3_DATA_ROW, R3_DATA_ROW + shape.rows - 1, true));
  const sheet =
    `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">` +
    `<dimension ref="A1:O${R3_DATA_ROW + shape.rows - 1}"/><sheetData>${rows.join("")}</sheetData></worksheet>`;
  const strings = [...Array.from({ length: LABELS }, (_, i) => `Item ${i}`), ...names, ...tickers];
  const parts = { ...packageParts(["Model"], strings), "xl/worksheets/sheet1.xml": sheet };
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(parts)) files[name] = encoder.encode(text);
  const file = path.join(dir, "one-sheet.xlsx");
  writeFileSync(file, zipSync(files, { level: 6, mtime: new Date("2026-01-05T09:00:00Z") }));
  return { cells, file };
}

/** A workbook's parts besides its worksheets: sheet i + 1 is `xl/worksheets/sheet{i + 1}.xml`, and the shared strings. */
function packageParts(sheetNames: readonly string[], strings: readonly string[]): Record<string, string> {
  const sml = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  return {
    "[Content_Types].xml":
      `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${sml}.sheet.main+xml"/>` +
      sheetNames
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${sml}.worksheet+xml"/>`,
        )
        .join("") +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="${sml}.sharedStrings+xml"/></Types>`,
    "_rels/.rels":
      `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml":
      `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
      sheetNames.map((name, i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("") +
      `</sheets><calcPr calcId="191029"/></workbook>`,
    "xl/_rels/workbook.xml.rels":
      `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      sheetNames
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join("") +
      `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    "xl/sharedStrings.xml":
      `${DECLARATION}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((s) => `<si><t>${s}</t></si>`).join("") +
      "</sst>",
  };
}

/** Row 1 of an FDQ block: the datapoints' names (shared strings), from column B. */
function fdqHeaderRow({ names }: FdqColumns): string {
  return `<row r="1">${names.map((_, i) => `<c r="${columnLetters(i + 2)}1" t="s"><v>${LABELS + i}</v></c>`).join("")}</row>`;
}

/** Row `r` of an FDQ block up to its FDQ cells (ticker `t` in A, yesterday's values); their fetches go in `cells`. */
function fdqRowStart(
  { year, dataset, names, tickers }: FdqColumns,
  t: number,
  r: number,
  cells: CellFetch[],
): string {
  const ticker = tickers[t] as string;
  let xml = `<row r="${r}"><c r="A${r}" t="s"><v>${LABELS + FDQ_COLUMNS + t}</v></c>`;
  names.forEach((name, i) => {
    const letter = columnLetters(i + 2);
    xml +=
      `<c r="${letter}${r}"><f>_xldudf_FDQ_DATAPOINT($A${r},"metrics/roic",${letter}$1,${year})</f>` +
      `<v>${(t + i) / 100}</v></c>`;
    cells.push({ kind: "datapoint", ticker, dataset, name, period: { year } });
  });
  return xml;
}
