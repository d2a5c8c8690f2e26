// The service requests each FDQ cell makes, with what makes its value traceable: the period(s) it asks, the
// requests' paths (no key), and the refresh day today's cache fetched them on. Used to pick the cells of a
// refresh scope ("only cells from an older refresh day"), to forget exactly their cached answers before a
// refresh of some cells, and to list frozen cells' sources. Calls are resolved as the estimate resolves them
// (fdq-call.ts); a call that cannot be planned makes no request.
import type { FdqRequest } from "../../api";
import type { FdqCall } from "../../functions/formula";
import type { CachedAnswer } from "../../workbook/changes/refresh-scope";
import { periodLabel } from "./period";
import { requestsOf } from "../../functions/requests";
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { resolveCells } from "./fdq-call";
import type { PaneClient } from "./pane-client";

export interface CellRequests {
  readonly cell: CellSnapshot;
  readonly requests: readonly FdqRequest[];
  /** The cell's one call, when its formula is exactly one FDQ call made once (not lifted over a range). */
  readonly onlyCall?: FdqCall;
}

export async function cellRequests(
  cells: readonly CellSnapshot[],
  workbook: Pick<WorkbookAccess, "cellValues">,
): Promise<CellRequests[]> {
  const out: CellRequests[] = [];
  for (const { cell, calls, plain } of await resolveCells(cells, workbook)) {
    const requests: FdqRequest[] = [];
    for (const call of calls) {
      if (!call.ok) continue;
      const planned = call.kind === "call" ? [call.call] : call.cells.flatMap((c) => (c.ok ? [c.call] : []));
      for (const c of planned) requests.push(...(await requestsOf(c).catch(() => [])));
    }
    const only = plain && calls.length === 1 ? calls[0] : undefined;
    out.push(only?.ok && only.kind === "call" ? { cell, requests, onlyCall: only.call } : { cell, requests });
  }
  return out;
}

/** A request's period as an analyst reads it, or undefined for requests without one (ratings, info...). */
export function requestPeriod(request: FdqRequest): string | undefined {
  if (request.kind !== "datapoint" && request.kind !== "dataset") return undefined;
  const { year, quarter, ttm } = request.request;
  return periodLabel({ year, quarter, ttm });
}

const joined = (items: readonly (string | undefined)[]): string | undefined => {
  const distinct = [...new Set(items.filter((s): s is string => s !== undefined && s !== ""))];
  return distinct.length > 0 ? distinct.join("; ") : undefined;
};

export interface CellSource {
  readonly period?: string;
  /** "GET /metrics/roic/AAPL?datapoint=ROIC&year=2023" per request, joined with "; ". */
  readonly source?: string;
  /** The earliest refresh day today's cache fetched the cell's answers on; undefined when one is not cached. */
  readonly refreshDay?: string;
}

/** What makes one cell's value traceable; a request the client refuses to plan is left out. */
export function sourceOf(requests: readonly FdqRequest[], client: Pick<PaneClient, "plan">): CellSource {
  const plans = requests.flatMap((r) => {
    try {
      return [client.plan(r)];
    } catch {
      return [];
    }
  });
  const days = plans.map((p) => (p.cached ? p.fetchedOn : undefined));
  const allCached = plans.length > 0 && days.every((d) => d !== undefined);
  const period = joined(requests.map(requestPeriod));
  const source = joined(plans.map((p) => `GET /${p.key.path}`));
  const refreshDay = allCached ? [...(days as string[])].sort()[0] : undefined;
  return {
    ...(period ? { period } : {}),
    ...(source ? { source } : {}),
    ...(refreshDay ? { refreshDay } : {}),
  };
}

/** Each request's answer as today's cache knows it; a request the client refuses (no request is made) is left out. */
export function cachedAnswers(
  requests: readonly FdqRequest[],
  client: Pick<PaneClient, "plan">,
): CachedAnswer[] {
  return requests.flatMap((r) => {
    try {
      return [client.plan(r)];
    } catch {
      return []; // a refused request: the cell shows its error without a request, refreshing changes nothing
    }
  });
}
