// The last few refreshes' change reports, kept in the add-in's storage (OfficeRuntime.storage: about 5 M
// characters per origin, shared by every workbook and add-in runtime of the origin, with no signal when full:
// docs/ and ../shared/notes/office-platform.md). So they are bounded: MAX_REPORTS reports, each listing at most
// MAX_LISTED changes (its counts stay whole), all together under MAX_CHARS characters, older reports dropped
// first. Reports name the workbook they belong to (its URL, when Office knows it).
import type { KeyValueStore } from "../../api";
import { CHANGE_KINDS, countByKind, type Change, type KindCounts } from "../../workbook/changes/changes";
import type { RefreshScope } from "./scope-cells";

export const HISTORY_KEY = "fdq.pane.changeReports";
export const MAX_REPORTS = 5;
export const MAX_LISTED = 200;
/** 2% of the origin's ~5 M characters. */
export const MAX_CHARS = 100_000;

export interface ChangeReport {
  /** When the refresh finished, ms since the epoch. */
  readonly at: number;
  /** The refresh day it ran on. */
  readonly day: string;
  readonly scope: RefreshScope;
  readonly reason: string;
  readonly cancelled: boolean;
  /** The workbook's URL ("" for a workbook never saved, or where Office does not tell). */
  readonly workbook: string;
  /** Every change counted, listed or not. */
  readonly counts: KindCounts;
  readonly total: number;
  /** The biggest changes first, at most MAX_LISTED. */
  readonly changes: readonly Change[];
}

export function makeReport(
  fields: Omit<ChangeReport, "counts" | "total" | "changes">,
  changes: readonly Change[],
): ChangeReport {
  return {
    ...fields,
    counts: countByKind(changes),
    total: changes.length,
    changes: changes.slice(0, MAX_LISTED),
  };
}

const isReport = (v: unknown): v is ChangeReport => {
  const r = v as Partial<ChangeReport> | null;
  return (
    typeof r === "object" &&
    r !== null &&
    typeof r.at === "number" &&
    typeof r.day === "string" &&
    typeof r.workbook === "string" &&
    typeof r.total === "number" &&
    Array.isArray(r.changes) &&
    typeof r.counts === "object" &&
    r.counts !== null &&
    CHANGE_KINDS.every((k) => typeof r.counts?.[k] === "number")
  );
};

/** `reports` (newest first) cut to the bounds: fewer reports, then a shorter list for a single big one. */
export function bounded(reports: readonly ChangeReport[]): ChangeReport[] {
  let kept = reports.slice(0, MAX_REPORTS);
  while (kept.length > 1 && JSON.stringify(kept).length > MAX_CHARS) kept = kept.slice(0, -1);
  const only = kept[0];
  if (kept.length === 1 && only && JSON.stringify(kept).length > MAX_CHARS) {
    let listed = only.changes.length;
    while (
      listed > 0 &&
      JSON.stringify({ ...only, changes: only.changes.slice(0, listed) }).length > MAX_CHARS
    ) {
      listed = Math.floor(listed / 2);
    }
    kept = [{ ...only, changes: only.changes.slice(0, listed) }];
  }
  return kept;
}

export class ChangeHistory {
  constructor(private readonly storage: KeyValueStore) {}

  /** Every kept report, newest first (a damaged record reads as none). */
  async all(): Promise<ChangeReport[]> {
    try {
      const parsed: unknown = JSON.parse((await this.storage.get(HISTORY_KEY)) ?? "[]");
      return Array.isArray(parsed) ? parsed.filter(isReport) : [];
    } catch {
      return [];
    }
  }

  /** The kept reports of one workbook, newest first. */
  async of(workbook: string): Promise<ChangeReport[]> {
    return (await this.all()).filter((r) => r.workbook === workbook);
  }

  async add(report: ChangeReport): Promise<void> {
    const mine = await this.all();
    // Another workbook's reports stay, within the same bounds: the newest across workbooks are kept.
    await this.storage.set(HISTORY_KEY, JSON.stringify(bounded([report, ...mine])));
  }
}
