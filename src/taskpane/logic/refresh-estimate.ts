// What a refresh will cost, before it starts: the workbook's FDQ cells, the distinct requests they make, and
// how many of those the cache already answers. Calls are resolved (cell references read) and run through the
// functions' own argument handling, so the count is that of the requests the cells really make; a call given a
// range is counted as Excel lifts it, once per cell of its spill (fdq-call.ts). The client's
// planner groups and prices them (quota units: one per datapoint x security x period, production-service.md, fact 11).
import {
  DEFAULTS,
  RefreshDayClock,
  type FdqRequest,
  type ListCondition,
  type PlannedRequest,
} from "../../api";
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import type { FdqCall } from "../../functions/formula";
import { requestsOf } from "../../functions/requests";
import type { ValueOptions } from "../../functions/value-options";
import { resolveCells } from "./fdq-call";
import { messageOf } from "./message";
import type { PaneClient } from "./pane-client";
import { savable } from "./saver";
import { currentValueOptions } from "../../host/value-options-host";

export interface UnplannedCell {
  readonly address: string;
  readonly reason: string;
}

export interface RefreshEstimate {
  /** FDQ cells found in the workbook. */
  readonly cells: number;
  /** Distinct datapoint and dataset requests of the cells (cached or not), after the client's grouping rule. */
  readonly plannedRequests: number;
  /**
   * Planned requests not in today's cache: what a calculation would send (with the search for the latest
   * period of relative cells not resolved today: empty answers, which cost no unit, and the day's coverage list
   * the data cells' tickers are checked against).
   */
  readonly requestsNeeded: number;
  /** Of requestsNeeded, the coverage lists (one per type of ticker, once a refresh day) the data cells ask first. */
  readonly coverageLists: number;
  /** Cells whose requests are all planned and in today's cache. */
  readonly cachedCells: number;
  /**
   * Distinct requests of ratings, sector, coverage, security and info calls not in today's cache: an upper
   * bound, since FDQ.SECURITY without a type counts each type it may try and stops at the first found.
   */
  readonly otherRequests: number;
  /** Quota units of the datapoint and dataset requests not in today's cache (a whole dataset: its catalog size). */
  readonly units: number;
  /** Quota units of the other requests not in today's cache (an upper bound, as otherRequests). */
  readonly otherUnits: number;
  /** Every distinct request, cached or not: what a refresh sends, since it drops today's cache first. */
  readonly refreshRequests: number;
  /** Units a refresh spends (every request sent again; a whole dataset priced at its catalog size). */
  readonly refreshUnits: number;
  /**
   * Of refreshUnits, the units of requests the quota saver keeps (datapoint values of closed periods, no (SP)
   * datapoint), whatever the policy in force: what the saver would fetch once per its keep days only.
   */
  readonly savableUnits: number;
  /**
   * Present while the day's coverage list is needed and some data cells' tickers are not known today: the part
   * of requestsNeeded and units spent only for the tickers the list lists, by ticker (a ticker it does not list
   * sends nothing more). requestsNeeded and units are then upper bounds ("at most"), and so are the refresh's.
   */
  readonly ifListed?: ListCondition;
  /**
   * Whether the refresh's counts are upper bounds ("up to"): requests of other functions are counted, or the
   * day's coverage list decides some (ifListed).
   */
  readonly upperBound: boolean;
  /** Cells with an FDQ call that cannot be planned, each with the reason (they make no request). */
  readonly unplanned: readonly UnplannedCell[];
}

export interface EstimateDeps {
  readonly client: PaneClient;
  readonly workbook: Pick<WorkbookAccess, "cellValues">;
  /** Today's refresh day (decides which periods are closed); the default boundary's day now when left out. */
  readonly today?: string;
  /** The value options in force (FDQ.CARD cells ask their chosen key metrics too); those the functions apply now
   * when left out. */
  readonly values?: ValueOptions;
}

export async function estimateRefresh(
  cells: readonly CellSnapshot[],
  {
    client,
    workbook,
    today = new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now()),
    values,
  }: EstimateDeps,
): Promise<RefreshEstimate> {
  values ??= await currentValueOptions();
  const requests: FdqRequest[] = [];
  /** The paths of the cells' own requests (a coverage list beyond them is the data cells' coverage check). */
  const ownPaths = new Set<string>();
  const unplanned: UnplannedCell[] = [];
  let cachedCells = 0;
  for (const { cell, calls } of await resolveCells(cells, workbook)) {
    const own: FdqRequest[] = [];
    let cached = true;
    // Cells of lifted calls' spills that make no request, each with its reason.
    const spilled: UnplannedCell[] = [];
    const plan = async (call: FdqCall): Promise<void> => {
      const requests = await requestsOf(call, values);
      // Checks the requests as the client will: a refused one makes the call unplanned.
      const plans = requests.map((request) => client.plan(request));
      for (const p of plans) ownPaths.add(p.key.path);
      cached &&= plans.every((p) => p.cached);
      own.push(...requests);
    };
    try {
      for (const call of calls) {
        if (!call.ok) throw new Error(call.reason);
        if (call.kind === "call") {
          await plan(call.call);
          continue;
        }
        // Excel lifts the call: one call per cell of the spill, each counted; a cell that cannot be planned
        // shows its error without a request, and the others still make theirs.
        for (const lifted of call.cells) {
          const from = lifted.address === cell.address ? "" : `Spilled from ${cell.address}: `;
          try {
            if (!lifted.ok) throw new Error(lifted.reason);
            await plan(lifted.call);
          } catch (err) {
            spilled.push({ address: lifted.address, reason: `${from}${messageOf(err)}` });
          }
        }
      }
      if (cached) cachedCells++;
      requests.push(...own);
      unplanned.push(...spilled);
    } catch (err) {
      unplanned.push({ address: cell.address, reason: messageOf(err) });
    }
  }
  // The client's planner: distinct requests after its grouping rule (cells asking every datapoint of a
  // dataset share its whole request), each priced and marked cached.
  // `resolution`: the search for the latest periods of FY0/FQ0/LTM cells not resolved today (empty answers).
  const { planned, resolution, ifListed } = client.estimate(requests);
  const search = { requests: resolution?.requests ?? 0, units: resolution?.units ?? 0 };
  const isList = (p: PlannedRequest): boolean =>
    p.key.fields.endpoint === "coverage" && !ownPaths.has(p.key.path);
  const isData = (p: PlannedRequest): boolean => p.key.fields.endpoint === "data" || isList(p);
  const sum = (list: readonly PlannedRequest[]): number => list.reduce((n, p) => n + p.units, 0);
  const data = planned.filter(isData);
  const other = planned.filter((p) => !isData(p));
  const dataNeeded = data.filter((p) => !p.cached);
  const otherNeeded = other.filter((p) => !p.cached);
  return {
    cells: cells.length,
    plannedRequests: data.filter((p) => !isList(p)).length,
    requestsNeeded: dataNeeded.length + search.requests,
    coverageLists: dataNeeded.filter(isList).length,
    cachedCells,
    otherRequests: otherNeeded.length,
    units: sum(dataNeeded) + search.units,
    otherUnits: sum(otherNeeded),
    refreshRequests: planned.length + search.requests,
    refreshUnits: sum(planned) + search.units,
    savableUnits: sum(planned.filter((p) => savable(p.key, today))),
    upperBound: other.length > 0 || ifListed !== undefined,
    unplanned,
    ...(ifListed && { ifListed }),
  };
}
