// The fewest requests any client can send for a set of cells: one per ticker x dataset x period, or
// per datapoint too where the dataset has no all-datapoints mode (fundamentals), and one per rated
// security. And the fewest quota units any client can spend on them (wire-notes 11): one per distinct
// ticker x dataset x period x datapoint, and one per rating (or sector, or security) call.
import type { CellFetch, Period } from "./workloads";

/** One request of the lower bound, with every datapoint name it answers. */
export interface BoundRequest {
  readonly key: string;
  readonly cell: CellFetch;
  readonly names: readonly string[];
}

export function periodKey(period: Period): string {
  if (period.ttm !== undefined) return `${period.year}T${period.ttm}`;
  if (period.quarter !== undefined) return `${period.year}Q${period.quarter}`;
  return `${period.year}`;
}

/** Cells with the same key can share one request. */
export function requestKey(cell: CellFetch): string {
  const ticker = cell.ticker.toUpperCase();
  if (cell.kind === "rating") return `ratings|${ticker}`;
  const base = `${cell.dataset.path}|${ticker}|${periodKey(cell.period)}`;
  return cell.dataset.allDatapointsMode ? base : `${base}|${cell.name}`;
}

export function lowerBoundRequests(cells: readonly CellFetch[]): BoundRequest[] {
  const byKey = new Map<string, { cell: CellFetch; names: Set<string> }>();
  for (const cell of cells) {
    const key = requestKey(cell);
    const entry = byKey.get(key) ?? { cell, names: new Set<string>() };
    if (cell.kind === "datapoint") entry.names.add(cell.name);
    byKey.set(key, entry);
  }
  return [...byKey].map(([key, { cell, names }]) => ({ key, cell, names: [...names] }));
}

/** A cell's billed unit: the datapoint of one security and period, or one rating call per security. */
export function unitKey(cell: CellFetch): string {
  const ticker = cell.ticker.toUpperCase();
  if (cell.kind === "rating") return `ratings|${ticker}`;
  return `${cell.dataset.path}|${ticker}|${periodKey(cell.period)}|${cell.name.toUpperCase()}`;
}

/**
 * The fewest quota units that fill `cells` under the vendor's rule: each distinct datapoint x security x
 * period costs 1 however it is asked (alone, or as a record of a whole-dataset answer, which is billed per
 * record), and each rating call 1 (one per security answers every rating field).
 */
export function unitsBound(cells: readonly CellFetch[]): number {
  return new Set(cells.map(unitKey)).size;
}

/** The floor no client can beat: whole rounds of `concurrency` requests, each round one latency long. */
export function idealSeconds(requests: number, concurrency: number, latencyMs: number): number {
  return (Math.ceil(requests / concurrency) * latencyMs) / 1000;
}
