// The pane's refresh and relative periods (FY0, FQ-1, LTM): before the refresh, what each cell's relative
// period resolved to at the last refresh (the record kept in the workbook: src/workbook/refresh/resolved-periods.ts,
// the same part `fdq refresh` writes); after it, what it resolved to now, read from the answers the refresh
// left in the client's cache (nothing is sent). The change report says "new period" when the two differ, and
// the workbook keeps the new records for the next refresh, on any machine. The rules are `fdq refresh`'s
// (src/cli/refresh-records.ts): a cell's periods named by periodsOfRequests (src/workbook/changes/call-periods.ts)
// and a relative period's "before" by keptPeriods (src/workbook/refresh/resolved-periods.ts); only where the
// answers are read from differs (the client's cache here, the answers noted while fdq refresh evaluates there).
import type { FdqRequest } from "../../api";
import { isRelativeRequest, periodsOfRequests, resolvedLabel } from "../../workbook/changes/call-periods";
import {
  keptPeriods,
  mergeResolvedPeriods,
  type ResolvedCellPeriods,
} from "../../workbook/refresh/resolved-periods";
import { parseAddress } from "../office/a1";
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { cellRequests } from "./cell-requests";
import type { PaneClient } from "./pane-client";

/** A cell's periods after the refresh: "; "-joined labels, undefined when a relative one is not known. */
export interface PeriodsNow {
  readonly relative: boolean;
  readonly periods?: string;
  /** The refresh day a relative period was resolved on. */
  readonly day?: string;
}

/** What a relative request resolved to, from the cache (undefined when it is not answered there). */
async function peek(
  request: FdqRequest,
  client: Pick<PaneClient, "plan" | "datapoint" | "dataset">,
): Promise<{ label: string; day: string } | undefined> {
  try {
    if (!client.plan(request).cached) return undefined;
    const result =
      request.kind === "datapoint"
        ? await client.datapoint(request.request)
        : request.kind === "dataset"
          ? await client.dataset(request.request)
          : undefined;
    return result?.resolved ? { label: resolvedLabel(result.resolved), day: result.refreshDay } : undefined;
  } catch {
    return undefined;
  }
}

/** Each cell's periods now (by address), relative ones as the cache's answers resolved them. */
export async function periodsNow(
  cells: readonly CellSnapshot[],
  workbook: Pick<WorkbookAccess, "cellValues">,
  client: Pick<PaneClient, "plan" | "datapoint" | "dataset">,
): Promise<Map<string, PeriodsNow>> {
  const out = new Map<string, PeriodsNow>();
  for (const { cell, requests } of await cellRequests(cells, workbook)) {
    const seen = new Map<FdqRequest, { label: string; day: string }>();
    for (const r of requests) {
      const answer = isRelativeRequest(r) ? await peek(r, client) : undefined;
      if (answer) seen.set(r, answer);
    }
    const { relative, periods } = periodsOfRequests(requests, (r) => seen.get(r)?.label);
    const day = [...seen.values()]
      .map((s) => s.day)
      .sort()
      .at(-1);
    out.set(cell.address, {
      relative,
      ...(periods !== undefined && { periods }),
      ...(day !== undefined && { day }),
    });
  }
  return out;
}

/** A cell's period before the refresh: its kept record's, for a relative period of the same formula. */
export function periodBefore(
  cell: CellSnapshot,
  now: PeriodsNow | undefined,
  kept: ReadonlyMap<string, ResolvedCellPeriods>,
): string | undefined {
  if (!now?.relative) return undefined;
  return keptPeriods(kept, parseAddress(cell.address), cell.formula);
}

/** The records after the refresh of `cells`. */
export function recordsAfter(
  previous: readonly ResolvedCellPeriods[],
  cells: readonly CellSnapshot[],
  now: ReadonlyMap<string, PeriodsNow>,
): ResolvedCellPeriods[] {
  const updates: ResolvedCellPeriods[] = [];
  for (const c of cells) {
    const p = now.get(c.address);
    if (!p?.relative || p.periods === undefined || p.day === undefined) continue;
    const { sheet, cell } = parseAddress(c.address);
    updates.push({ sheet, cell, formula: c.formula, periods: p.periods, day: p.day });
  }
  return mergeResolvedPeriods(
    previous,
    cells.map((c) => parseAddress(c.address)),
    updates,
  );
}
