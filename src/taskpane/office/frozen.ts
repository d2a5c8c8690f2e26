// Reversible freeze through Excel's JavaScript API: the frozen formulas are kept inside the workbook, as
// custom XML parts in our namespace (workbook.customXmlParts, ExcelApi 1.5; the format is
// src/workbook/freeze/frozen-formulas.ts), so "Restore formulas" brings each back exactly on any machine with the
// add-in. The records are written before the values: a freeze cut short leaves a record of a cell that still
// holds its formula, which a restore recognises and drops, never a formula that is lost.
import { reportValue, sameNumber } from "../../workbook/changes/changes";
import {
  FROZEN_NAMESPACE,
  mergeFrozen,
  parseFrozenParts,
  serializeFrozenParts,
  withoutCells,
  type FrozenCell,
  type FrozenValue,
} from "../../workbook/freeze/frozen-formulas";
import { parseAddress, quoteSheetName } from "./a1";
import { chunks, isPayloadTooLarge } from "./batched-read";
import { asLiteral, literalRows } from "./literal";
import type { CellSnapshot } from "./workbook-reads";

/** Cells frozen or restored per sync: a spill is read and written whole, so a batch refused for its size is halved. */
const CELLS_PER_SYNC = 200;

export interface RestoreOutcome {
  /** Sheet-qualified addresses whose formula is back. */
  readonly restored: readonly string[];
  /** Cells left as they are, with the reason; their records stay unless said otherwise. */
  readonly skipped: readonly { readonly address: string; readonly reason: string }[];
}

export const frozenValue = (value: unknown): FrozenValue => reportValue(value);

const addressOf = (c: Pick<FrozenCell, "sheet" | "cell">): string => `${quoteSheetName(c.sheet)}!${c.cell}`;

/** The kept records and the parts holding them. */
export async function readFrozen(
  context: Excel.RequestContext,
): Promise<{ parts: Excel.CustomXmlPart[]; cells: FrozenCell[] }> {
  const collection = context.workbook.customXmlParts.getByNamespace(FROZEN_NAMESPACE);
  collection.load("items/id");
  await context.sync();
  const xmls = collection.items.map((part) => part.getXml());
  await context.sync();
  return { parts: collection.items, cells: parseFrozenParts(xmls.map((x) => x.value)) };
}

/** Replaces the kept records by `cells`: the new parts first, then the old ones deleted (one sync per part). */
async function writeFrozen(
  context: Excel.RequestContext,
  old: readonly Excel.CustomXmlPart[],
  cells: readonly FrozenCell[],
): Promise<void> {
  for (const xml of serializeFrozenParts(cells)) {
    context.workbook.customXmlParts.add(xml);
    await context.sync();
  }
  for (const part of old) part.delete();
  await context.sync();
}

/** Writes the values of these cells in place of their formulas: a spilling formula's whole spill range. */
async function writeValues(
  context: Excel.RequestContext,
  cells: readonly { anchor: Excel.Range; spill?: Excel.Range; value: unknown }[],
): Promise<void> {
  try {
    for (const t of cells) {
      // Service text is written as text, never as a formula (asLiteral).
      if (t.spill && !t.spill.isNullObject) t.spill.values = literalRows(t.spill.values);
      else t.anchor.values = [[asLiteral(t.value)]];
    }
    await context.sync();
  } catch (err) {
    if (!isPayloadTooLarge(err) || cells.length === 1) throw err;
    const half = Math.ceil(cells.length / 2);
    await writeValues(context, cells.slice(0, half));
    await writeValues(context, cells.slice(half));
  }
}

const canReadSpills = (): boolean => Office.context.requirements.isSetSupported("ExcelApi", "1.12");

/**
 * Freezes these FDQ cells (of one read): records every formula (with its spill range) in the workbook's
 * frozen-formulas parts, then writes the values. `refreshDays` gives a cell's refresh day, when known.
 */
