// What a recalculation gives a workbook model when every FDQ call is answered with a number of its own, as the
// recalculation's caller does: the reach tests compare a model read in part with the same workbook read whole.
import type { Outcome } from "../../src/functions/evaluate";
import type { FdqCall } from "../../src/functions/formula";
import { addressOf } from "../../src/workbook/engine/references";
import type { WorkbookModel } from "../../src/workbook/model";
import { Recalculation } from "../../src/workbook/refresh/recalculation";

/** Each result as "A1 value" or "A1 reason", in the recalculation's order. */
export function recalculated(model: WorkbookModel): string[] {
  const recalculation = new Recalculation(model);
  const answer = (call: FdqCall): Outcome => ({ ok: true, value: JSON.stringify(call.args).length });
  for (let calls = recalculation.pass(); calls.length > 0; calls = recalculation.pass())
    recalculation.answer(calls, calls.map(answer));
  return recalculation
    .results()
    .map((r) => `${addressOf(r.cell)} ${r.kind === "value" ? JSON.stringify(r.value) : r.reason}`);
}
