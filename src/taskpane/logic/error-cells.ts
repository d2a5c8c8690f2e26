// The FDQ cells in error across the workbook, each with the reason behind its error value: the cell's calls
// are resolved and run again through the functions' own implementation on the shared client, and the failure
// is described as the cell describes it.
import { describeFailure, type ExcelErrorValue } from "../../functions/errors";
import { formatFormula } from "../../functions/formula";
import { evaluateCall } from "../../functions/impl";
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { EXCEL_REASONS, isErrorValue } from "./excel-error";
import { resolveCells, type ResolvedCell } from "./fdq-call";
import type { PaneClient } from "./pane-client";

export interface ErrorCell {
  readonly address: string;
  /** The error value the cell shows, e.g. "#N/A". */
  readonly error: string;
  readonly reason: string;
}

export interface ErrorCellDeps {
  readonly client: PaneClient;
  readonly workbook: Pick<WorkbookAccess, "cellValues">;
}

const isFailure = (value: unknown): value is ExcelErrorValue =>
  typeof value === "object" && value !== null && "error" in value && "message" in value;

/**
 * The reason a call fails now, or undefined when it succeeds. A SERIES or DATASET anchor shows its first
 * element, so a failed first year is that cell's reason.
 */
async function failureOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    const result = await run();
    const first = Array.isArray(result) ? (result[0] as unknown[] | undefined)?.[0] : result;
    return isFailure(first) ? first.message : undefined;
  } catch (err) {
    return describeFailure(err).message;
  }
}

/**
 * Asks the shared client again for the calls of each cell in error: "does not exist" answers are remembered
 * for the refresh day, so most reasons come without a request; a transient failure is asked once more. One
 * ask per distinct call, however many cells share it.
 */
export async function findErrorCells(
  cells: readonly CellSnapshot[],
  { client, workbook }: ErrorCellDeps,
): Promise<ErrorCell[]> {
  const runs = new Map<string, Promise<string | undefined>>();
  const reasonOf = async ({ cell, calls, plain }: ResolvedCell): Promise<string> => {
    const error = String(cell.value);
    const excelReason = EXCEL_REASONS[error];
    if (excelReason) return excelReason;
    for (const resolved of calls) {
      // A lifted call's formula cell shows the first cell of its spill: that cell's call is the reason.
      const call = resolved.ok && resolved.kind === "lifted" ? resolved.cells[0] : resolved;
      if (!call) continue;
      if (!call.ok) return `${plain ? "Cannot" : `${resolved.text} cannot`} be planned: ${call.reason}`;
      const key = formatFormula(call.call);
      let failure = runs.get(key);
      if (!failure) {
        failure = failureOf(() => evaluateCall(client, call.call, describeFailure));
        runs.set(key, failure);
      }
      const reason = await failure;
      if (reason !== undefined) return plain ? reason : `FDQ.${call.call.name}: ${reason}`;
    }
    return plain
      ? "The request succeeds now: refresh to update the cell."
      : `The FDQ ${calls.length === 1 ? "call succeeds" : "calls succeed"} now: the ${error} comes from the rest of the formula, or refresh to update the cell.`;
  };
  const inError = await resolveCells(
    cells.filter((c) => isErrorValue(c.value)),
    workbook,
  );
  return Promise.all(
    inError.map(async (resolved) => ({
      address: resolved.cell.address,
      error: String(resolved.cell.value),
      reason: await reasonOf(resolved),
    })),
  );
}
