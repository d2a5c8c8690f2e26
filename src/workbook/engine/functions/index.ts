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
 * Functions deliberately left out of the table: their value changes whenever Excel calculates, though nothing
 * they read changed. A formula calling one, or computed from one's cached value, is reported.
 */
export const VOLATILE_FUNCTIONS: ReadonlySet<string> = new Set([
  "TODAY",
  "NOW",
  "RAND",
  "RANDBETWEEN",
  "RANDARRAY",
]);
