// Loads src/functions/functions.ts the way Excel's runtime gets it: the functions.json generator reads
// the JSDoc, the webpack plugin's loader appends the CustomFunctions.associate calls, and those calls
// run against a CustomFunctions global defined here (Excel's exists only inside Excel).
import { readFileSync } from "node:fs";
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import CustomFunctionsMetadataPlugin from "custom-functions-metadata-plugin";

export const FUNCTIONS_TS = path.resolve(__dirname, "../../../src/functions/functions.ts");

/** Excel's error object: a code from CustomFunctions.ErrorCode and an optional message. */
export class FakeCustomFunctionsError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message);
  }
}

const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

type Registered = (...args: unknown[]) => unknown;

export function installCustomFunctionsGlobal(): Map<string, Registered> {
  const registry = new Map<string, Registered>();
  Object.assign(globalThis, {
    CustomFunctions: {
      associate: (id: string, fn: Registered) => registry.set(id, fn),
      Error: FakeCustomFunctionsError,
      ErrorCode: ERROR_CODES,
    },
  });
  return registry;
}

export function removeCustomFunctionsGlobal(): void {
  delete (globalThis as { CustomFunctions?: unknown }).CustomFunctions;
}

/** Each function's parameters as functions.json declares them: true for a matrix ("dimensionality"). */
export type MatrixParameters = Map<string, boolean[]>;

interface GeneratedFunction {
  id: string;
  parameters: { dimensionality?: string }[];
}

/**
 * Runs the association code the build appends to functions.ts, with the module's functions in scope; answers
 * which parameters functions.json declares as matrices, which Excel needs to know how to pass a range.
 */
export async function loadFunctionsAsExcelDoes(): Promise<MatrixParameters> {
  const generated = await generateCustomFunctionsMetadata(FUNCTIONS_TS);
  if (generated.errors.length > 0) throw new Error(generated.errors.join("\n"));
  const declared = (JSON.parse(generated.metadataJson) as { functions: GeneratedFunction[] }).functions;
  CustomFunctionsMetadataPlugin.generateResults[FUNCTIONS_TS] = generated;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the plugin's loader is CommonJS only
  const loader = require("custom-functions-metadata-plugin/lib/loader.js") as (
    this: unknown,
    source: string,
  ) => string;
  const source = readFileSync(FUNCTIONS_TS, "utf8");
  const appended = loader
    .call({ getOptions: () => ({ input: FUNCTIONS_TS, file: FUNCTIONS_TS }) }, source)
    .slice(source.length);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest transpiles the TypeScript module on require
  const module = require(FUNCTIONS_TS) as Record<string, unknown>;
  const names = Object.keys(module).filter((n) => typeof module[n] === "function");
  new Function("CustomFunctions", ...names, appended)(
    (globalThis as { CustomFunctions?: unknown }).CustomFunctions,
    ...names.map((n) => module[n]),
  );
  return new Map(declared.map((f) => [f.id, f.parameters.map((p) => p.dimensionality === "matrix")]));
}

export type CellOutcome = { value: unknown } | { code: string; message: string };

/**
 * Where Excel runs: an empty referenced cell reaches a parameter typed `any` as 0 on the desktop (Windows)
 * and as null on the web (office-js#4702). An omitted argument is null on both.
 */
export type EmptyCellMode = "desktop" | "web";
export const EMPTY_CELL_MODES: readonly EmptyCellMode[] = ["desktop", "web"];

/** An argument that references an empty cell (what Excel passes depends on the mode). */
export const EMPTY: unique symbol = Symbol("an empty referenced cell");

/** An argument that references a block of cells, e.g. A2:A4 (EMPTY for its empty cells). */
export class CellRange {
  constructor(readonly cells: readonly (readonly unknown[])[]) {}
}
export const range = (cells: readonly (readonly unknown[])[]): CellRange => new CellRange(cells);

/**
 * What Excel passes each call as its last argument, after every declared parameter (an omitted one is null):
 * on a host with CustomFunctionsRuntime 1.5 `isInValuePreview` says whether the call previews part of a
 * formula being edited (its result is shown beside the formula, never written to the cell); an older host
 * passes no such property.
 */
export type Invocation = { functionName: string; isInValuePreview?: boolean };
export type InvocationKind = "committed" | "preview" | "older host";

function invocationOf(id: string, kind: InvocationKind): Invocation {
  if (kind === "older host") return { functionName: id };
  return { functionName: id, isInValuePreview: kind === "preview" };
}

