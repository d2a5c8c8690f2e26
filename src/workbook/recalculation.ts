// Recalculating a workbook around its FDQ cells with a real formula engine (fast-formula-parser, MIT).
//
// Why this engine: HyperFormula is GPL-3.0 or commercial, and this project is proprietary ("license":
// "UNLICENSED"), so it does not fit without buying a licence. fast-formula-parser is MIT, evaluates about 280
// Excel functions, and calls back for every cell, range and defined name it reads, which is what lets fdq
// serve the workbook's own values and find each formula's precedents while it evaluates.
//
// Which cells get a new value ("fresh"): every formula that calls FDQ, every formula the file holds without a
// cached result (a file written by a tool that does not calculate), and every formula that reads a fresh cell,
// transitively. Any other formula keeps its cached result, and that result is what its dependents read.
//
// How: passes over the formulas in sheet order. A formula is evaluated once the formulas it reads are known
// (a precedent not evaluated yet is evaluated first, with an explicit stack: long chains must not overflow the
// call stack). An FDQ call whose answer is not fetched yet is recorded and leaves its cell (and the cells
// reading it) waiting; the caller fetches the recorded calls in one batch, and the next pass evaluates the
// waiting cells again. So a workbook needs one batch per level of FDQ calls whose arguments read FDQ cells.
import FormulaParser, { FormulaError, MAX_COLUMN, type CellRef, type RangeRef } from "fast-formula-parser";
import { findFdqCalls, type FdqCall } from "../functions/formula";
import type { Outcome } from "../cli/evaluate";
import {
  ExcelError,
  sheetKey,
  type ErrorCode,
  type FormulaCell,
  type Scalar,
  type WorkbookModel,
} from "./model";
import { callKey, engineValueOfOutcome, fdqFunctions, type EngineValue } from "./fdq-functions";
import { engineFormula, EXTERNAL_NAME, type EngineFormula } from "./formula-text";
import { previousSpills, SpillLayout, type Placement } from "./spill-layout";
import { addressOf, cellPosition } from "./engine/references";

interface NamedRange {
  readonly sheet: string;
  readonly from: { row: number; col: number };
  readonly to: { row: number; col: number };
}

interface SheetCells {
  readonly name: string;
  readonly rows: ReadonlyMap<number, ReadonlyMap<number, Scalar | FormulaCell>>;
  readonly lastRow: number;
}

const isFormulaCell = (v: unknown): v is FormulaCell =>
  typeof v === "object" && v !== null && "formula" in v && "sheet" in v;

/** The engine's form of a cell's value. */
function engineValue(v: Scalar): EngineValue {
  return v instanceof ExcelError ? new FormulaError(v.code, v.message) : v;
}

/** The model's form of an engine value. */
function scalarOf(v: EngineValue): Scalar {
  if (v instanceof FormulaError) return new ExcelError(v.error as ErrorCode, v.message || undefined);
  if (Array.isArray(v)) return scalarOf(v[0]?.[0] ?? null);
  return v;
}

