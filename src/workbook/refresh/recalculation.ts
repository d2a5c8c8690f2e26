// Recalculating a workbook around its FDQ cells with fdq's own formula engine (src/workbook/engine/, see
// docs/formula-engine.md for why it is ours: HyperFormula's licence does not fit, fast-formula-parser computed
// wrong numbers silently).
//
// Which cells get a new value ("fresh"): every formula that calls FDQ, every formula the file holds without a
// cached result (a file written by a tool that does not calculate), and every formula that reads a fresh cell,
// transitively (found while evaluating: INDIRECT, OFFSET and INDEX reach what they reach). Any other formula
// keeps its cached result, and that result is what its dependents read. A formula the engine cannot compute
// (an unsupported function, another workbook) keeps its value; when it should have changed it is reported,
// with the functions that stopped it: right or untouched, never wrong. So is a formula that would be computed
// from a value Excel recomputes and fdq does not: a cell of a what-if data table, or a cached value that comes
// from a volatile function (TODAY, NOW, RAND...). A dependent of an FDQ cell that calls a volatile function the
// engine can compute (OFFSET, INDIRECT) is reported too, by cell and function: Excel computes it again whenever
// it calculates, so fdq leaves it to Excel; a formula using one that reads no FDQ answer is computed only when
// the file holds no value of it.
//
// A cell holding a rich value (`vm`: an FDQ card, a number carrying its source, a linked data type) is Excel's
// to refresh: its value lives in xl/richData/, which the refresh keeps byte for byte, and its `<v>` is only a
// fallback. Writing a plain number there would lose the card, and writing one while keeping `vm` would leave
// the card saying something else than the cell. So such a cell is left and reported when it would change (an
// FDQ call always would, and is left without a request), and so is a formula given a new value that reads one.
//
// How: passes over the formulas. A formula is evaluated once the formulas it reads are known (a precedent not
// evaluated yet is evaluated first, with an explicit stack: long chains must not overflow the call stack). An
// FDQ call whose answer is not fetched yet is recorded and leaves its cell (and the cells reading it) waiting;
// the caller fetches the recorded calls in one batch, and the next pass evaluates the waiting cells again.
import type { Outcome } from "../../functions/evaluate";
import type { FdqCall } from "../../functions/formula";
import { FormulaSyntaxError } from "../../formula/syntax-error";
import { intersect, toArr, type Host } from "../engine/context";
import { Evaluator } from "../engine/evaluator";
import { parseExcelFormula, type Node as Tree } from "../../formula/parser";
import { addressOf, addressOfCell, rectOf } from "../engine/references";
import { scanReferences, scanText, volatileCall } from "../engine/scan";
import { Arr, Ref, Unsupported, type Value } from "../engine/values";
import { callFdq, callKey, valueOfOutcome } from "./fdq-functions";
import { engineFormula } from "../formula-text";
import { ExcelError, sheetKey, type FormulaCell, type Scalar, type WorkbookModel } from "../model";
import type { CellResult } from "./cell-result";
import { previousSpills, SpillLayout } from "./spill-layout";
import { PENDING, Precedent, SkippedPrecedent, type Attempt, type Node } from "./recalculation-node";
import { StaleReads } from "./stale-reads";
import { isFormulaCell, WorkbookIndex } from "../workbook-index";

export type { CellResult } from "./cell-result";

/** Why a cell holding a rich value is left: the report's words. */
export const RICH_VALUE_LEFT =
  "holds a data type (an FDQ card or a number with its source): refreshed in Excel only";

export class Recalculation {
  private readonly nodes: Node[];
  private readonly byCell = new Map<FormulaCell, Node>();
  private readonly index: WorkbookIndex;
  private readonly evaluator: Evaluator;
  private readonly answers = new Map<string, Scalar | Scalar[][]>();
  private readonly asked = new Map<string, FdqCall>();
  private readonly refused = new Map<string, string>();
  private readonly spills: SpillLayout;
  private readonly previous: ReturnType<typeof previousSpills>;
  private readonly dataTables: FormulaCell[];
  /** Each cell a what-if data table fills ("sheet!row!col", sheet in lower case) -> the table's anchor. */
  private readonly tableCells = new Map<string, FormulaCell>();
  /** Whether this run may change what the data tables compute from (then their cells are not read). */
  private readonly tablesMayChange: boolean;
  private tableRead = false;
  private attempt: Attempt | undefined;
  private readonly stale: StaleReads<Node>;

