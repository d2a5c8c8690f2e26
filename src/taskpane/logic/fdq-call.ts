// From a cell's formula to the FDQ calls in it, with their cell-reference arguments replaced by the values of
// the cells they refer to, read from the workbook in one batch. The formula grammar belongs to
// src/functions/formula.ts; this file adds what only the pane can do: read the referenced cells.
import {
  findFdqCalls,
  parseFormula,
  type CellRef,
  type FdqCall,
  type FdqCallWithRefs,
  type FormulaArg,
  type FormulaArgOrRef,
} from "../../functions/formula";
import { FUNCTION_SPECS } from "../../functions/signatures";
import { cellAddress, parseAddress } from "../office/a1";
import type { CellSnapshot, CellValue, WorkbookAccess } from "../office/workbook";
import { isErrorValue } from "./excel-error";
import { messageOf } from "./message";

/** One FDQ call of a formula as written (`text`), parsed or with the reason it cannot be. */
export type ParsedCall =
  | { readonly ok: true; readonly text: string; readonly call: FdqCallWithRefs }
  | { readonly ok: false; readonly text: string; readonly reason: string };

/** One argument of a resolved call: its parameter name, the value the function gets, and the cell it came from. */
export interface ArgInput {
  readonly name: string;
  readonly value: FormulaArg;
  readonly from?: string;
}

export type ResolvedCall =
  | {
      readonly ok: true;
      readonly text: string;
      readonly call: FdqCall;
      readonly inputs: readonly ArgInput[];
    }
  | { readonly ok: false; readonly text: string; readonly reason: string };

export interface ResolvedCell {
  readonly cell: CellSnapshot;
  readonly calls: readonly ResolvedCall[];
  /** The formula is exactly one FDQ call: the cell shows that call's answer. */
  readonly plain: boolean;
}

interface ParsedCell {
  readonly cell: CellSnapshot;
  readonly calls: readonly ParsedCall[];
  readonly plain: boolean;
}

function parseCell(cell: CellSnapshot): ParsedCell {
  const formula = cell.formula;
  const spans = findFdqCalls(formula);
  const calls = spans.map((span): ParsedCall => {
    const text = formula.slice(span.start, span.end);
    try {
      return { ok: true, text, call: parseFormula(formula, { references: true, span }) };
    } catch (err) {
      return { ok: false, text, reason: messageOf(err) };
    }
  });
  const only = spans.length === 1 ? spans[0] : undefined;
  const plain =
    only !== undefined &&
    /^=\s*$/.test(formula.slice(0, only.start)) &&
    formula.slice(only.end).trim() === "";
  return { cell, calls, plain };
}

/** A reference as written ("$A2", "Sheet2!A1") as a sheet-qualified address, relative to the formula's own sheet. */
function qualify(ref: string, formulaCell: string): string {
  const target = parseAddress(ref.includes("!") ? ref : `${sheetPart(formulaCell)}!${ref}`);
  return cellAddress(target);
}

/** The sheet part of a sheet-qualified address, quoted as written ("'My Sheet'"). */
function sheetPart(address: string): string {
  return address.slice(0, address.lastIndexOf("!"));
}

const isRef = (arg: FormulaArgOrRef): arg is CellRef => arg !== null && typeof arg === "object";

function referencesOf(parsed: ParsedCell): string[] {
  return parsed.calls.flatMap((c) =>
    c.ok ? c.call.args.flatMap((a) => (isRef(a) ? [qualify(a.ref, parsed.cell.address)] : [])) : [],
  );
}

function resolveCall(
  parsed: ParsedCall,
  formulaCell: string,
  values: ReadonlyMap<string, CellValue>,
): ResolvedCall {
  if (!parsed.ok) return parsed;
  const parameters = FUNCTION_SPECS[parsed.call.name].parameters;
  const inputs: ArgInput[] = [];
  for (const [i, arg] of parsed.call.args.entries()) {
    const name = parameters[i]?.name ?? `argument ${i + 1}`;
    if (!isRef(arg)) {
      inputs.push({ name, value: arg });
      continue;
    }
    const from = qualify(arg.ref, formulaCell);
    const value = values.get(from);
    if (value === undefined) {
      return { ok: false, text: parsed.text, reason: `${name} refers to ${from}, which does not exist.` };
    }
    if (isErrorValue(value)) {
      return {
        ok: false,
        text: parsed.text,
        reason: `${name} refers to ${from}, which shows ${value}: Excel passes that error on without running FDQ.${parsed.call.name}.`,
      };
    }
    // An empty cell reaches the function as an omitted argument.
    inputs.push({ name, value: value === "" ? null : value, from });
  }
  return {
    ok: true,
    text: parsed.text,
    call: { name: parsed.call.name, args: inputs.map((i) => i.value) },
    inputs,
  };
}

/**
 * The FDQ calls of each cell with their references resolved; every referenced cell of every cell is read in one
 * batch (one Excel.run), and only those cells.
 */
export async function resolveCells(
  cells: readonly CellSnapshot[],
  workbook: Pick<WorkbookAccess, "cellValues">,
): Promise<ResolvedCell[]> {
  const parsed = cells.map(parseCell);
  const addresses = [...new Set(parsed.flatMap(referencesOf))];
  const values = addresses.length > 0 ? await workbook.cellValues(addresses) : new Map<string, CellValue>();
  return parsed.map((p) => ({
    cell: p.cell,
    plain: p.plain,
    calls: p.calls.map((c) => resolveCall(c, p.cell.address, values)),
  }));
}