/** "'Sheet 2'!$A$1:$B$3" or "Data!A1" as a range; undefined for anything else (constants, formulas). */
function parseRangeText(text: string): NamedRange | undefined {
  const bang = text.lastIndexOf("!");
  if (bang < 0) return undefined;
  let sheet = text.slice(0, bang);
  if (sheet.startsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  const [first, last = first] = text.slice(bang + 1).split(":");
  const from = cellPosition(first ?? "");
  const to = cellPosition(last ?? "");
  return from && to ? { sheet, from, to } : undefined;
}

type State = "todo" | "waiting" | "pending" | "done" | "skipped";

interface Node {
  readonly cell: FormulaCell;
  readonly formula: EngineFormula;
  state: State;
  /** Done: whether the value is new in this run (else it is the cached one). */
  fresh: boolean;
  /** Done: the value dependents read (a spill's first value); fresh: the value written. */
  value: EngineValue;
  /** Done, fresh and spilling: the rows of the spill. */
  rows: EngineValue[][] | undefined;
  /** Skipped: why. */
  reason: string;
}

/** What one evaluation attempt of a formula ran into. */
interface Attempt {
  node: Node;
  fresh: boolean;
  /** A precedent to evaluate first. */
  missing: Node | undefined;
  /** A precedent waiting for an FDQ answer. */
  pendingPrecedent: boolean;
  /**
   * An FDQ call of this formula not answered yet. Unlike the flags above it does not stop the formula's other
   * FDQ calls from being recorded (=FDQ(...)-FDQ(...) asks both in one batch): an error in an argument makes
   * a call answer that error without being recorded.
   */
  pendingCall: boolean;
  /** A precedent that could not be evaluated. */
  skippedPrecedent: Node | undefined;
  /** Something this run cannot read: another workbook, an unknown name or sheet. */
  unreadable: string | undefined;
}

export type CellResult =
  | {
      readonly cell: FormulaCell;
      readonly kind: "value";
      /** The cell's own value (a spill's first value, or #SPILL!). */
      readonly value: Scalar;
      readonly callsFdq: boolean;
      /** For a result of several cells: where it spilled, or what blocked it. */
      readonly spill?: Placement;
    }
  | {
      readonly cell: FormulaCell;
      readonly kind: "skipped";
      readonly reason: string;
      /** The functions (upper case, without _xlfn.) that stopped it, if a function did. */
      readonly functions: readonly string[];
    };

/** Whether an engine formula is exactly one FDQ call (its result is the cell's, so a lifted array spills). */
function isWholeCall(text: string): boolean {
  const trimmed = text.trim();
  const spans = findFdqCalls(trimmed);
  return spans.length === 1 && spans[0]?.start === 0 && spans[0].end === trimmed.length;
}

/** The first line of an engine error, without its "#ERROR!:" prefix. */
function reasonOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "the formula engine failed";
  const unsupported = /Function (\S+) is not implemented/.exec(line);
  if (unsupported) return `unsupported function ${unsupported[1]}`;
  return `cannot be evaluated: ${line.trim()}`;
}

export class Recalculation {
  private readonly nodes: Node[];
  private readonly byCell = new Map<FormulaCell, Node>();
  private readonly parser: FormulaParser;
  private readonly answers = new Map<string, EngineValue>();
  private readonly asked = new Map<string, FdqCall>();
  private readonly refused = new Map<string, string>();
  private readonly spills: SpillLayout;
  private attempt: Attempt | undefined;

  private readonly sheets = new Map<string, SheetCells>();
  private readonly names = new Map<string, NamedRange>();

  constructor(private readonly model: WorkbookModel) {
    for (const sheet of model.sheets) {
      const lastRow = Math.max(0, ...sheet.rows.keys());
      this.sheets.set(sheetKey(sheet.name), { name: sheet.name, rows: sheet.rows, lastRow });
    }
    for (const name of model.names) {
      const range = parseRangeText(name.text);
      if (!range) continue;
      this.names.set(
        name.scope === undefined ? sheetKey(name.name) : `${sheetKey(name.scope)}!${sheetKey(name.name)}`,
        range,
      );
    }
    this.nodes = model.formulas
      .filter((cell) => cell.kind !== "dataTable")
      .map((cell) => ({
        cell,
        formula: engineFormula(cell.formula),
        state: "todo",
        fresh: false,
        value: null,
        rows: undefined,
        reason: "",
      }));
    for (const node of this.nodes) this.byCell.set(node.cell, node);
    this.spills = new SpillLayout(model, previousSpills(model));
    this.parser = new FormulaParser({
      functions: fdqFunctions({
        argumentsIncomplete: () => {
          const a = this.current();
          return (
            a.missing !== undefined ||
            a.pendingPrecedent ||
            a.skippedPrecedent !== undefined ||
            a.unreadable !== undefined
          );
        },
        answerOf: (call) => this.answerOf(call),
        canLift: () => {
          const a = this.current();
          if (isWholeCall(a.node.formula.text)) return true;
          a.unreadable ??=
            "a range lifted inside a larger formula (IFERROR, arithmetic...) is not supported by fdq refresh; " +
            "give the FDQ call a cell of its own";
          return false;
        },
      }),
      onCell: (ref) => this.cellValue(ref.sheet, ref.row, ref.col),
      onRange: (ref) => this.rangeValues(ref),
      onVariable: (name, sheet) => this.nameRef(name, sheet),
    });
  }

  /**
   * Evaluates every formula it can; answers the FDQ calls to fetch before the next pass (none: finished).
   */
  pass(): FdqCall[] {
    this.asked.clear();
    for (const node of this.nodes) if (node.state === "pending") node.state = "todo";
    for (const node of this.nodes) if (node.state === "todo") this.evaluateFrom(node);
    const calls = [...this.asked.values()];
    if (calls.length === 0) {
      // Nothing left to fetch, so nothing can still be waiting; guard against looping forever all the same.
      for (const node of this.nodes)
        if (node.state === "pending") this.skip(node, "waits for an FDQ answer that never came");
    }
    return calls;
  }

