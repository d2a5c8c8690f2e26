// The function table: every function fdq refresh computes, by the name Excel stores (without _xlfn.).
// A function not listed here stops the formula (it keeps its value and is reported by name).
import { aggregateFunctions } from "./aggregate";
import { conditionalFunctions } from "./conditional";
import { dateFunctions } from "./date";
import { dynamicFunctions } from "./dynamic";
import { financialFunctions } from "./financial";
import { logicalFunctions } from "./logical";
import { lookupFunctions } from "./lookup";
import { mathFunctions } from "./math";
import { regressionFunctions } from "./regression";
import type { FunctionTable } from "./table";
import { textFunctions } from "./text";

export const FUNCTIONS: FunctionTable = {
  ...aggregateFunctions,
  ...conditionalFunctions,
  ...dateFunctions,
  ...dynamicFunctions,
  ...financialFunctions,
  ...logicalFunctions,
  ...lookupFunctions,
  ...mathFunctions,
  ...regressionFunctions,
  ...textFunctions,
};

/** The names of the functions computed, sorted (for the docs and the report). */
export const SUPPORTED_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS).sort();

/**
 * Excel's volatile functions: Excel computes them again whenever it calculates, though nothing they read
 * changed. TODAY, NOW and the RAND family are left out of the table (their value changes with the clock or by
 * chance); OFFSET and INDIRECT are in it, so that what they reach is known, and the host is told each time one
 * is called (Host.volatile). A dependent of an FDQ cell that calls one, or is computed from one's cached value,
 * is reported, not written.
 */
export const VOLATILE_FUNCTIONS: ReadonlySet<string> = new Set([
  "TODAY",
  "NOW",
  "RAND",
  "RANDBETWEEN",
  "RANDARRAY",
  "OFFSET",
  "INDIRECT",
]);
