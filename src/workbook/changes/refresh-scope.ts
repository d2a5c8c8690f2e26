// Which FDQ cells a refresh of part of a workbook takes by what they show, for the task pane's scopes and
// `fdq refresh --only errors|stale` alike: the cells in error, and the stale cells. The surfaces read what the
// rules need (Office in the pane, the package in the CLI: src/taskpane/logic/scope-cells.ts,
// src/cli/scoped-model.ts) and keep their own scopes by place (the active sheet or selection, --sheet NAME).
//
// What "stale" means (docs/refresh.md, "What stale means"): an FDQ cell is stale when its value is not today's answer to its
// requests. That is so when one of its requests has no answer of today's refresh day in the day cache (none at
// all, or one the quota saver kept from an earlier day), or when the cache holds today's answers but the cell
// shows another value (it was computed on an earlier day and not since). Finding out sends nothing: only the
// cache is read. The host reads the requests and the value (Office in the pane, the package in the CLI). The
// value is compared as the change report compares values (changes.ts): a cell showing today's value shows no
// change against it (an error shown for an error answered is no change, whatever their codes).
import { ExcelError, isErrorCode } from "../model";
import { classify, reportValue, type ReportValue } from "./changes";

/** The cells a refresh may keep to by what they show: those in error, or the stale ones. */
export type CellFilter = "errors" | "stale";

/** The filter in a sentence's middle, for both surfaces: "Refreshed 4 FDQ cells in error". */
export const FILTER_PHRASES: Readonly<Record<CellFilter, string>> = {
  errors: " in error",
  stale: " from an older refresh day",
};

/** Whether a cell shows an Excel error: an ExcelError read from the file, or the code Office reads ("#N/A"). */
export function showsError(value: unknown): boolean {
  return value instanceof ExcelError || (typeof value === "string" && isErrorCode(value));
}

/** One request of a cell as the day cache knows it (the request module's RequestPlan). */
export interface CachedAnswer {
  /** Whether the cache answers the request without sending it. */
  readonly cached: boolean;
  /** The refresh day the cached answer was fetched on, when known. */
  readonly fetchedOn?: string | undefined;
}

/** Whether the cache holds today's answer to a request: cached, and not fetched on an earlier refresh day. */
export function isTodaysAnswer(answer: CachedAnswer, today: string): boolean {
  return answer.cached && (answer.fetchedOn === undefined || answer.fetchedOn >= today);
}

/** What is known of one FDQ cell for the rule. */
export interface CellStaleness {
  /** Each request the cell's calls make, as the cache knows it (a request that cannot be made is left out). */
  readonly answers: readonly CachedAnswer[];
  /**
   * Whether the value the cell shows is what today's answers give: false when it is not, undefined when it was
   * not compared (some request has no answer of today, or the host cannot evaluate the cell's formula alone).
   */
  readonly showsTodaysValue?: boolean | undefined;
}

/** A value as the change report compares it: a cell's (an ExcelError or "#N/A" text for an error) or an answer's. */
export function comparedValue(value: unknown): ReportValue {
  return value instanceof ExcelError ? { error: value.code } : reportValue(value);
}

/**
 * Whether a cell holding `held` shows `today`, the value today's answers give: no change between them as the
 * change report sees one (numbers to 15 significant digits, an error for an error of any code), and an error is not taken for the
 * empty value an answer may give.
 */
export function showsValue(held: unknown, today: unknown): boolean {
  const old = comparedValue(held);
  const now = comparedValue(today);
  const isError = (v: ReportValue): boolean => typeof v === "object" && v !== null;
  return classify(old, now) === undefined && (!isError(old) || isError(now));
}

/**
 * Whether an FDQ cell is stale: one of its requests has no answer of today, or it shows another value than
 * today's answers give. A cell that makes no request (its arguments are refused before any request) is not:
 * refreshing it changes nothing.
 */
export function isStale(cell: CellStaleness, today: string): boolean {
  if (cell.answers.some((a) => !isTodaysAnswer(a, today))) return true;
  return cell.showsTodaysValue === false;
}
