// A WorkbookModel from a literal, for the engine's unit tests: "=A1+1" is a formula without a cached value,
// { f: "A1+1", v: 2 } one with, { f, v, array: "B2:B4" } an array anchor (dynamic unless cse is set),
// { f: "", v: 7, dataTable: "C2:D4" } a what-if data table's anchor filling C2:D4 (`true`: its own cell only).
import {
  type DefinedName,
  type FormulaCell,
  type Scalar,
  type Sheet,
  type Table,
  type WorkbookModel,
} from "../../../src/workbook/model";
import { cellPosition } from "../../../src/workbook/engine/references";

export type CellSpec =
  Scalar | { f: string; v?: Scalar; array?: string; cse?: boolean; dataTable?: boolean | string };

export interface ModelSpec {
  sheets: Record<string, Record<string, CellSpec>>;
  /** The rows each sheet hides. */
  hiddenRows?: Record<string, number[]>;
  names?: { name: string; text: string; scope?: string }[];
  tables?: Table[];
}

export function buildModel(spec: ModelSpec): WorkbookModel {
  const sheets: Sheet[] = [];
  const formulas: FormulaCell[] = [];
  Object.entries(spec.sheets).forEach(([name, cells], index) => {
    const rows = new Map<number, Map<number, Scalar | FormulaCell>>();
    const entries = Object.entries(cells)
      .map(([address, value]) => ({ position: cellPosition(address)!, value }))
      .sort((a, b) => a.position.row - b.position.row || a.position.col - b.position.col);
    for (const { position, value } of entries) {
      const { row, col } = position;
      let stored: Scalar | FormulaCell;
      if (typeof value === "string" && value.startsWith("=")) {
        stored = { sheet: name, row, col, formula: value.slice(1), cached: undefined };
      } else if (value !== null && typeof value === "object" && "f" in value) {
        stored = {
          sheet: name,
          row,
          col,
          formula: value.f,
          cached: value.v,
          ...(value.array ? { array: { ref: value.array, dynamic: !value.cse } } : {}),
          ...(value.dataTable ? { kind: "dataTable" as const } : {}),
          ...(typeof value.dataTable === "string" ? { tableRange: value.dataTable } : {}),
        };
      } else stored = value as Scalar;
      if (!rows.has(row)) rows.set(row, new Map());
      rows.get(row)!.set(col, stored);
      if (typeof stored === "object" && stored !== null && "formula" in stored) formulas.push(stored);
    }
    const hidden = spec.hiddenRows?.[name];
    sheets.push(hidden ? { name, index, rows, hiddenRows: new Set(hidden) } : { name, index, rows });
  });
  const names: DefinedName[] = (spec.names ?? []).map((n) => ({ ...n, hidden: false }));
  return { sheets, formulas, names, tables: spec.tables ?? [], date1904: false, externalBooks: 0 };
}