  constructor(model: WorkbookModel) {
    this.index = new WorkbookIndex(model);
    this.previous = previousSpills(model);
    this.spills = new SpillLayout(model, this.previous);
    this.dataTables = model.formulas.filter((cell) => cell.kind === "dataTable");
    for (const anchor of this.dataTables) {
      const rect = rectOf(anchor.sheet, anchor.tableRange ?? addressOfCell(anchor.row, anchor.col));
      if (!rect) continue;
      for (let row = rect.top; row <= rect.bottom; row++)
        for (let col = rect.left; col <= rect.right; col++)
          this.tableCells.set(`${sheetKey(anchor.sheet)}!${row}!${col}`, anchor);
    }
    this.nodes = model.formulas
      .filter((cell) => cell.kind !== "dataTable")
      .map((cell) => {
        const { text, callsFdq } = engineFormula(cell.formula);
        return {
          cell,
          text,
          callsFdq,
          tree: undefined,
          state: "todo",
          fresh: false,
          value: null,
          placed: false,
          reason: "",
          functions: [],
        };
      });
    for (const node of this.nodes) this.byCell.set(node.cell, node);
    // Formulas whose result may spill go first, so that cells reading a spill read its new extent.
    this.nodes.sort((a, b) => Number(this.mayPlace(b)) - Number(this.mayPlace(a)));
    this.evaluator = new Evaluator(this.host());
    this.tablesMayChange =
      this.dataTables.length > 0 &&
      (this.nodes.some((n) => n.callsFdq || n.cell.cached === undefined) ||
        model.names.some((n) => engineFormula(n.text).callsFdq));
    // Nothing spills on a sheet read in part (cell-reach.ts builds a sheet whole where a result may spill, and a
    // result that would is skipped below): its cells' empty reads cannot go stale.
    this.stale = new StaleReads(
      this.nodes
        .filter((n) => this.mayPlace(n) && !this.index.sheet(n.cell.sheet)?.partial)
        .map((n) => n.cell),
    );
  }

  private mayPlace(node: Node): boolean {
    return node.callsFdq || node.cell.array !== undefined;
  }

