// A refresh of a scope of FDQ cells, with the progress a user can follow and a Cancel, ending in the change
// report. The workbook: drop the day's cache and run a full calculation (the only one that re-runs FDQ
// functions). Any other scope: forget exactly its cells' cached answers and enter those cells' formulas again,
// a wave at a time, so Excel runs them and nothing else. Then follow the shared client's counters until the
// requests are done, reading the cells for done / pending / failed.
//
// Cancel stops new requests at once: every request not yet sent fails without being sent (the client's
// stopRequestsOn), answers already in keep their values, and waves not yet entered are left as they were. A
// refresh for a new refresh day keeps the cache: the day change already dropped every answer of earlier days
// except those the quota saver keeps, and dropping those too would fetch them every day, saver or not.
import { type ClientStats, FdqError, sleep } from "../../api";
import { compareCells, reportValue, type CellObservation, type Change } from "../../workbook/changes/changes";
import {
  periodsCellId,
  serializeResolvedPeriods,
  type ResolvedCellPeriods,
} from "../../workbook/refresh/resolved-periods";
import { periodBefore, periodsNow, recordsAfter } from "./cached-periods";
import { chunks } from "../office/batched-read";
import { parseAddress } from "../office/a1";
import type { CellSnapshot, CellValue, WorkbookAccess } from "../office/workbook";
import { cellRequests } from "./cell-requests";
import { isErrorValue } from "./excel-error";
import { estimateRefresh, type RefreshEstimate } from "./refresh-estimate";
import { scopeCells, type RefreshScope } from "./scope-cells";
import type { PaneClient } from "./pane-client";

export interface CellProgress {
  /** Cells in the scope. */
  readonly total: number;
  /** Cells answered with a value. */
  readonly done: number;
  /** Cells not answered yet (calculating, or in a wave not yet entered). */
  readonly pending: number;
  /** Cells answered with an error. */
  readonly failed: number;
}

export interface RefreshProgress {
  /** The requests are being counted (the estimate before the first request): no figure yet. */
  readonly counting?: boolean;
  /** Requests answered or failed so far (retries not counted twice). */
  readonly done: number;
  /**
   * Requests the refresh is expected to send: the estimate, less the requests of tickers the day's coverage
   * list turned out not to list as soon as it is answered, and never less than those sent or queued. Once the
   * refresh has finished (not cancelled), the requests done: what was sent.
   */
  readonly total: number;
  /** Requests that failed so far. */
  readonly errors: number;
  /** The scope's cells, once read during the run. */
  readonly cells?: CellProgress;
  /** Quota units of the answers received so far. */
  readonly unitsSpent: number;
  /** Cancel was asked: no new request is sent. */
  readonly cancelling?: boolean;
}

export interface RefreshSummary {
  readonly scope: RefreshScope;
  readonly cells: number;
  readonly requestsSent: number;
  readonly failedRequests: number;
  readonly errorCells: number;
  readonly unitsSpent: number;
  readonly durationMs: number;
  /** Cancelled before the end: requests not yet sent were not sent. */
  readonly cancelled: boolean;
  /** Requests stopped by the Cancel (never sent). */
  readonly cancelledRequests: number;
  /** The scope's cells whose value changed, sorted by size of change. */
  readonly changes: readonly Change[];
}

export interface RefreshOptions {
  readonly workbook: WorkbookAccess;
  readonly client: PaneClient;
  readonly scope?: RefreshScope;
  /** Aborting it is the Cancel. */
  readonly signal?: AbortSignal;
  /** Today's refresh day (decides which cells are from an older one). */
  readonly today?: string;
  readonly onProgress?: (progress: RefreshProgress) => void;
  /** How often the client's counters are read. */
  readonly pollMs?: number;
  /** How long the client must stay idle before the refresh counts as finished. */
  readonly quietMs?: number;
  readonly now?: () => number;
  /** Keeps the cache instead of dropping it first (the refresh of a new refresh day). */
  readonly keepCache?: boolean;
}

/** The message of a cell whose request the Cancel stopped. */
export const CANCELLED_MESSAGE =
  "Refresh cancelled before this request was sent: refresh again (for instance only the cells in error) to fetch it.";