  /** Gives the answers of the calls `pass` returned, in its order. */
  answer(calls: readonly FdqCall[], outcomes: readonly Outcome[]): void {
    calls.forEach((call, i) => {
      const outcome = outcomes[i] as Outcome;
      // No answer (the network, the quota, the key, an untrusted answer): the cell keeps the value the
      // workbook holds, as in Excel, and is reported; its dependents keep theirs.
      if (!outcome.ok && outcome.noAnswer) {
        this.refused.set(callKey(call), `FDQ gave no answer (${outcome.error.message.replace(/\.$/, "")})`);
      } else this.answers.set(callKey(call), engineValueOfOutcome(outcome));
    });
  }

  /** The formulas with a new value or skipped, in sheet order; formulas keeping their cached value are left out. */
  results(): CellResult[] {
    const results: CellResult[] = [];
    for (const { cell, formula, state, fresh, value, rows, reason } of this.nodes) {
      if (state === "skipped") {
        const functions = [...reason.matchAll(/unsupported function (\S+)/g)].map((m) => m[1] as string);
        results.push({ cell, kind: "skipped", reason, functions });
      }
      if (state !== "done" || !fresh) continue;
      const spill = rows ? this.spills.placementOf(cell) : undefined;
      const { callsFdq } = formula;
      const v = scalarOf(value);
      results.push(
        spill
          ? { cell, kind: "value", value: v, callsFdq, spill }
          : { cell, kind: "value", value: v, callsFdq },
      );
    }
    return results;
  }

  private current(): Attempt {
    if (!this.attempt) throw new Error("the formula engine read a cell outside an evaluation");
    return this.attempt;
  }

  /** Calls `pass` returned that will not be fetched: the cells making them are skipped with `reason`. */
  refuse(calls: readonly FdqCall[], reason: string): void {
    for (const call of calls) this.refused.set(callKey(call), reason);
  }

  private answerOf(call: FdqCall): EngineValue | undefined {
    const key = callKey(call);
    const answer = this.answers.get(key);
    if (answer !== undefined) return answer;
    const refused = this.refused.get(key);
    if (refused !== undefined) {
      this.current().unreadable ??= refused;
      return FormulaError.NA;
    }
    this.asked.set(key, call);
    this.current().pendingCall = true;
    return undefined;
  }

  /** Evaluates `start`, and first each precedent it finds not evaluated yet (one at a time: a path, so a
   * precedent found waiting is a circular reference). */
  private evaluateFrom(start: Node): void {
    const stack = [start];
    start.state = "waiting";
    while (stack.length > 0) {
      const node = stack[stack.length - 1] as Node;
      const missing = this.evaluate(node);
      if (missing === undefined) {
        stack.pop();
      } else if (missing.state === "waiting") {
        this.skip(node, `circular reference through ${addressOf(missing.cell)}`);
        stack.pop();
      } else {
        missing.state = "waiting";
        stack.push(missing);
      }
    }
  }

  private skip(node: Node, reason: string): void {
    node.state = "skipped";
    node.reason = reason;
  }

  /** One attempt; answers the precedent to evaluate first, if any. */
  private evaluate(node: Node): Node | undefined {
    const { cell, formula } = node;
    const attempt: Attempt = {
      node,
      fresh: formula.callsFdq || cell.cached === undefined,
      missing: undefined,
      pendingPrecedent: false,
      pendingCall: false,
      skippedPrecedent: undefined,
      unreadable: undefined,
    };
    this.attempt = attempt;
    let value: EngineValue = null;
    let failure: string | undefined;
    try {
      const position = { sheet: cell.sheet, row: cell.row, col: cell.col };
      value = this.parser.parse(formula.text, position, formula.callsFdq) as EngineValue;
    } catch (err) {
      failure = reasonOf(err);
    } finally {
      this.attempt = undefined;
    }
    if (attempt.missing) return attempt.missing;
    if (attempt.skippedPrecedent) {
      this.skip(node, `reads ${addressOf(attempt.skippedPrecedent.cell)}, which was not evaluated`);
    } else if (attempt.pendingPrecedent || attempt.pendingCall) {
      node.state = "pending";
    } else if (failure !== undefined || attempt.unreadable !== undefined) {
      // A formula nothing fresh flows into keeps its cached result: whether fdq can evaluate it does not matter.
      if (attempt.fresh) this.skip(node, attempt.unreadable ?? (failure as string));
      else this.finish(node, false, engineValue(cell.cached ?? null));
    } else {
      this.finish(node, attempt.fresh, attempt.fresh ? value : engineValue(cell.cached ?? null));
    }
    return undefined;
  }