  /** Evaluates every formula it can; answers the FDQ calls to fetch before the next pass (none: finished). */
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
      } else this.answers.set(callKey(call), valueOfOutcome(outcome));
    });
  }

  /** Calls `pass` returned that will not be fetched: the cells making them are skipped with `reason`. */
  refuse(calls: readonly FdqCall[], reason: string): void {
    for (const call of calls) this.refused.set(callKey(call), reason);
  }

  /** The formulas with a new value or skipped, in sheet order; formulas keeping their cached value are left out. */
  results(): CellResult[] {
    const results: CellResult[] = [];
    const anyFresh = this.nodes.some((n) => n.state === "done" && n.fresh);
    const order = new Map(this.index.model.formulas.map((cell, i) => [cell, i]));
    const nodes = [...this.nodes].sort((a, b) => (order.get(a.cell) ?? 0) - (order.get(b.cell) ?? 0));
    for (const node of nodes) {
      const { cell, state, fresh, value, placed, reason, functions } = node;
      if (state === "skipped") results.push({ cell, kind: "skipped", reason, functions });
      if (state !== "done" || !fresh) continue;
      const callsFdq = node.callsFdq || node.calledFdq === true;
      const spill = placed ? this.spills.placementOf(cell) : undefined;
      results.push(
        spill ? { cell, kind: "value", value, callsFdq, spill } : { cell, kind: "value", value, callsFdq },
      );
    }
    if (anyFresh || this.tableRead) results.push(...this.dataTableResults());
    return results;
  }

  /** Every cell of every what-if data table, reported: Excel recalculates them on open, fdq does not. */
  private dataTableResults(): CellResult[] {
    const results: CellResult[] = [];
    const later = "which fdq refresh does not compute (Excel recalculates it on open)";
    for (const anchor of this.dataTables) {
      const range = anchor.tableRange ?? addressOfCell(anchor.row, anchor.col);
      results.push({
        cell: anchor,
        kind: "skipped",
        reason: `a what-if data table (${range}), ${later}`,
        functions: ["TABLE"],
      });
      const rect = rectOf(anchor.sheet, range);
      if (!rect) continue;
      for (let row = rect.top; row <= rect.bottom; row++) {
        for (let col = rect.left; col <= rect.right; col++) {
          if (row === anchor.row && col === anchor.col) continue;
          if (this.index.content(anchor.sheet, row, col) === undefined) continue;
          results.push({
            cell: this.tableCell(anchor, row, col),
            kind: "skipped",
            reason: `a result of the what-if data table ${addressOf(anchor)} (${range}), ${later}`,
            functions: ["TABLE"],
          });
        }
      }
    }
    return results;
  }

  /** A cell a data table fills, as a formula cell of that table (its value is the table's result). */
  private tableCell(anchor: FormulaCell, row: number, col: number): FormulaCell {
    if (row === anchor.row && col === anchor.col) return anchor;
    const held = this.index.content(anchor.sheet, row, col);
    const cached = isFormulaCell(held) ? held.cached : (held ?? undefined);
    return { sheet: anchor.sheet, row, col, formula: anchor.formula, cached, kind: "dataTable" };
  }

  private current(): Attempt {
    if (!this.attempt) throw new Error("the formula engine read a cell outside an evaluation");
    return this.attempt;
  }

  private host(): Host {
    return {
      cell: (sheet, row, col) => this.cellValue(sheet, row, col),
      sheetName: (sheet) => this.index.sheet(sheet)?.name,
      extent: (sheet) => this.index.extent(sheet),
      name: (name, sheet) => this.index.name(name, sheet),
      table: (name) => this.index.table(name),
      tableAt: (sheet, row, col) => this.index.tableAt(sheet, row, col),
      spill: (sheet, row, col) => this.spillOf(sheet, row, col),
      date1904: this.index.model.date1904,
      isSubtotal: (sheet, row, col) => {
        const held = this.index.content(sheet, row, col);
        return isFormulaCell(held) && /(^|[^A-Za-z0-9_.])SUBTOTAL\s*\(/i.test(held.formula);
      },
      isHiddenRow: (sheet, row) => this.index.isHiddenRow(sheet, row),
      waits: () => this.current().waits,
      volatile: (fn) => {
        this.current().volatileCall ??= fn;
      },
      fdq: (name, args, ctx) =>
        callFdq(name, args, ctx, {
          argumentsIncomplete: () => this.current().pendingPrecedent,
          answerOf: (call) => this.answerOf(call),
        }),
    };
  }

  private answerOf(call: FdqCall): Scalar | Scalar[][] | undefined {
    // A formula calling FDQ, even through a defined name, gets a new value.
    const attempt = this.current();
    attempt.fresh = true;
    attempt.calledFdq = true;
    attempt.fromFdq = true;
    const key = callKey(call);
    const answer = this.answers.get(key);
    if (answer !== undefined) return answer;
    const refused = this.refused.get(key);
    if (refused !== undefined) {
      this.current().refused ??= refused;
      return new ExcelError("#N/A");
    }
    this.asked.set(key, call);
    this.current().pendingCall = true;
    this.current().waits++;
    return undefined;
  }

  /** Evaluates `start`, and first each precedent it finds not evaluated yet (a precedent found waiting is a
   * circular reference). */
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

  private skip(node: Node, reason: string, functions: string[] = []): void {
    node.state = "skipped";
    node.reason = reason;
    node.functions = functions;
  }

  /** One attempt; answers the precedent to evaluate first, if any. */
  private evaluate(node: Node): Node | undefined {
    const { cell } = node;
    const attempt: Attempt = {
      node,
      fresh: node.callsFdq || cell.cached === undefined,
      pendingPrecedent: false,
      pendingCall: false,
      refused: undefined,
      waits: 0,
      volatile: undefined,
      calledFdq: false,
      richRead: undefined,
      fromFdq: node.callsFdq,
      volatileCall: undefined,
    };
    if (cell.richValue && node.callsFdq) {
      this.skip(node, RICH_VALUE_LEFT);
      return undefined;
    }
    this.attempt = attempt;
    const ctx = this.evaluator.context(cell.sheet, cell.row, cell.col, cell.array !== undefined);
    let value: Value = null;
    let failure: Unsupported | undefined;
    let tree: Tree | undefined;
    try {
      node.tree ??= parseExcelFormula(node.text);
      tree = node.tree;
      value = this.evaluator.evaluate(tree, ctx);
      // A reference result is read here, so that what it reads counts for the formula's freshness.
      if (value instanceof Ref) value = cell.array !== undefined ? toArr(value, ctx) : intersect(value, ctx);
    } catch (err) {
      if (err instanceof Precedent) return this.stop(err.node);
      if (err instanceof SkippedPrecedent) {
        // The functions that stopped the precedent stopped this formula too.
        const { functions } = err.node;
        this.skip(
          node,
          err.dataTable
            ? `reads ${addressOf(err.node.cell)}, a cell of a what-if data table, which fdq refresh does not compute`
            : err.node.reason === RICH_VALUE_LEFT
              ? `reads ${addressOf(err.node.cell)}, which holds a data type: refreshed in Excel only`
              : `reads ${addressOf(err.node.cell)}, which was not evaluated${functions.length > 0 ? ` (it uses ${functions.join(", ")})` : ""}`,
          [...functions],
        );
        return this.stop(undefined);
      }
      failure = this.failureOf(err);
      if (tree && node.volatile === undefined) {
        const fn = volatileCall(tree, ctx);
        if (fn !== undefined) node.volatile = { fn, cell: addressOf(cell) };
      }
      // Whether the formula should have changed: read everything it refers to (a formula the parser cannot
      // read, token by token).
      if (!attempt.fresh) {
        try {
          if (tree) scanReferences(tree, ctx);
          else scanText(node.text, ctx);
        } catch (inner) {
          if (inner instanceof Precedent) return this.stop(inner.node);
          if (inner instanceof SkippedPrecedent) attempt.fresh = true;
          else if (inner instanceof Unsupported) attempt.fresh ||= inner.message.startsWith("volatile");
          else throw inner;
        }
      }
    }
    this.attempt = undefined;
    // The tree is dropped, even for a formula evaluated again in the next pass (parsed again then): while its
    // FDQ answers are fetched, 50,000 waiting trees would be about 28 MB held through the whole fetch.
    node.tree = undefined;
    if (attempt.pendingPrecedent || attempt.pendingCall) {
      node.state = "pending";
      return undefined;
    }
    node.calledFdq = attempt.calledFdq;
    node.fromFdq = attempt.fromFdq;
    if (cell.richValue && attempt.fresh) {
      this.skip(node, RICH_VALUE_LEFT);
      return undefined;
    }
    if (failure !== undefined || attempt.refused !== undefined) {
      // A formula nothing fresh flows into keeps its cached result: whether fdq can compute it does not matter.
      if (attempt.fresh) {
        const reason = attempt.refused ?? (failure as Unsupported).message;
        this.skip(node, reason, failure?.fn && attempt.refused === undefined ? [failure.fn] : []);
      } else {
        this.finish(node, false, cell.cached ?? null);
        node.volatile ??= attempt.volatile;
      }
    } else if (attempt.richRead !== undefined && attempt.fresh) {
      this.skip(node, `reads ${attempt.richRead}, which holds a data type: refreshed in Excel only`);
    } else if (attempt.volatileCall !== undefined && attempt.fromFdq) {
      const fn = attempt.volatileCall;
      this.skip(
        node,
        `uses ${fn}, which Excel computes again whenever it calculates (fdq refresh does not)`,
        [fn],
      );
    } else if (attempt.volatile !== undefined && attempt.fresh) {
      const { fn, cell: where } = attempt.volatile;
      this.skip(
        node,
        `reads ${where}, whose value comes from ${fn}, which Excel computes again whenever it calculates`,
        [fn],
      );
    } else if (attempt.fresh && this.spillsInPart(node, value)) {
      this.skip(
        node,
        "gives an array, which Excel spills from it: fdq refresh read only the cells its sheet's other formulas need",
      );
    } else {
      this.finish(node, attempt.fresh, attempt.fresh ? value : (cell.cached ?? null));
      if (!attempt.fresh) {
        const own = attempt.volatileCall;
        node.volatile ??=
          attempt.volatile ?? (own === undefined ? undefined : { fn: own, cell: addressOf(cell) });
      }
    }
    return undefined;
  }

  /**
   * Whether an FDQ formula's result would spill on a sheet read in part: the cells it would cover, and the formulas
   * reading them, may not have been built. cell-reach.ts builds whole every sheet where an FDQ result may spill;
   * this guards the rule, never writing a value it could not place as Excel would.
   */
  private spillsInPart(node: Node, value: Value): boolean {
    return (
      node.callsFdq &&
      value instanceof Arr &&
      (value.height > 1 || value.width > 1) &&
      this.index.sheet(node.cell.sheet)?.partial !== undefined
    );
  }

  private stop(next: Node | undefined): Node | undefined {
    this.attempt = undefined;
    return next;
  }

  private failureOf(err: unknown): Unsupported {
    if (err instanceof Unsupported) return err;
    if (err instanceof FormulaSyntaxError) return new Unsupported(`cannot be read: ${err.message}`);
    // A fault of the engine itself: the cell is kept and reported rather than given a doubtful value.
    return new Unsupported(`the formula engine failed (${err instanceof Error ? err.message : String(err)})`);
  }

  private finish(node: Node, fresh: boolean, result: Value): void {
    node.state = "done";
    node.fresh = fresh;
    node.placed = false;
    if (!fresh) {
      node.value = result instanceof Ref || result instanceof Arr ? null : result;
      return;
    }
    const { cell } = node;
    const value = result instanceof Ref ? null : result;
    // A formula reading an empty cell shows 0.
    const zero = (v: Scalar): Scalar => v ?? 0;
    const rows = value instanceof Arr ? value.rows.map((r) => r.map(zero)) : [[zero(value)]];
    const legacy = cell.array && !cell.array.dynamic ? this.previous.get(cell) : undefined;
    if (legacy) {
      node.placed = true;
      node.value = this.spills.fill(cell, legacy, rows);
    } else if (cell.array?.dynamic || (node.callsFdq && (rows.length > 1 || (rows[0]?.length ?? 0) > 1))) {
      node.placed = true;
      node.value = this.spills.place(cell, rows);
      const width = Math.max(...rows.map((r) => r.length));
      this.index.grow(cell.sheet, cell.row + rows.length - 1, cell.col + width - 1);
      if (this.spills.placementOf(cell)?.rows) this.reportStaleReaders(node, rows.length, width);
    } else {
      node.value = rows[0]?.[0] ?? 0;
    }
  }

  /** Formulas computed before this spill that read one of its cells as empty are reported, not written. */
  private reportStaleReaders(anchor: Node, height: number, width: number): void {
    const { sheet, row, col } = anchor.cell;
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (r === 0 && c === 0) continue;
        const stale = this.stale.staleAfterPlacing(
          anchor,
          sheet,
          row + r,
          col + c,
          (n) => n.state === "done",
        );
        for (const n of stale) {
          this.skip(
            n,
            `read a cell before the spill of ${addressOf(anchor.cell)} reached it (Excel recalculates it on open)`,
          );
        }
      }
    }
  }

  /** What a formula reads from a precedent formula cell. */
  private precedent(node: Node, attempt: Attempt): Scalar {
    switch (node.state) {
      case "done":
        this.stale.read(attempt.node, node);
        if (node.cell.richValue) attempt.richRead ??= addressOf(node.cell);
        if (node.fresh) attempt.fresh = true;
        if (node.fresh && node.fromFdq) attempt.fromFdq = true;
        if (node.volatile) attempt.volatile ??= node.volatile;
        return node.value;
      case "skipped":
        throw new SkippedPrecedent(node);
      case "pending":
        attempt.fresh = true;
        attempt.fromFdq = true;
        attempt.pendingPrecedent = true;
        attempt.waits++;
        return PENDING();
      default:
        throw new Precedent(node);
    }
  }

  private cellValue(sheetName: string, row: number, col: number): Scalar {
    const attempt = this.current();
    // A cell of an array this run may rewrite: its anchor is evaluated first.
    const owner = this.spills.ownerOf(sheetName, row, col);
    if (owner && owner !== attempt.node.cell) {
      const node = this.byCell.get(owner);
      if (node && node.state !== "done") this.precedent(node, attempt);
      if (node?.fresh) attempt.fresh = true;
      if (node?.fresh && node.fromFdq) attempt.fromFdq = true;
    }
    if (this.spills.has(sheetName, row, col)) {
      attempt.fresh = true;
      // A cell spilled by this run: its value is new, from FDQ when its anchor's is.
      const anchor = owner && this.byCell.get(owner);
      if (!anchor || anchor.fromFdq !== false) attempt.fromFdq = true;
      return this.spills.valueAt(sheetName, row, col) ?? null;
    }
    const table = this.tablesMayChange
      ? this.tableCells.get(`${sheetKey(sheetName)}!${row}!${col}`)
      : undefined;
    if (table) {
      // A data table's results are recomputed by Excel from what this run changes: not read as they are.
      this.tableRead = true;
      throw new SkippedPrecedent(this.tableNode(table, row, col), true);
    }
    const held = this.index.content(sheetName, row, col);
    if (isFormulaCell(held)) {
      const node = this.byCell.get(held);
      return node ? this.precedent(node, attempt) : (held.cached ?? null);
    }
    if (held === undefined || held === null) this.stale.readEmpty(attempt.node, sheetName, row, col);
    else if (this.index.isRichValue(sheetName, row, col))
      attempt.richRead ??= addressOf({ sheet: this.index.sheet(sheetName)?.name ?? sheetName, row, col });
    return held ?? null;
  }

  /** A data table's cell as a node left alone, for the report of the formula reading it. */
  private tableNode(anchor: FormulaCell, row: number, col: number): Node {
    return {
      cell: this.tableCell(anchor, row, col),
      text: "",
      callsFdq: false,
      tree: undefined,
      state: "skipped",
      fresh: false,
      value: null,
      placed: false,
      reason: "",
      functions: ["TABLE"],
    };
  }

  /** A1#: the range the dynamic array anchored at the cell covers now. */
  private spillOf(sheet: string, row: number, col: number): ReturnType<Host["spill"]> {
    const held = this.index.content(sheet, row, col);
    const node = isFormulaCell(held) ? this.byCell.get(held) : undefined;
    // The anchor is read even when A1# is #REF!: Excel computes the formula again when A1 changes.
    this.cellValue(sheet, row, col);
    if (!node || !node.cell.array?.dynamic) return new ExcelError("#REF!");
    const placement = node.placed ? this.spills.placementOf(node.cell) : undefined;
    if (placement && !placement.rows) return new ExcelError("#SPILL!");
    const rect = this.previous.get(node.cell);
    if (placement) {
      const height = placement.rows?.length ?? 1;
      const width = Math.max(1, ...(placement.rows ?? [[]]).map((r) => r.length));
      return {
        sheet: node.cell.sheet,
        top: row,
        left: col,
        bottom: row + height - 1,
        right: col + width - 1,
      };
    }
    return rect ?? { sheet: node.cell.sheet, top: row, left: col, bottom: row, right: col };
  }
}
