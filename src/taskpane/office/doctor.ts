// The formula doctor's reads and writes through Excel's JavaScript API: every formula cell that calls an FDQ
// function in any form (as Excel shows it, _xldudf_FDQ_ and [2]! included), read sheet by sheet in blocks under
// Excel on the web's 5 MB cap (workbook-reads.ts); and formulas entered again, one batch per call, each cell
// only when it still holds the formula the doctor read (an edit made meanwhile is never overwritten).
import { callsFdqFunction } from "../../functions/formula-repair";
import { cellAddress, parseAddress } from "./a1";
import { isPayloadTooLarge, type SheetBlock } from "./batched-read";
import { asCellValue, readWorkbookBlocks, type CellSnapshot } from "./workbook-reads";

/** One formula to enter in place of another. */
export interface FormulaChange {
  /** Sheet-qualified ("Sheet1!B2", "'My Sheet'!B2"). */
  readonly address: string;
  /** The formula the cell must hold now, as Excel shows it; otherwise it is left alone. */
  readonly from: string;
  readonly to: string;
}

export type FormulaChangeOutcome =
  /** Entered; `formula` is the cell's formula as Excel shows it afterwards. */
  | { readonly address: string; readonly status: "written"; readonly formula: string }
  /** The cell holds another formula now (or the sheet is gone): left alone. */
  | { readonly address: string; readonly status: "changed" }
  /** Excel refused the formula (a cell of a legacy array formula, a protected sheet): its message. */
  | { readonly address: string; readonly status: "failed"; readonly reason: string };

const isFormula = (value: unknown): value is string => typeof value === "string" && value.startsWith("=");

/** The cells of a block whose formula calls an FDQ function in any form. */
function formulaCellsOf(block: SheetBlock): CellSnapshot[] {
  const cells: CellSnapshot[] = [];
  block.formulas.forEach((line, i) =>
    line.forEach((formula, j) => {
      if (!isFormula(formula) || !callsFdqFunction(formula)) return;
      const address = cellAddress({ sheet: block.sheet, row: block.row + i, column: block.column + j });
      cells.push({ address, formula, value: asCellValue(block.values[i]?.[j]) });
    }),
  );
  return cells;
}

/** Every formula cell of the workbook calling an FDQ function in any form, with the value it shows. */
export async function readFdqFormulaCells(context: Excel.RequestContext): Promise<CellSnapshot[]> {
  return (await readWorkbookBlocks(context)).flatMap(formulaCellsOf);
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Enters `changes` in one batch (two syncs: the formulas now, then the writes with the formulas they leave). A
 * batch Excel refuses for its size is halved; one it refuses otherwise is entered cell by cell, so one cell
 * Excel will not take (part of a legacy array formula, a locked cell) fails alone.
 */
export async function replaceFormulas(
  context: Excel.RequestContext,
  changes: readonly FormulaChange[],
): Promise<FormulaChangeOutcome[]> {
  const sheets = context.workbook.worksheets;
  const targets = changes.map((change) => {
    const { sheet, cell } = parseAddress(change.address);
    const worksheet = sheets.getItemOrNullObject(sheet).load("isNullObject");
    return { change, worksheet, cell };
  });
  await context.sync();
  const reads = targets.map((t) => ({
    ...t,
    range: t.worksheet.isNullObject ? undefined : t.worksheet.getRange(t.cell).load("formulas"),
  }));
  await context.sync();
  const outcomes: FormulaChangeOutcome[] = [];
  const writes: { address: string; range: Excel.Range; to: string }[] = [];
  for (const { change, range } of reads) {
    const now = range?.formulas[0]?.[0];
    if (range && now === change.from) writes.push({ address: change.address, range, to: change.to });
    // Entered by an earlier try of a batch Excel stopped at a later cell (it keeps what it had done).
    else if (range && now === change.to)
      outcomes.push({ address: change.address, status: "written", formula: now });
    else outcomes.push({ address: change.address, status: "changed" });
  }
  if (writes.length === 0) return outcomes;
  for (const w of writes) {
    w.range.formulas = [[w.to]];
    w.range.load("formulas");
  }
  try {
    await context.sync();
  } catch (err) {
    if (writes.length === 1) {
      const only = writes[0] as (typeof writes)[number];
      return [...outcomes, { address: only.address, status: "failed", reason: messageOf(err) }];
    }
    // The halves (refused for its size) or each cell are entered again; a cell Excel entered before it stopped
    // at a refused one holds its new formula already, and is counted as written.
    const retry = changes.filter((c) => writes.some((w) => w.address === c.address));
    const size = isPayloadTooLarge(err) ? Math.ceil(retry.length / 2) : 1;
    for (let i = 0; i < retry.length; i += size) {
      outcomes.push(...(await replaceFormulas(context, retry.slice(i, i + size))));
    }
    return outcomes;
  }
  for (const w of writes) {
    outcomes.push({ address: w.address, status: "written", formula: String(w.range.formulas[0]?.[0] ?? "") });
  }
  return outcomes;
}
