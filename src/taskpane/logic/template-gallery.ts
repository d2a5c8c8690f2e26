// The template gallery's logic: a template built for the tickers the analyst typed, and what filling it costs,
// priced by the client's estimate as the refresh estimate prices the workbook's cells (today's cache counted).
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
  return { sheet, units: estimate.units, requests: estimate.requestsNeeded };
}

/** The preview's grid: the sheet's first rows and columns as text (a formula shows as what it asks). */
export function previewGrid(sheet: TemplateSheet, rows = 8, columns = 4): string[][] {
  const grid = Array.from({ length: rows }, () => Array.from({ length: columns }, () => ""));
  for (const cell of sheet.cells) {
    const m = /^([A-Z]+)(\d+)$/.exec(cell.ref);
    if (!m) continue;
    const col = [...(m[1] as string)].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
    const row = Number(m[2]) - 1;
    if (row >= rows || col >= columns) continue;
    const formula = cell.formula;
    // An FDQ cell shows what it asks (its datapoint, field or rating), other formulas as written.
    const fdq = formula === undefined ? undefined : /^=FDQ\.([A-Z]+)\((.*)\)$/.exec(formula);
    const args = fdq ? [...(fdq[2] as string).matchAll(/"([^"]*)"/g)].map((m) => m[1] as string) : [];
    const asked = fdq?.[1] === "DATAPOINT" ? `${args[2]} ${args[3]}` : args[1];
    const shown = formula === undefined ? (cell.text ?? String(cell.number ?? "")) : (asked ?? formula);
    (grid[row] as string[])[col] = shown;
  }
  return grid;
}