/** Cells entered again per wave: small enough that a Cancel leaves most of a big scope untouched. */
export const WAVE_CELLS = 25;

function failures(stats: ClientStats): number {
  return Object.values(stats.failures).reduce((sum, n) => sum + n, 0);
}

function requestProgress(before: ClientStats, now: ClientStats, total: number) {
  const sent = now.requestsSent - before.requestsSent - (now.retries - before.retries);
  const errors = failures(now) - failures(before);
  return {
    done: Math.max(0, sent - now.inFlight) + (now.failures.FdqError ?? 0) - (before.failures.FdqError ?? 0),
    total: Math.max(total, sent + now.queued),
    errors,
    unitsSpent: now.unitsSpent - before.unitsSpent,
  };
}

/**
 * The requests a refresh expects to send, read as it runs: the estimate's, less those of the tickers the day's
 * coverage list does not list, known once the list is answered (their cells fail with no request of their
 * own). The estimate itself cannot know them: it sends nothing, not even the list.
 */
function expectedRequests(estimate: RefreshEstimate, client: PaneClient): () => number {
  const total = estimate.requestsNeeded + estimate.otherRequests;
  const undecided = new Map(Object.entries(estimate.ifListed?.byTicker ?? {}));
  let spared = 0;
  return () => {
    for (const [ticker, cost] of undecided) {
      const covered = client.coveredToday(ticker);
      if (covered === undefined) continue;
      if (!covered) spared += cost.requests;
      undecided.delete(ticker);
    }
    return total - spared;
  };
}

const BUSY = "#BUSY!";

/** done / pending / failed of the scope's cells from their values now; cells not yet entered are pending. */
export function cellProgress(
  values: ReadonlyMap<string, CellValue>,
  total: number,
  notEntered = 0,
): CellProgress {
  let pending = notEntered;
  let failed = 0;
  for (const value of values.values()) {
    if (value === BUSY) pending++;
    else if (isErrorValue(value)) failed++;
  }
  return { total, pending, failed, done: Math.max(0, total - pending - failed) };
}

/**
 * The change report of the scope's cells: their values before against those after, with the periods each
 * asked before and after where known (a relative period's: cached-periods.ts).
 */
export function changesOf(
  before: readonly CellSnapshot[],
  after: ReadonlyMap<string, CellValue>,
  periods?: (cell: CellSnapshot) => CellObservation["period"],
): Change[] {
  return compareCells(
    before.map((c) => {
      const { sheet, cell } = parseAddress(c.address);
      const period = periods?.(c);
      return {
        sheet,
        cell,
        formula: c.formula,
        old: reportValue(c.value),
        new: reportValue(after.get(c.address)),
        ...(period && (period.before !== undefined || period.after !== undefined) ? { period } : {}),
      };
    }),
  );
}

/**
 * The periods of the refreshed cells before (the workbook's kept records) and now, and the records kept anew
 * when they changed (a workbook without relative periods gets no part). Never fails the refresh: without
 * them a moved relative period is reported as restated.
 */
async function refreshedPeriods(
  cells: readonly CellSnapshot[],
  kept: readonly ResolvedCellPeriods[],
  workbook: WorkbookAccess,
  client: PaneClient,
): Promise<((cell: CellSnapshot) => CellObservation["period"]) | undefined> {
  try {
    const now = await periodsNow(cells, workbook, client);
    const records = recordsAfter(kept, cells, now);
    if (serializeResolvedPeriods(records) !== serializeResolvedPeriods(kept))
      await workbook.keepResolvedPeriods?.(records);
    const byId = new Map(kept.map((r) => [periodsCellId(r), r]));
    return (cell) => {
      const p = now.get(cell.address);
      const before = periodBefore(cell, p, byId);
      return {
        ...(before !== undefined && { before }),
        ...(p?.periods !== undefined && { after: p.periods }),
      };
    };
  } catch {
    return undefined;
  }
}