  private finish(node: Node, fresh: boolean, value: EngineValue): void {
    node.state = "done";
    node.fresh = fresh;
    if (
      fresh &&
      Array.isArray(value) &&
      node.formula.callsFdq &&
      (value.length > 1 || (value[0]?.length ?? 0) > 1)
    ) {
      node.rows = value;
      node.value = engineValue(
        this.spills.place(
          node.cell,
          value.map((r) => r.map(scalarOf)),
        ),
      );
      return;
    }
    node.rows = undefined;
    node.value = Array.isArray(value) ? (value[0]?.[0] ?? null) : value;
  }

  /** What a formula reads from a precedent formula cell. */
  private precedent(node: Node, attempt: Attempt): EngineValue {
    switch (node.state) {
      case "done":
        if (node.fresh) attempt.fresh = true;
        return node.value;
      case "skipped":
        attempt.skippedPrecedent ??= node;
        break;
      case "pending":
        attempt.fresh = true;
        attempt.pendingPrecedent = true;
        break;
      default:
        attempt.missing ??= node;
    }
    return FormulaError.NA;
  }

  private cellValue(sheetName: string, row: number, col: number): EngineValue {
    const attempt = this.current();
    const sheet = this.sheets.get(sheetKey(sheetName));
    if (!sheet) {
      // The engine's stand-in sheet of an external reference (see nameRef) is already reported.
      if (sheetName !== EXTERNAL_NAME)
        attempt.unreadable ??= `refers to sheet "${sheetName}", which is not in the workbook`;
      return null;
    }
    // A cell of a spill fdq wrote last time holds an old value: its anchor is evaluated first.
    const owner = this.spills.ownerOf(sheet.name, row, col);
    if (owner && owner !== attempt.node.cell) {
      const node = this.byCell.get(owner) as Node;
      if (node.state !== "done") return this.precedent(node, attempt);
    }
    const spilled = this.spills.valueAt(sheet.name, row, col);
    if (spilled !== undefined) {
      attempt.fresh = true;
      return engineValue(spilled);
    }
    const value = sheet.rows.get(row)?.get(col);
    if (isFormulaCell(value)) {
      const node = this.byCell.get(value);
      return node ? this.precedent(node, attempt) : engineValue(value.cached ?? null);
    }
    return engineValue(value ?? null);
  }

  private rangeValues(ref: RangeRef & { sheet: string }): EngineValue[][] {
    const sheet: SheetCells | undefined = this.sheets.get(sheetKey(ref.sheet));
    const lastRow = Math.min(ref.to.row, sheet?.lastRow ?? ref.from.row);
    const rows: EngineValue[][] = [];
    for (let row = ref.from.row; row <= lastRow; row++) {
      let lastCol = ref.to.col;
      if (lastCol >= MAX_COLUMN) lastCol = Math.max(ref.from.col, ...(sheet?.rows.get(row)?.keys() ?? []));
      const values: EngineValue[] = [];
      for (let col = ref.from.col; col <= lastCol; col++) values.push(this.cellValue(ref.sheet, row, col));
      rows.push(values);
    }
    return rows;
  }

  private nameRef(name: string, sheet: string): CellRef | RangeRef | null {
    const attempt = this.current();
    if (name.startsWith(EXTERNAL_NAME)) {
      const written = attempt.node.formula.external[Number(name.slice(EXTERNAL_NAME.length))];
      attempt.unreadable ??= `refers to another workbook (${written}), which fdq cannot read`;
      return { sheet: EXTERNAL_NAME, row: 1, col: 1 };
    }
    const range = this.names.get(`${sheetKey(sheet)}!${sheetKey(name)}`) ?? this.names.get(sheetKey(name));
    if (!range) {
      attempt.unreadable ??= `uses the name ${name}, which is not a defined name of a cell or range`;
      return null;
    }
    const single = range.from.row === range.to.row && range.from.col === range.to.col;
    return single
      ? { sheet: range.sheet, ...range.from }
      : { sheet: range.sheet, from: range.from, to: range.to };
  }
}
