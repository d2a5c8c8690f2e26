// The template gallery's logic: a template built for the tickers the analyst typed, and what filling it costs,
// priced by the client's estimate as the refresh estimate prices the workbook's cells (today's cache counted).
import { columnNumber } from "../../formula/grid";
import { readFdqCall, type FdqCallWithRefs } from "../../functions/formula";
import { requestsOf } from "../../functions/requests";
import {
  buildTemplate,
  templateCalls,
  type TemplateDefinition,
  type TemplateSheet,
} from "../../workbook/templates";
import type { PaneClient } from "./pane-client";

/** The tickers of what the analyst typed: separated by commas, spaces or semicolons. */
export const tickersOf = (text: string): string[] => text.split(/[\s,;]+/).filter((t) => t !== "");

export interface TemplatePreview {
  readonly sheet: TemplateSheet;
  /** Quota units filling it costs today, and the requests it sends; undefined without a client. */
  readonly units?: number;
  readonly requests?: number;
  /** The day's coverage list, not in today's cache, decides some tickers' requests: units is the most. */
  readonly atMost?: boolean;
}

/** The sheet for these tickers and its price; throws TemplateParamsError saying what is wrong with them. */
export async function previewTemplate(
  template: TemplateDefinition,
  tickers: string,
  client: Pick<PaneClient, "estimate"> | undefined,
  datapoints = "",
): Promise<TemplatePreview> {
  const chosen = datapoints.split(/[\s,;]+/).filter((d) => d !== "");
  const sheet = buildTemplate(template, { tickers: tickersOf(tickers), datapoints: chosen });
  if (!client) return { sheet };
  const requests = (await Promise.all(templateCalls(sheet).map((call) => requestsOf(call)))).flat();
  const estimate = client.estimate(requests);
  return {
    sheet,
    units: estimate.units,
    requests: estimate.requestsNeeded,
    ...(estimate.ifListed && { atMost: true }),
  };
}

/** What an FDQ cell asks (its datapoint and period, or its field, rating or datapoint); undefined for another formula. */
function askedBy(formula: string): string | undefined {
  let call: FdqCallWithRefs;
  try {
    call = readFdqCall(formula, { references: true });
  } catch {
    return undefined;
  }
  const text = (i: number): string | undefined => {
    const arg = call.args[i];
    return typeof arg === "string" || typeof arg === "number" ? String(arg) : undefined;
  };
  return call.name === "DATAPOINT" ? `${text(2)} ${text(3)}` : text(1);
}

/** The preview's grid: the sheet's first rows and columns as text (a formula shows as what it asks). */
export function previewGrid(sheet: TemplateSheet, rows = 8, columns = 4): string[][] {
  const grid = Array.from({ length: rows }, () => Array.from({ length: columns }, () => ""));
  for (const cell of sheet.cells) {
    const m = /^([A-Z]+)(\d+)$/.exec(cell.ref);
    if (!m) continue;
    const col = columnNumber(m[1] as string) - 1;
    const row = Number(m[2]) - 1;
    if (row >= rows || col >= columns) continue;
    const formula = cell.formula;
    const shown =
      formula === undefined ? (cell.text ?? String(cell.number ?? "")) : (askedBy(formula) ?? formula);
    (grid[row] as string[])[col] = shown;
  }
  return grid;
}
