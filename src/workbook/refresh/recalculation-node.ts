// The recalculation's bookkeeping for one formula and for one attempt to evaluate it.
import type { Node as Tree } from "../../formula/parser";
import { ExcelError, type FormulaCell, type Scalar } from "../model";

export type State = "todo" | "waiting" | "pending" | "done" | "skipped";

/** A volatile function (upper case) and the cell ("Model!B2") whose formula calls it. */
export interface Volatile {
  readonly fn: string;
  readonly cell: string;
}

export interface Node {
  readonly cell: FormulaCell;
  readonly text: string;
  readonly callsFdq: boolean;
  /** The syntax tree, parsed at each attempt and kept only while a precedent is evaluated first. */
  tree: Tree | undefined;
  state: State;
  /** Done: whether the value is new in this run (else it is the cached one). */
  fresh: boolean;
  /** Done: the value dependents read (a spill's first value). */
  value: Scalar;
  /** Done and fresh: whether its result is placed as an array (spill or legacy array range). */
  placed: boolean;
  /** Skipped: why, and the functions that stopped it. */
  reason: string;
  functions: string[];
  /**
   * Done with its cached value: the volatile function (TODAY, RAND...) its value comes from, directly or
   * through what it reads, and the cell calling it. Excel gives it a new value whenever it calculates,
   * so a formula given a new value by this run must not be computed from it.
   */
  volatile?: Volatile;
  /** Whether an evaluation called FDQ (directly, or through a defined name). */
  calledFdq?: boolean;
  /** Done and fresh: whether its new value comes from an FDQ answer (not only from a missing cached value). */
  fromFdq?: boolean;
}

/** What one evaluation attempt of a formula ran into. */
export interface Attempt {
  readonly node: Node;
  fresh: boolean;
  /** A precedent waiting for an FDQ answer (its placeholder was read). */
  pendingPrecedent: boolean;
  /** An FDQ call of this formula not answered yet; its other calls are still recorded in this pass. */
  pendingCall: boolean;
  /** A refused FDQ call: why. */
  refused: string | undefined;
  /** How many waiting values (pending precedents, unanswered calls) it has read. */
  waits: number;
  /** A volatile value it read (see Node.volatile). */
  volatile: Volatile | undefined;
  /** Whether it called FDQ. */
  calledFdq: boolean;
  /** The first cell holding a rich value (a data type) it read, "Model!B2": its `<v>` is only a fallback. */
  richRead: string | undefined;
  /** Whether what it computes from depends on an FDQ answer: its own call, or a precedent's. */
  fromFdq: boolean;
  /** A volatile function the engine computes (OFFSET, INDIRECT) that the formula itself calls. */
  volatileCall: string | undefined;
}

/** Thrown to evaluate a precedent first. */
export class Precedent {
  constructor(readonly node: Node) {}
}
/** Thrown when a precedent could not be evaluated (or is a result of a what-if data table: `dataTable`). */
export class SkippedPrecedent {
  constructor(
    readonly node: Node,
    readonly dataTable = false,
  ) {}
}

export const PENDING = (): ExcelError => new ExcelError("#N/A", "waiting for an FDQ answer");