export async function freezeCells(
  context: Excel.RequestContext,
  cells: readonly CellSnapshot[],
  options: { now: Date; refreshDays?: ReadonlyMap<string, string> },
): Promise<FrozenCell[]> {
  const records: FrozenCell[] = [];
  const batches: { anchor: Excel.Range; spill?: Excel.Range; value: unknown }[][] = [];
  for (const chunk of chunks(cells, CELLS_PER_SYNC)) {
    const targets = chunk.map((c) => {
      const { sheet, cell } = parseAddress(c.address);
      const anchor = context.workbook.worksheets.getItem(sheet).getRange(cell);
      // A spilling formula's values cover its whole spill range, not only its own cell.
      const spill = canReadSpills() ? anchor.getSpillingToRangeOrNullObject() : undefined;
      spill?.load("isNullObject,values,address");
      return { c, sheet, cell, anchor, spill, value: c.value };
    });
    await context.sync();
    for (const t of targets) {
      const spill =
        t.spill && !t.spill.isNullObject ? t.spill.address.slice(t.spill.address.lastIndexOf("!") + 1) : "";
      const day = options.refreshDays?.get(t.c.address);
      records.push({
        sheet: t.sheet,
        cell: t.cell,
        formula: t.c.formula,
        value: frozenValue(t.value),
        ...(spill.includes(":") ? { spill } : {}),
        frozenAt: options.now.toISOString(),
        ...(day ? { refreshDay: day } : {}),
      });
    }
    batches.push(targets);
  }
  const kept = await readFrozen(context);
  await writeFrozen(context, kept.parts, mergeFrozen(kept.cells, records));
  for (const batch of batches) await writeValues(context, batch);
  return records;
}

function sameFrozen(now: unknown, frozen: FrozenValue): boolean {
  const a = frozenValue(now);
  if (typeof a === "number" && typeof frozen === "number") return sameNumber(a, frozen);
  return JSON.stringify(a) === JSON.stringify(frozen);
}

/**
 * Brings back the formulas of the kept records among `wanted` (all when undefined). A cell is left alone when
 * its sheet is gone, its value changed since the freeze, or its spill range holds a formula now; a cell that
 * holds a formula again needs nothing, and its record is dropped.
 */
export async function restoreCells(
  context: Excel.RequestContext,
  wanted?: (c: FrozenCell) => boolean,
): Promise<RestoreOutcome> {
  const kept = await readFrozen(context);
  const candidates = kept.cells.filter((c) => !wanted || wanted(c));
  const restored: string[] = [];
  const skipped: { address: string; reason: string }[] = [];
  const done: FrozenCell[] = [];
  const sheets = context.workbook.worksheets;
  for (const chunk of chunks(candidates, CELLS_PER_SYNC)) {
    const targets = chunk.map((c) => {
      const sheet = sheets.getItemOrNullObject(c.sheet);
      sheet.load("isNullObject");
      return { c, sheet };
    });
    await context.sync();
    const reads = targets.flatMap(({ c, sheet }) => {
      if (sheet.isNullObject) {
        skipped.push({ address: addressOf(c), reason: `The sheet ${c.sheet} no longer exists.` });
        return [];
      }
      const anchor = sheet.getRange(c.cell).load("formulas,values");
      const spill = c.spill ? sheet.getRange(c.spill).load("formulas") : undefined;
      return [{ c, anchor, spill }];
    });
    await context.sync();
    for (const { c, anchor, spill } of reads) {
      const address = addressOf(c);
      const formula = String(anchor.formulas[0]?.[0] ?? "");
      if (formula.startsWith("=")) {
        done.push(c);
        if (formula !== c.formula) skipped.push({ address, reason: "It holds another formula now." });
        continue;
      }
      if (!sameFrozen(anchor.values[0]?.[0], c.value)) {
        skipped.push({ address, reason: "Its value was changed since it was frozen." });
        continue;
      }
      const others = spill?.formulas.flat().slice(1) ?? [];
      if (others.some((f) => typeof f === "string" && f.startsWith("="))) {
        skipped.push({ address, reason: `A cell of its spill range ${c.spill} holds a formula now.` });
        continue;
      }
      // The frozen spill's values must go, or the formula could not spill again (#SPILL!).
      if (spill) spill.clear(Excel.ClearApplyTo.contents);
      anchor.formulas = [[c.formula]];
      restored.push(address);
      done.push(c);
    }
    await context.sync();
  }
  await writeFrozen(context, kept.parts, withoutCells(kept.cells, done));
  return { restored, skipped };
}