export async function runRefresh(options: RefreshOptions): Promise<RefreshSummary> {
  const { workbook, client, signal } = options;
  const scope = options.scope ?? "workbook";
  const pollMs = options.pollMs ?? 100;
  const quietMs = options.quietMs ?? 600;
  const now = options.now ?? Date.now;
  const today = options.today ?? "";
  const started = now();

  const cells = await scopeCells(scope, { workbook, client, today });
  const addresses = cells.map((c) => c.address);
  const keptPeriods = (await workbook.resolvedPeriods?.().catch(() => undefined)) ?? [];
  let cancelledRequests = 0;
  const release = client.stopRequestsOn(signal ?? new AbortController().signal, () => {
    cancelledRequests++;
    return new FdqError({ message: CANCELLED_MESSAGE });
  });
  try {
    if (scope === "workbook") {
      if (!options.keepCache) client.invalidate();
    } else {
      client.forget((await cellRequests(cells, workbook)).flatMap((c) => c.requests));
    }
    const estimate = await estimateRefresh(cells, { client, workbook, ...(today ? { today } : {}) });
    const expected = expectedRequests(estimate, client);
    const before = client.stats();
    let cellsNow: CellProgress | undefined;
    const report = (): void => {
      const r = requestProgress(before, client.stats(), expected());
      options.onProgress?.({
        ...r,
        ...(cellsNow ? { cells: cellsNow } : {}),
        cancelling: signal?.aborted === true,
      });
    };
    report();

    let notEntered = 0;
    if (scope === "workbook") {
      await workbook.calculateFull();
    } else {
      const waves = chunks(addresses, WAVE_CELLS);
      notEntered = addresses.length;
      for (const wave of waves) {
        if (signal?.aborted) break;
        await workbook.reenterFormulas(wave);
        notEntered -= wave.length;
        // The next wave once this one's calls have started and settled (or Cancel was asked).
        for (;;) {
          await sleep(pollMs);
          const values = await workbook.cellValues(wave);
          cellsNow = cellProgress(values, wave.length, 0);
          report();
          if (signal?.aborted || ![...values.values()].includes(BUSY)) break;
        }
      }
    }

    // Cells are read less often than the counters on a big scope: a read costs in proportion to its cells.
    let cellsReadAt = 0;
    let cellReadMs = 0;
    let last = requestProgress(before, client.stats(), expected());
    let quietSince = now();
    for (;;) {
      await sleep(pollMs);
      const stats = client.stats();
      const progress = requestProgress(before, stats, expected());
      if (now() - cellsReadAt >= Math.max(pollMs, 3 * cellReadMs)) {
        const readStart = now();
        cellsNow = cellProgress(await workbook.cellValues(addresses), addresses.length, notEntered);
        cellReadMs = now() - readStart;
        cellsReadAt = now();
      }
      if (progress.done !== last.done || progress.errors !== last.errors || progress.total !== last.total) {
        quietSince = now();
      }
      report();
      last = progress;
      const idle = stats.inFlight === 0 && stats.queued === 0;
      // Custom functions start a little after the calculation call returns: wait for a quiet spell.
      if (
        idle &&
        now() - quietSince >= (progress.done >= progress.total || signal?.aborted ? pollMs : quietMs)
      )
        break;
    }
    // Finished: the counter ends at what was sent, n of n, whatever the estimate said (a Cancel leaves the
    // total the refresh stopped short of).
    const final = requestProgress(before, client.stats(), expected());
    options.onProgress?.({
      ...final,
      ...(signal?.aborted ? {} : { total: final.done }),
      ...(cellsNow ? { cells: cellsNow } : {}),
      cancelling: signal?.aborted === true,
    });

    const after = await workbook.cellValues(addresses);
    const finalStats = client.stats();
    const periods = await refreshedPeriods(cells, keptPeriods, workbook, client);
    return {
      scope,
      cells: cells.length,
      requestsSent: finalStats.requestsSent - before.requestsSent,
      failedRequests: failures(finalStats) - failures(before) - cancelledRequests,
      errorCells: [...after.values()].filter(isErrorValue).length,
      unitsSpent: finalStats.unitsSpent - before.unitsSpent,
      durationMs: now() - started,
      cancelled: signal?.aborted === true,
      cancelledRequests,
      changes: changesOf(cells, after, periods),
    };
  } finally {
    release();
  }
}
