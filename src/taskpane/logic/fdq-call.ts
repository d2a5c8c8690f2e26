// From a cell's formula to the FDQ calls in it, with their cell-reference arguments replaced by the values of
// the cells they refer to, read from the workbook in batches under Excel on the web's 5 MB cap (cellValues).
// The FDQ-call reader is src/functions/formula.ts (over the one formula parser, src/formula/); this file adds
// what only the pane can do: read the referenced cells, and expand a call given a range into the calls Excel
// makes when it lifts it (one per cell of the result, src/functions/lifting.ts). A spilling function given a range of several cells answers
// #VALUE! without a request, with the message of ranges.ts.
import {
  findFdqCalls,
  readFdqCall,
  type CellRef,
  type FdqCall,
  type FdqCallWithRefs,
  type FormulaArg,
  type FormulaArgOrRef,
} from "../../functions/formula";
import { BEYOND_RANGE, isLiftable, isMultiCell, lift, type LiftArg } from "../../functions/lifting";
import { singleCell } from "../../functions/ranges";
import { FUNCTION_SPECS, type FunctionName } from "../../functions/signatures";
import type { CellSnapshot, CellValue, WorkbookAccess } from "../office/workbook";
import { isErrorValue } from "./excel-error";
import { messageOf } from "./message";
import { cellsOf, offsetOf } from "./range-ref";

/** One FDQ call of a formula as written (`text`), parsed (with the cells each argument reads) or with the reason it cannot be. */
export type ParsedCall =
  | {
      readonly ok: true;
      readonly text: string;
      readonly call: FdqCallWithRefs;
      /** Per argument, the addresses it reads row by row; undefined for a literal. */
      readonly reads: readonly (readonly (readonly string[])[] | undefined)[];
    }
  | { readonly ok: false; readonly text: string; readonly reason: string };

/** One argument of a resolved call: its parameter name, the value the function gets, and the cell it came from. */
export interface ArgInput {
  readonly name: string;
  readonly value: FormulaArg;
  readonly from?: string;
}

/** A call made once: no range of several cells among its arguments. */
export interface SingleCall {
  readonly ok: true;
  readonly kind: "call";
  readonly text: string;
  readonly call: FdqCall;
  readonly inputs: readonly ArgInput[];
}

/** One cell of a lifted call's result: the call Excel makes for it, or why it shows an error without one. */
export type LiftedCell =
  | {
      readonly ok: true;
      readonly address: string;
      readonly call: FdqCall;
      readonly inputs: readonly ArgInput[];
    }
  | { readonly ok: false; readonly address: string; readonly reason: string };

/** A scalar function given a range of several cells: Excel calls it once per cell of the result, which spills. */
export interface LiftedCall {
  readonly ok: true;
  readonly kind: "lifted";
  readonly text: string;
  readonly name: FunctionName;
  readonly rows: number;
  readonly columns: number;
  /** Row by row; each with the address of the cell it fills (the formula's cell is the first). */
  readonly cells: readonly LiftedCell[];
}

export type ResolvedCall =
  SingleCall | LiftedCall | { readonly ok: false; readonly text: string; readonly reason: string };

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

const isRef = (arg: FormulaArgOrRef): arg is CellRef => arg !== null && typeof arg === "object";

