// The workbook as `fdq refresh` reads it: what the xlsx reader (src/workbook/xlsx/) produces and what the
// formula engine (src/workbook/engine/) and the recalculation read. It names no library: the package is read
// and patched part by part (nothing re-serialised), and the engine is ours over @formulajs/formulajs.
//
// One owner per fact: positions are 1-based rows and columns as in A1 notation; sheet names keep their case
// (Excel compares them case-insensitively, so lookups go through `sheetKey`).

// Excel's values (error codes, errors, scalars) belong to the formula layer, which reads them in formulas too.
import type { Scalar } from "../formula/excel-values";
export { ERROR_CODES, ExcelError, isErrorCode, type ErrorCode, type Scalar } from "../formula/excel-values";

/** A value a formula may give: a scalar, or an array (rows of scalars) that spills from the formula's cell. */
export type CellValue = Scalar | Scalar[][];

/** The array a formula cell anchors in the file. */
export interface ArrayFormula {
  /** The range it covers in the file, "B2:D4" (its `ref`). */
  readonly ref: string;
  /** True for a dynamic array (`cm` pointing at XLDAPR metadata), false for a legacy CSE array formula. */
  readonly dynamic: boolean;
}

export interface FormulaCell {
  readonly sheet: string;
  readonly row: number;
  readonly col: number;
  /** The formula as stored, without "=": a shared formula's follower already translated to its own position. */
  readonly formula: string;
  /** The result saved in the file (`<v>` with its `t`), or undefined when the file has none. */
  readonly cached: Scalar | undefined;
  /** Set on the anchor of an array formula (legacy or dynamic). */
  readonly array?: ArrayFormula;
  /** `<f t="dataTable">` and other forms the engine must leave alone: kept and reported, never computed. */
  readonly kind?: "dataTable";
  /** A data table's anchor: the range it fills ("C13:E15", its `ref`); the cells after the first hold values. */
  readonly tableRange?: string;
  /**
   * The cell holds a rich value (`vm`: a card, a number with its source, a linked data type): Excel shows it from
   * xl/metadata.xml and xl/richData/, and `cached` is only its plain fallback.
   */
  readonly richValue?: true;
}

export interface Sheet {
  readonly name: string;
  /** 0-based position in workbook.xml's `<sheets>`: what `localSheetId` refers to. */
  readonly index: number;
  /** Row -> column -> a constant or a formula cell. Empty cells are absent. */
  readonly rows: Map<number, Map<number, Scalar | FormulaCell>>;
  /** The rows the sheet hides (`<row hidden="1">`: by hand, by a filter or a collapsed outline), if any. */
  readonly hiddenRows?: ReadonlySet<number>;
  /** The constants holding a rich value (`vm`), as "row!col", if any: their `<v>` is only a plain fallback. */
  readonly richValues?: ReadonlySet<string>;
  /**
   * The sheet's cells were not read: nothing `fdq refresh` computes reads them (src/workbook/xlsx/sheet-reach.ts).
   * `rows` is then empty, and reading a cell of it is a fault of the reader, not an empty cell.
   */
  readonly unread?: true;
  /**
   * Only some of the sheet's cells were read: those `fdq refresh` computes and what they read
   * (src/workbook/xlsx/cell-reach.ts). Reading any other cell is a fault of the reader, not an empty cell;
   * `extent` is the whole sheet's (the last row and column holding a value or a formula).
   */
  readonly partial?: {
    has(row: number, col: number): boolean;
    readonly extent: { readonly rows: number; readonly cols: number };
  };
}

export interface DefinedName {
  readonly name: string;
  /** The sheet a sheet-scoped name belongs to (from `localSheetId`); undefined for a workbook name. */
  readonly scope?: string;
  /** The name's formula text as stored ("Inputs!$B$2+4", "0.08", "'My Sheet'!$A$1:$A$9"). */
  readonly text: string;
  readonly hidden: boolean;
}

export interface TableColumn {
  readonly name: string;
  /** A calculated column's formula (`calculatedColumnFormula`), if any. */
  readonly calculatedFormula?: string;
}

export interface Table {
  readonly name: string;
  readonly sheet: string;
  /** "A1:D20": header row included. */
  readonly ref: string;
  readonly headerRowCount: number;
  readonly totalsRowCount: number;
  readonly columns: readonly TableColumn[];
}

export interface WorkbookModel {
  /** In workbook order. */
  readonly sheets: readonly Sheet[];
  /** Every formula cell, sheet by sheet, row-major. */
  readonly formulas: readonly FormulaCell[];
  readonly names: readonly DefinedName[];
  readonly tables: readonly Table[];
  /** workbook.xml's `date1904`. */
  readonly date1904: boolean;
  /** External workbooks by their index as formulas write it ([1] is externalLinks[0]). */
  readonly externalBooks: number;
}

/** Excel compares sheet and name identifiers case-insensitively. */
export const sheetKey = (name: string): string => name.toLowerCase();
