// What the recalculation answers for each formula it gave a new value to or had to leave.
import type { FormulaCell, Scalar } from "../model";
import type { Placement } from "./spill-layout";

export type CellResult =
  | {
      readonly cell: FormulaCell;
      readonly kind: "value";
      /** The cell's own value (a spill's first value, or #SPILL!). */
      readonly value: Scalar;
      readonly callsFdq: boolean;
      /** For an array result (dynamic array, legacy array formula, lifted FDQ call): where it landed. */
      readonly spill?: Placement;
    }
  | {
      readonly cell: FormulaCell;
      readonly kind: "skipped";
      readonly reason: string;
      /** The functions (upper case, without _xlfn.) that stopped it, if a function did. */
      readonly functions: readonly string[];
    };
