// The period each FDQ cell asks for, before and after a refresh, for the change report's "new period": a
// formula whose year comes from another cell (the latest fiscal year a series shows, a year an input rolls)
// asks for another period once that cell moves. A formula's FDQ calls are found by evaluating it with fdq's
// formula engine over a view of the workbook: once with the values the workbook held (before), once with the
// values the refresh wrote (after). No call is made: the FDQ functions only record their resolved arguments,
// and the period of each is read from the requests it makes (src/functions/requests.ts).
import type { FdqRequest, ResolvedPeriod } from "../../api";
import { ANNUAL, isRelativePeriod, periodLabel as labelOf, relativeText } from "../../catalog";
import type { FdqCall } from "../../functions/formula";
import { requestsOf } from "../../functions/requests";
import type { Host } from "../engine/context";
import { Evaluator } from "../engine/evaluator";
import { parseExcelFormula } from "../../formula/parser";
import { callFdq } from "../refresh/fdq-functions";
import { engineFormula } from "../formula-text";
import { ExcelError, sheetKey, type FormulaCell, type Scalar, type WorkbookModel } from "../model";
import { isFormulaCell, WorkbookIndex } from "../workbook-index";
import type { CellWrites } from "../xlsx/patch";

/** "FY2023", "Q2 FY2023", "TTM to Q2 FY2023": how an analyst names a fiscal period (the catalog's words). */
export function periodLabel(p: { year: number; quarter?: number | null; ttm?: number | null }): string {
  if (p.ttm) return labelOf({ kind: "ttm", n: p.ttm }, p.year);
  if (p.quarter) return labelOf({ kind: "quarter", n: p.quarter }, p.year);
  return labelOf(ANNUAL, p.year);
}

/** "FY2025", "Q3 FY2025", "TTM to Q2 FY2025": what a relative period resolved to, named as above. */
export function resolvedLabel(r: Pick<ResolvedPeriod, "year" | "period" | "periodtype">): string {
  if (r.periodtype === "QUARTERLY") return periodLabel({ year: r.year, quarter: r.period });
  if (r.periodtype === "TTM") return periodLabel({ year: r.year, ttm: r.period });
  return periodLabel({ year: r.year });
}

/** A request's period, or undefined for requests without one (ratings, coverage, sector's relative years). */
export function requestPeriod(request: FdqRequest): string | undefined {
  if (request.kind !== "datapoint" && request.kind !== "dataset") return undefined;
  const { year } = request.request;
  // A relative period (FY0, FQ-1, LTM) names the same words before and after; what it resolved to is the
  // request module's to say (a relative period that moved is reported through its resolution).
  if (typeof year === "number") return periodLabel({ ...request.request, year });
  if (typeof year === "string") return year.toUpperCase();
  return isRelativePeriod(year) ? relativeText(year) : undefined;
}

/** The periods `calls` ask, distinct, joined with "; "; undefined when none has one. */
export async function periodsOf(calls: readonly FdqCall[]): Promise<string | undefined> {
  const labels: string[] = [];
  for (const call of calls) {
    const requests = await requestsOf(call).catch(() => [] as FdqRequest[]);
    for (const r of requests) {
      const label = requestPeriod(r);
      if (label !== undefined && !labels.includes(label)) labels.push(label);
    }
  }
  return labels.length > 0 ? labels.join("; ") : undefined;
}

/** Whether a request names a relative period (FY0, FQ-1, LTM): what it asks moves with the refresh day. */
export function isRelativeRequest(request: FdqRequest): boolean {
  return (
    (request.kind === "datapoint" || request.kind === "dataset") && isRelativePeriod(request.request.year)
  );
}

/** A request's identity, for matching a call's requests with those the refresh answered. */
export const requestId = (request: FdqRequest): string => JSON.stringify(request);

/**
 * The periods `requests` ask, distinct, joined with "; " ("FY2024; FY2025"), each relative period as `resolved`
 * says it resolved ("FY2025"); `periods` is undefined when one relative period has no resolution (its request
 * failed, or was not made), so nothing is compared on it, or when none has a period. The pane (from the cache's
 * answers) and `fdq refresh` (from the answers it noted) name a cell's periods after a refresh by it.
 */
export function periodsOfRequests(
  requests: readonly FdqRequest[],
  resolved: (request: FdqRequest) => string | undefined,
): { readonly relative: boolean; readonly periods: string | undefined } {
  const labels: string[] = [];
  let relative = false;
  let complete = true;
  for (const r of requests) {
    let label: string | undefined;
    if (isRelativeRequest(r)) {
      relative = true;
      label = resolved(r);
      if (label === undefined) complete = false;
    } else label = requestPeriod(r);
    if (label !== undefined && label !== "" && !labels.includes(label)) labels.push(label);
  }
  return { relative, periods: complete && labels.length > 0 ? labels.join("; ") : undefined };
}

/** The FDQ calls each formula makes with the workbook's values; `writes` (after a refresh) override them. */
export function callsOf(
  model: WorkbookModel,
  cells: readonly FormulaCell[],
  writes?: CellWrites,
): Map<FormulaCell, FdqCall[]> {
  const read = callReader(model, writes);
  return new Map(cells.map((cell) => [cell, read(cell)]));
}

/**
 * `callsOf` one formula at a time: the caller keeps only the calls it still needs (a refresh reads every FDQ
 * cell's calls, 50,000 in a large model, and holding them all at once is memory).
 */
export function callReader(model: WorkbookModel, writes?: CellWrites): (cell: FormulaCell) => FdqCall[] {
  const index = new WorkbookIndex(model);
  const written = new Map<string, Map<number, Map<number, { value: Scalar | undefined }>>>();
  for (const [sheet, rows] of writes ?? []) written.set(sheetKey(sheet), rows);
  let recorded: FdqCall[] = [];
  const host: Host = {
    cell: (sheet, row, col) => {
      const write = written.get(sheetKey(sheet))?.get(row)?.get(col);
      if (write) return write.value ?? null;
      const held = index.content(sheet, row, col);
      return isFormulaCell(held) ? (held.cached ?? null) : (held ?? null);
    },
    sheetName: (sheet) => index.sheet(sheet)?.name,
    extent: (sheet) => index.extent(sheet),
    name: (name, sheet) => index.name(name, sheet),
    table: (name) => index.table(name),
    tableAt: (sheet, row, col) => index.tableAt(sheet, row, col),
    spill: () => new ExcelError("#REF!"),
    date1904: model.date1904,
    isSubtotal: () => false,
    isHiddenRow: (sheet, row) => index.isHiddenRow(sheet, row),
    // No call is answered here: a lazy function's condition that reads one evaluates as Excel would on
    // the values the workbook holds.
    waits: () => 0,
    fdq: (name, args, ctx) =>
      callFdq(name, args, ctx, {
        argumentsIncomplete: () => false,
        answerOf: (call) => {
          recorded.push(call);
          return undefined;
        },
      }),
  };
  const evaluator = new Evaluator(host);
  return (cell) => {
    recorded = [];
    try {
      const ctx = evaluator.context(cell.sheet, cell.row, cell.col, cell.array !== undefined);
      // Parsed here, not through the engine's shared cache of trees: each tree is used once, and the cache
      // would keep every FDQ cell's tree of a refresh alive.
      evaluator.evaluate(parseExcelFormula(engineFormula(cell.formula).text), ctx);
    } catch {
      // A formula the engine cannot read has no period to compare: its calls so far are kept.
    }
    return recorded;
  };
}
