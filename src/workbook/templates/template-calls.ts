// The FDQ calls of a template's sheet, as a refresh will make them: what the surfaces price with their client's
// estimate (the same pricing as the refresh estimate: src/api planner and pricing). A reference to a constant of
// the sheet is read as that constant; a reference to another FDQ cell (a sector id that FDQ.SECURITY finds) is
// not known before the refresh, so each referenced cell stands for one distinct value: the calls that read it
// are counted once per referenced cell, which is what the refresh asks when the cells differ.
import { findFdqCalls, readFdqCall, type FdqCall, type FormulaArg } from "../../functions/formula";
import type { TemplateSheet } from "./template-sheet";

/** The value a reference to a formula cell stands for while the sheet is priced. */
const standIn = (ref: string): string => `CELL${ref.replace(/\$/g, "").toUpperCase()}`;

export function templateCalls(sheet: TemplateSheet): FdqCall[] {
  const constants = new Map<string, FormulaArg>();
  for (const c of sheet.cells) {
    if (c.text !== undefined) constants.set(c.ref, c.text);
    if (c.number !== undefined) constants.set(c.ref, c.number);
  }
  const calls: FdqCall[] = [];
  for (const c of sheet.cells) {
    if (c.formula === undefined) continue;
    for (const span of findFdqCalls(c.formula)) {
      const call = readFdqCall(c.formula, { references: true, span });
      const args = call.args.map((a): FormulaArg => {
        if (a === null || typeof a !== "object") return a;
        const ref = a.ref.replace(/\$/g, "").toUpperCase();
        return constants.has(ref) ? (constants.get(ref) as FormulaArg) : standIn(ref);
      });
      calls.push({ name: call.name, args });
    }
  }
  return calls;
}
