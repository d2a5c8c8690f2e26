// The FDQ cells in error across the workbook, each with the reason behind its error value.
import type { DatapointRequest } from "../../api";
import type { CellSnapshot } from "../office/workbook";
import { datapointRequestsOf, parseCell } from "./fdq-call";
import type { PaneClient } from "./pane-client";
import { messageOf } from "./message";

export interface ErrorCell {
  readonly address: string;
  /** The error value the cell shows, e.g. "#N/A". */
  readonly error: string;
  readonly reason: string;
}

const EXCEL_ERROR =
  /^#(N\/A|VALUE!|NAME\?|NUM!|REF!|DIV\/0!|NULL!|SPILL!|CALC!|BUSY!|CONNECT!|FIELD!|BLOCKED!|UNKNOWN!)$/;

export function isErrorValue(value: unknown): value is string {
  return typeof value === "string" && EXCEL_ERROR.test(value);
}

/** What Excel itself means by an error value when the request module has nothing to add. */
const EXCEL_REASONS: Readonly<Record<string, string>> = {
  "#NAME?": "Excel does not know the FDQ functions here: the add-in's functions are not loaded.",
  "#BUSY!": "Still calculating.",
  "#SPILL!": "The result cannot spill: the cells it needs below or to the right are not empty.",
  "#CALC!": "Excel could not calculate the result.",
};

function fallbackReason(error: string): string {
  return EXCEL_REASONS[error] ?? `The cell shows ${error}.`;
}

/**
 * Asks the shared client again for each DATAPOINT cell in error: errors the service gave for "does not
 * exist" are remembered for the refresh day, so most reasons come without a request. One ask per
 * distinct request, however many cells share it.
 */
export async function findErrorCells(
  cells: readonly CellSnapshot[],
  client: PaneClient,
): Promise<ErrorCell[]> {
  const reasons = new Map<string, Promise<string>>();
  const reasonOf = async (cell: CellSnapshot, error: string): Promise<string> => {
    const parsed = parseCell(cell.formula);
    if (!parsed.ok) return parsed.message;
    let request: DatapointRequest | undefined;
    let key: string;
    try {
      // A SERIES anchor shows its first year's answer: that is the one to explain.
      request = datapointRequestsOf(parsed.call)?.[0];
      if (!request) return fallbackReason(error);
      key = client.planDatapoint(request).key;
    } catch (err) {
      return messageOf(err);
    }
    let reason = reasons.get(key);
    if (!reason) {
      reason = client
        .datapoint(request)
        .then(() => "The request succeeds now: refresh to update the cell.", messageOf);
      reasons.set(key, reason);
    }
    return reason;
  };
  const inError = cells.filter((c) => isErrorValue(c.value));
  return Promise.all(
    inError.map(async (cell) => {
      const error = String(cell.value);
      return { address: cell.address, error, reason: await reasonOf(cell, error) };
    }),
  );
}
