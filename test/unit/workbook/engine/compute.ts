// Runs the recalculation over a small workbook for the engine's unit tests: formulas written "=..." have no
// cached value, so each is computed; FDQ calls are answered by `answer` (by default #N/A "no data").
import type { Outcome } from "../../../../src/functions/evaluate";
import type { FdqCall } from "../../../../src/functions/formula";
import { addressOfCell } from "../../../../src/workbook/engine/references";
import type { Scalar } from "../../../../src/workbook/model";
import { Recalculation, type CellResult } from "../../../../src/workbook/refresh/recalculation";
import { buildModel, type ModelSpec } from "../build-model";

export interface Computed {
  /** Values by "Sheet!A1" (spilled cells too); a skipped cell is absent. */
  readonly values: Map<string, Scalar>;
  readonly results: CellResult[];
  /** The FDQ calls asked, batch by batch. */
  readonly batches: FdqCall[][];
}

export const noData = (): Outcome => ({
  ok: false,
  error: { error: "#N/A", message: "no data" },
  noAnswer: false,
});

export function compute(spec: ModelSpec, answer: (call: FdqCall) => Outcome = noData): Computed {
  const recalculation = new Recalculation(buildModel(spec));
  const batches: FdqCall[][] = [];
  for (let calls = recalculation.pass(); calls.length > 0; calls = recalculation.pass()) {
    batches.push(calls);
    recalculation.answer(calls, calls.map(answer));
  }
  const results = recalculation.results();
  const values = new Map<string, Scalar>();
  for (const r of results) {
    if (r.kind !== "value") continue;
    values.set(`${r.cell.sheet}!${addressOfCell(r.cell.row, r.cell.col)}`, r.value);
    r.spill?.rows?.forEach((row, i) =>
      row.forEach((v, j) => {
        if (i > 0 || j > 0) values.set(`${r.cell.sheet}!${addressOfCell(r.cell.row + i, r.cell.col + j)}`, v);
      }),
    );
  }
  return { values, results, batches };
}

/** The value of one formula `f` (without "=") on sheet S, given the sheet's other cells. */
export function valueOf(
  f: string,
  cells: ModelSpec["sheets"][string] = {},
  extra: Omit<ModelSpec, "sheets"> = {},
): Scalar {
  const { values, results } = compute({ sheets: { S: { ...cells, Z100: `=${f}` } }, ...extra });
  const skipped = results.find((r) => r.kind === "skipped" && r.cell.row === 100 && r.cell.col === 26);
  if (skipped && skipped.kind === "skipped") throw new Error(`skipped: ${skipped.reason}`);
  return values.get("S!Z100") as Scalar;
}

/** An error's code, or the value itself (for toEqual). */
export const plain = (v: Scalar | undefined): unknown =>
  typeof v === "object" && v !== null ? { error: v.code } : v;
