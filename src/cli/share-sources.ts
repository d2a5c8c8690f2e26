// What makes each frozen cell of a shared copy traceable, for its "FDQ sources" sheet: the period it asked and
// what that resolved to ("FY0 = fiscal 2026"), the service request that answered (path and query, never the
// key) and its refresh day. First from the record `fdq refresh` kept in the workbook while it evaluated
// (src/workbook/refresh/cell-sources.ts: the requests that answered, a FDQ.SECURITY call's one security type, the
// resolved year, quarter or ttm), which needs no day cache. A cell without such a record (refreshed by the task
// pane, or by an older fdq, or edited since) falls back to what its formula asks with the workbook's values
// (src/workbook/changes/call-periods.ts) and the refresh day the day cache fetched it on: the cache is only read,
// nothing is sent, and a request today's cache does not hold leaves the refresh day empty (unknown).
import type { FdqClient, FdqRequest } from "../api";
import { requestsOf } from "../functions/requests";
import { callsOf, requestPeriod } from "../workbook/changes/call-periods";
import { engineFormula } from "../workbook/formula-text";
import type { SourcedCell } from "../workbook/share/fdq-sources";
import type { FrozenCell } from "../workbook/freeze/frozen-formulas";
import { sheetKey, type FormulaCell, type WorkbookModel } from "../workbook/model";
import { addressOfCell, rectOf } from "../workbook/engine/references";
import { positionFree, sourceCellId, type CellSourceRecord } from "../workbook/refresh/cell-sources";

const joined = (items: readonly (string | undefined)[]): string | undefined => {
  const distinct = [...new Set(items.filter((s): s is string => s !== undefined && s !== ""))];
  return distinct.length > 0 ? distinct.join("; ") : undefined;
};

/**
 * The requests of a cell, "; "-joined. A spill whose every cell was answered by a request of its own (a SERIES'
 * years, a lifted range's calls: as many requests as cells, in the order of its cells) names each request with its
 * cell: "A1: GET /...year=2021; B1: GET /...year=2022".
 */
function sourcesText(sources: readonly string[], cell: FrozenCell): string {
  const rect = cell.spill ? rectOf(cell.sheet, cell.spill) : undefined;
  const cells: string[] = [];
  if (rect) {
    for (let row = rect.top; row <= rect.bottom; row++)
      for (let col = rect.left; col <= rect.right; col++) cells.push(addressOfCell(row, col));
  }
  if (cells.length < 2 || cells.length !== sources.length) return sources.join("; ");
  return sources.map((source, i) => `${cells[i] as string}: ${source}`).join("; ");
}

/** The formula as the user typed it: FDQ calls as FDQ.NAME, not as Excel stores them (_xldudf_FDQ_NAME). */
const shownFormula = (stored: string): string => `=${engineFormula(stored).text}`;

export async function sourcedCells(
  model: WorkbookModel,
  frozen: readonly FrozenCell[],
  client: FdqClient,
  records: readonly CellSourceRecord[] = [],
): Promise<SourcedCell[]> {
  const recorded = new Map(records.map((r) => [sourceCellId(r), r]));
  const fromRecord = (f: FrozenCell): SourcedCell | undefined => {
    const r = recorded.get(sourceCellId(f));
    // A formula edited since its refresh asks something else: its record does not describe it.
    if (!r || r.formula !== positionFree(f.formula, f.cell)) return undefined;
    return {
      ...f,
      formula: shownFormula(f.formula),
      ...(r.period !== "" && { period: r.period }),
      ...(r.sources.length > 0 && { source: sourcesText(r.sources, f) }),
      refreshDay: r.day,
    };
  };
  if (frozen.every((f) => fromRecord(f) !== undefined))
    return frozen.map((f) => fromRecord(f) as SourcedCell);
  await client.ready();
  const byAddress = new Map<string, FormulaCell>(
    model.formulas.map((c) => [`${sheetKey(c.sheet)}!${addressOfCell(c.row, c.col)}`, c]),
  );
  const cells = frozen.flatMap((f) => {
    if (fromRecord(f)) return [];
    const cell = byAddress.get(`${sheetKey(f.sheet)}!${f.cell}`);
    return cell ? [cell] : [];
  });
  const calls = callsOf(model, cells);
  const out: SourcedCell[] = [];
  for (const f of frozen) {
    const kept = fromRecord(f);
    if (kept) {
      out.push(kept);
      continue;
    }
    const cell = byAddress.get(`${sheetKey(f.sheet)}!${f.cell}`);
    const requests: FdqRequest[] = [];
    for (const call of cell ? (calls.get(cell) ?? []) : []) {
      requests.push(...(await requestsOf(call).catch(() => [] as FdqRequest[])));
    }
    const plans = requests.flatMap((r) => {
      try {
        return [client.plan(r)];
      } catch {
        return [];
      }
    });
    const days = plans.map((p) => p.fetchedOn);
    const period = joined(requests.map(requestPeriod));
    const source = joined(plans.map((p) => `GET /${p.key.path}`));
    const known = days.length > 0 && days.every((d) => d !== undefined);
    const refreshDay = known ? [...(days as string[])].sort()[0] : undefined;
    out.push({
      ...f,
      formula: shownFormula(f.formula),
      ...(period ? { period } : {}),
      ...(source ? { source } : {}),
      ...(refreshDay ? { refreshDay } : {}),
    });
  }
  return out;
}
