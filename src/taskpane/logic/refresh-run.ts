// A refresh: drop the day's cache, run a full calculation (the only one that re-runs FDQ functions),
// follow the shared client's counters until the requests are done, then count the cells in error. A refresh
// for a new refresh day keeps the cache: the day change already dropped every answer of earlier days except
// those the quota saver keeps, and dropping those too would fetch them every day, saver or not.
import type { ClientStats } from "../../api";
import { sleep } from "../../api/sleep";
import type { CellSnapshot, WorkbookAccess } from "../office/workbook";
import { isErrorValue } from "./excel-error";
import { estimateRefresh } from "./refresh-estimate";
import type { PaneClient } from "./pane-client";

export interface RefreshProgress {
  /** Requests answered or failed so far (retries not counted twice). */
  readonly done: number;
  /** Requests the refresh is expected to send. */
  readonly total: number;
  /** Requests that failed so far. */
  readonly errors: number;
}

export interface RefreshSummary {
  readonly cells: number;
  readonly requestsSent: number;
  readonly failedRequests: number;
  readonly errorCells: number;
  readonly durationMs: number;
}

export interface RefreshOptions {
  readonly workbook: WorkbookAccess;
  readonly client: PaneClient;
  readonly onProgress?: (progress: RefreshProgress) => void;
  /** How often the client's counters are read. */
  readonly pollMs?: number;
  /** How long the client must stay idle before the refresh counts as finished. */
  readonly quietMs?: number;
  readonly now?: () => number;
  /** Keeps the cache instead of dropping it first (the refresh of a new refresh day). */
  readonly keepCache?: boolean;
}

function failures(stats: ClientStats): number {
  return Object.values(stats.failures).reduce((sum, n) => sum + n, 0);
}

function progressSince(before: ClientStats, now: ClientStats, total: number): RefreshProgress {
  const sent = now.requestsSent - before.requestsSent - (now.retries - before.retries);
  return {
    done: Math.max(0, sent - now.inFlight),
    total: Math.max(total, sent + now.queued),
    errors: failures(now) - failures(before),
  };
}

export async function runRefresh(options: RefreshOptions): Promise<RefreshSummary> {
  const { workbook, client } = options;
  const pollMs = options.pollMs ?? 100;
  const quietMs = options.quietMs ?? 600;
  const now = options.now ?? Date.now;
  const started = now();

  const cells: CellSnapshot[] = await workbook.fdqCells();
  if (!options.keepCache) await client.invalidate();
  const estimate = await estimateRefresh(cells, { client, workbook });
  const total = estimate.requestsNeeded + estimate.otherRequests;
  const before = client.stats();
  options.onProgress?.({ done: 0, total, errors: 0 });

  await workbook.calculateFull();

  let last = progressSince(before, client.stats(), total);
  let quietSince = now();
  for (;;) {
    await sleep(pollMs);
    const stats = client.stats();
    const progress = progressSince(before, stats, total);
    if (progress.done !== last.done || progress.errors !== last.errors || progress.total !== last.total) {
      quietSince = now();
      options.onProgress?.(progress);
    }
    last = progress;
    const idle = stats.inFlight === 0 && stats.queued === 0;
    // Custom functions start a little after the calculation call returns: wait for a quiet spell.
    if (idle && now() - quietSince >= (progress.done >= total ? pollMs : quietMs)) break;
  }

  const after = await workbook.fdqCells();
  const finalStats = client.stats();
  return {
    cells: after.length,
    requestsSent: finalStats.requestsSent - before.requestsSent,
    failedRequests: failures(finalStats) - failures(before),
    errorCells: after.filter((c) => isErrorValue(c.value)).length,
    durationMs: now() - started,
  };
}