function parseCell(cell: CellSnapshot): ParsedCell {
  const formula = cell.formula;
  const spans = findFdqCalls(formula);
  const calls = spans.map((span): ParsedCall => {
    const text = formula.slice(span.start, span.end);
    try {
      const call = readFdqCall(formula, { references: true, span });
      const reads = call.args.map((a) => (isRef(a) ? cellsOf(a, cell.address) : undefined));
      return { ok: true, text, call, reads };
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

function referencesOf(parsed: ParsedCell): string[] {
  return parsed.calls.flatMap((c) => (c.ok ? c.reads.flatMap((grid) => grid?.flat() ?? []) : []));
}

/** One argument's value (or why there is none) as the function gets it from `from`. */
type Element = ArgInput | { readonly failure: string };

function readElement(
  name: string,
  fn: FunctionName,
  from: string,
  values: ReadonlyMap<string, CellValue>,
): Element {
  const value = values.get(from);
  if (value === undefined) return { failure: `${name} refers to ${from}, which does not exist.` };
  if (isErrorValue(value)) {
    return {
      failure: `${name} refers to ${from}, which shows ${value}: Excel passes that error on without running FDQ.${fn}.`,
    };
  }
  // An empty cell reaches the function as an omitted argument.
  return { name, value: value === "" ? null : value, from };
}

const failed = (e: Element): e is { failure: string } => "failure" in e;

/** The arguments as inputs, or the first reason one has no value (in argument order, as Excel reads them). */
function inputsOf(elements: readonly Element[]): readonly ArgInput[] | { failure: string } {
  const failure = elements.find(failed);
  return failure ?? elements.filter((e): e is ArgInput => !failed(e));
}

/** The one call of a call whose arguments are each one value, or why it makes no request. */
function oneCall(text: string, name: FunctionName, elements: readonly Element[]): ResolvedCall {
  const inputs = inputsOf(elements);
  if ("failure" in inputs) return { ok: false, text, reason: inputs.failure };
  return { ok: true, kind: "call", text, call: { name, args: inputs.map((i) => i.value) }, inputs };
}

/** The calls Excel makes when it lifts `name` over the ranges of `args`, one per cell of the spill. */
function liftedCall(
  text: string,
  name: FunctionName,
  args: readonly LiftArg<Element>[],
  formulaCell: string,
): LiftedCall {
  const { rows, columns, calls } = lift(args);
  const cells = calls.flatMap((line, r) =>
    line.map((elements, c): LiftedCell => {
      const address = offsetOf(formulaCell, r, c);
      if (elements === BEYOND_RANGE) {
        return {
          ok: false,
          address,
          reason: "Beyond the end of a smaller range of the call: Excel shows #N/A there without a call.",
        };
      }
      const inputs = inputsOf(elements);
      if ("failure" in inputs) return { ok: false, address, reason: inputs.failure };
      return { ok: true, address, call: { name, args: inputs.map((i) => i.value) }, inputs };
    }),
  );
  return { ok: true, kind: "lifted", text, name, rows, columns, cells };
}

function resolveCall(
  parsed: ParsedCall,
  formulaCell: string,
  values: ReadonlyMap<string, CellValue>,
): ResolvedCall {
  if (!parsed.ok) return parsed;
  const fn = parsed.call.name;
  const parameters = FUNCTION_SPECS[fn].parameters;
  const args: LiftArg<Element>[] = [];
  for (const [i, arg] of parsed.call.args.entries()) {
    const name = parameters[i]?.name ?? `argument ${i + 1}`;
    const grid = parsed.reads[i];
    if (!isRef(arg)) {
      args.push({ value: { name, value: arg } });
    } else if (!grid) {
      throw new Error(`${arg.ref} was not read`); // parseCell lists the cells of every reference
    } else if (!isMultiCell(grid)) {
      args.push({ value: readElement(name, fn, grid[0]?.[0] ?? "", values) });
    } else if (!isLiftable(fn)) {
      try {
        singleCell(grid, name, fn);
      } catch (err) {
        return {
          ok: false,
          text: parsed.text,
          reason: `The cell shows #VALUE! without a request: ${messageOf(err)}`,
        };
      }
    } else {
      args.push({ cells: grid.map((line) => line.map((from) => readElement(name, fn, from, values))) });
    }
  }
  const single = args.flatMap((a) => ("value" in a ? [a.value] : []));
  if (single.length === args.length) return oneCall(parsed.text, fn, single);
  return liftedCall(parsed.text, fn, args, formulaCell);
}

/**
 * The FDQ calls of each cell with their references resolved; every referenced cell of every cell (each cell of
 * a range) is read in one batch (one Excel.run, in chunks under the 5 MB cap), and only those cells.
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