export interface ExcelCaller {
  /**
   * Calls a registered function as Excel does and reports what the cell would show: a matrix parameter gets
   * its argument as a matrix (a single value as 1x1), a range given to scalar parameters is array-lifted
   * (one call per cell, the outcomes in the range's shape; several ranges are paired cell by cell and a
   * single-row or single-column one is repeated along the other, as Excel broadcasts). Anything other than
   * a value or a CustomFunctions.Error (a bare exception) fails the test.
   */
  cell(id: string, ...args: unknown[]): Promise<CellOutcome>;
  /** The outcomes of a lifted call, one per cell of the broadcast ranges. */
  lifted(id: string, ...args: unknown[]): Promise<CellOutcome[][]>;
  /** What Excel's formula value preview shows for the call, computed as `cell` computes it (one call). */
  preview(id: string, ...args: unknown[]): Promise<CellOutcome>;
  /** The call as a host without CustomFunctionsRuntime 1.5 makes it (no isInValuePreview). */
  olderHost(id: string, ...args: unknown[]): Promise<CellOutcome>;
}

export function excelCaller(
  registry: Map<string, Registered>,
  matrixParameters: MatrixParameters,
  mode: EmptyCellMode,
): ExcelCaller {
  const emptyValue = mode === "desktop" ? 0 : null;
  const scalar = (v: unknown): unknown => (v === EMPTY ? emptyValue : v);
  const asMatrix = (v: unknown): unknown => {
    if (v instanceof CellRange) return v.cells.map((row) => row.map(scalar));
    return v === null || v === undefined ? null : [[scalar(v)]];
  };

  async function invoke(id: string, args: unknown[], kind: InvocationKind): Promise<CellOutcome> {
    const fn = registry.get(id);
    if (!fn) throw new Error(`${id} was not associated`);
    const declared = matrixParameters.get(id)!.length;
    const padded = [...args, ...Array<null>(Math.max(0, declared - args.length)).fill(null)];
    try {
      return { value: await fn(...padded, invocationOf(id, kind)) };
    } catch (err) {
      if (err instanceof FakeCustomFunctionsError) return { code: err.code, message: err.message };
      throw new Error(`${id} rejected with something other than CustomFunctions.Error: ${String(err)}`, {
        cause: err,
      });
    }
  }

  /** The calls Excel makes: one, or one per cell of the (broadcast) ranges given to scalar parameters. */
  function calls(id: string, args: unknown[]): unknown[][][] {
    const matrix = matrixParameters.get(id);
    if (!matrix) throw new Error(`${id} has no metadata`);
    const shaped = args.map((a, i) => (matrix[i] ? asMatrix(a) : a));
    const lifted = shaped.filter((a, i): a is CellRange => !matrix[i] && a instanceof CellRange);
    const rows = Math.max(1, ...lifted.map((r) => r.cells.length));
    const columns = Math.max(1, ...lifted.map((r) => r.cells[0]?.length ?? 1));
    const at = (a: unknown, r: number, c: number): unknown => {
      if (!(a instanceof CellRange)) return scalar(a);
      const row = a.cells.length === 1 ? a.cells[0] : a.cells[r];
      const cells = row ?? [];
      const v = cells.length === 1 ? cells[0] : cells[c];
      // Outside a smaller range's shape Excel shows #N/A; no test relies on it, so it is refused here.
      if (v === undefined) throw new Error("ranges of different shapes are not modelled");
      return scalar(v);
    };
    return Array.from({ length: rows }, (_, r) =>
      Array.from({ length: columns }, (_, c) => shaped.map((a, i) => (matrix[i] ? a : at(a, r, c)))),
    );
  }

  const one = async (id: string, args: unknown[], kind: InvocationKind): Promise<CellOutcome> => {
    const all = calls(id, args);
    if (all.length === 1 && all[0]?.length === 1) return invoke(id, all[0][0] ?? [], kind);
    throw new Error(`${id} was given a range: use lifted()`);
  };
  return {
    cell: (id, ...args) => one(id, args, "committed"),
    lifted: (id, ...args) =>
      Promise.all(calls(id, args).map((row) => Promise.all(row.map((a) => invoke(id, a, "committed"))))),
    preview: (id, ...args) => one(id, args, "preview"),
    olderHost: (id, ...args) => one(id, args, "older host"),
  };
}

/** Matrix elements that are errors, as {code, message}, for comparisons. */
export function showErrors(matrix: unknown): unknown {
  return (matrix as unknown[][]).map((row) =>
    row.map((v) => (v instanceof FakeCustomFunctionsError ? { code: v.code, message: v.message } : v)),
  );
}
