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

/** Runs the association code the build appends to functions.ts, with the module's functions in scope. */
export async function loadFunctionsAsExcelDoes(): Promise<void> {
  const generated = await generateCustomFunctionsMetadata(FUNCTIONS_TS);
  if (generated.errors.length > 0) throw new Error(generated.errors.join("\n"));
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
}

export type CellOutcome = { value: unknown } | { code: string; message: string };

/**
 * Calls a registered function as Excel does and reports what the cell would show. Anything other than a
 * value or a CustomFunctions.Error (a bare exception) fails the test.
 */
export async function callCell(
  registry: Map<string, Registered>,
  id: string,
  ...args: unknown[]
): Promise<CellOutcome> {
  const fn = registry.get(id);
  if (!fn) throw new Error(`${id} was not associated`);
  try {
    return { value: await fn(...args) };
  } catch (err) {
    if (err instanceof FakeCustomFunctionsError) return { code: err.code, message: err.message };
    throw new Error(`${id} rejected with something other than CustomFunctions.Error: ${String(err)}`, {
      cause: err,
    });
  }
}

/** Matrix elements that are errors, as {code, message}, for comparisons. */
export function showErrors(matrix: unknown): unknown {
  return (matrix as unknown[][]).map((row) =>
    row.map((v) => (v instanceof FakeCustomFunctionsError ? { code: v.code, message: v.message } : v)),
  );
}
