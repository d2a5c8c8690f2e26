// Steps the task pane suites share (taskpane.test.ts, taskpane-desktop.test.ts and the cases both run,
// reference-cases.ts): the pane's tabs and search, and a connected pane with cells typed in.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { sleep } from "../../src/api";
import { ARTIFACTS, enterCells, type BrowserRig, type ConnectedOptions, type OpenPane } from "./harness";

/** Connected, with these cells typed into the workbook and calculated (inputs before the formulas that read them). */
export async function openWithCells(
  rig: BrowserRig,
  cells: Record<string, string | number>,
  options: ConnectedOptions = {},
): Promise<OpenPane> {
  const pane = await rig.openConnected(options);
  await enterCells(pane.page, cells);
  return pane;
}

/** Units as the pane writes them: 9,973. */
export const fmt = (n: number): string => n.toLocaleString("en-US");

/** Waits until the page's GET of `url` has been answered. */
export async function waitAnswered(pane: OpenPane, url: string, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !pane.answered.includes(url);) {
    if (Date.now() - started > timeoutMs) throw new Error(`no answer to ${url} in ${timeoutMs} ms`);
    await sleep(20);
  }
}

export async function tab(page: Page, name: "Find" | "Cell" | "Workbook" | "Connect"): Promise<void> {
  await page.getByRole("tab", { name }).click();
}

export async function resultNames(page: Page, count: number): Promise<string[]> {
  const rows = page.getByTestId("datapoint-result");
  await rows.first().waitFor();
  const names = await rows.evaluateAll((els) => els.map((e) => e.firstElementChild?.textContent ?? ""));
  return names.slice(0, count);
}

export async function search(page: Page, query: string): Promise<void> {
  await page.getByTestId("datapoint-query").fill(query);
}

/** The path of a screenshot named `file` under test/artifacts (the folder made if missing). */
export function artifact(file: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, file);
}
