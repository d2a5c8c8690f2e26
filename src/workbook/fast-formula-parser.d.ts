// Types for the part of fast-formula-parser (MIT, no types of its own) that fdq refresh uses: the evaluating
// parser with its cell, range and name callbacks, custom functions, and its FormulaError.
declare module "fast-formula-parser" {
  export interface CellRef {
    sheet?: string;
    row: number;
    col: number;
  }

  export interface RangeRef {
    sheet?: string;
    from: { row: number; col: number };
    to: { row: number; col: number };
  }

  export interface Position {
    sheet: string;
    row: number;
    col: number;
  }

  /** An argument as the parser hands it to a custom function. */
  export interface FunctionArg {
    value: unknown;
    isArray: boolean;
    isCellRef?: boolean;
    isRangeRef?: boolean;
    omitted?: boolean;
  }

  export interface ParserConfig {
    functions?: Record<string, (...args: FunctionArg[]) => unknown>;
    onCell?: (ref: CellRef & { sheet: string }) => unknown;
    onRange?: (ref: RangeRef & { sheet: string }) => unknown[][];
    onVariable?: (name: string, sheet: string) => CellRef | RangeRef | null | undefined;
  }

  export class FormulaError extends Error {
    constructor(error: string, message?: string, details?: unknown);
    readonly error: string;
    static readonly DIV0: FormulaError;
    static readonly NA: FormulaError;
    static readonly NAME: FormulaError;
    static readonly NULL: FormulaError;
    static readonly NUM: FormulaError;
    static readonly REF: FormulaError;
    static readonly VALUE: FormulaError;
  }

  export const MAX_ROW: number;
  export const MAX_COLUMN: number;

  export default class FormulaParser {
    constructor(config?: ParserConfig);
    /** Evaluates `formula` (without its "="); throws a FormulaError when it cannot be parsed or evaluated. */
    parse(formula: string, position: Position, allowReturnArray?: boolean): unknown;
    static readonly FormulaError: typeof FormulaError;
  }
}
