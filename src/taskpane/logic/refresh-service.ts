// The one refresh of a runtime, shared by the ribbon command, the new-day check of the runtime's start-up code
// and the pane's Refresh panel: a refresh started anywhere shows its progress and summary in the pane, records
// the refresh day (pane storage and the workbook's own settings) and its change report (pane storage, bounded),
// can be cancelled, and never runs twice at once.
import type { DocumentSettings } from "../office/document-settings";
import type { WorkbookAccess } from "../office/workbook";
import type { ApiAccess } from "../api-access";
import { messageOf } from "./message";
import { refreshIfNewDay, type NewDayOutcome } from "./new-day";
import type { PanePrefs } from "./pane-prefs";
import { makeReport, type ChangeHistory } from "./change-history";
import { estimateRefresh, type RefreshEstimate } from "./refresh-estimate";
import { runRefresh, type RefreshOptions, type RefreshProgress, type RefreshSummary } from "./refresh-run";
import { scopeCells, type RefreshScope } from "./scope-cells";

export type RefreshState =
  | { readonly phase: "idle" }
  | { readonly phase: "estimated"; readonly estimate: RefreshEstimate; readonly scope: RefreshScope }
  | {
      readonly phase: "running";
      readonly progress: RefreshProgress;
      readonly reason: string;
      readonly scope: RefreshScope;
    }
  | { readonly phase: "done"; readonly summary: RefreshSummary; readonly reason: string }
  | { readonly phase: "error"; readonly message: string };

export interface RefreshServiceDeps {
  readonly workbook: WorkbookAccess;
  readonly api: Pick<ApiAccess, "readyClient" | "refreshDay">;
  readonly prefs: Pick<PanePrefs, "autoRefresh" | "setLastRefresh">;
  readonly document: DocumentSettings;
  /** Where the change reports are kept (none: not kept). */
  readonly history?: ChangeHistory;
  /** The workbook's name for its kept reports (its URL, where Office knows it). */
  readonly workbookId?: () => string;
  readonly now?: () => number;
  /** How the run follows the client's counters (tests shorten the waits). */
  readonly timing?: Pick<RefreshOptions, "pollMs" | "quietMs">;
}

const NOT_CONNECTED: RefreshState = { phase: "error", message: "Save an API key under Connect first." };

export class RefreshService {
  private current: RefreshState = { phase: "idle" };
  private readonly listeners = new Set<() => void>();
  private running: Promise<boolean> | undefined;
  private checking: Promise<NewDayOutcome> | undefined;
  private cancel: AbortController | undefined;

  constructor(private readonly deps: RefreshServiceDeps) {}

  /** The state now (a new object on every change, as React's useSyncExternalStore expects). */
  readonly state = (): RefreshState => this.current;

  /** Answers an unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * What a refresh would cost, shown unless a refresh starts meanwhile (its progress matters more); answers
   * the estimate, or undefined when there is none (no key, or it failed: the state says why).
   */
  async estimate(scope: RefreshScope = "workbook"): Promise<RefreshEstimate | undefined> {
    const { api, workbook } = this.deps;
    const client = await api.readyClient();
    if (!client) {
      this.set(NOT_CONNECTED);
      return undefined;
    }
    let next: RefreshState;
    try {
      const today = api.refreshDay();
      next = {
        phase: "estimated",
        scope,
        estimate: await estimateRefresh(await scopeCells(scope, { workbook, client, today }), {
          client,
          workbook,
          today,
        }),
      };
    } catch (err) {
      next = { phase: "error", message: messageOf(err) };
    }
    if (!this.running) this.set(next);
    return next.phase === "estimated" ? next.estimate : undefined;
  }

  /**
   * Runs a refresh, or joins the one under way; answers whether it finished with a summary. The refresh of a
   * new refresh day (`newDay`) keeps the cache: see refresh-run.ts.
   */
  refresh(reason: string, options: { newDay?: boolean; scope?: RefreshScope } = {}): Promise<boolean> {
    this.running ??= this.run(reason, options.newDay === true, options.scope ?? "workbook").finally(
      () => (this.running = undefined),
    );
    return this.running;
  }

  /** Stops the refresh under way from sending any new request; answers whether one was under way. */
  cancelRefresh(): boolean {
    if (!this.running || !this.cancel) return false;
    this.cancel.abort();
    if (this.current.phase === "running") {
      this.set({ ...this.current, progress: { ...this.current.progress, cancelling: true } });
    }
    return true;
  }

  /** Refreshes if the workbook was last calculated on an earlier refresh day; joins a check under way. */
  checkNewDay(): Promise<NewDayOutcome> {
    const { api, prefs, document, workbook } = this.deps;
    this.checking ??= refreshIfNewDay({
      autoRefresh: () => prefs.autoRefresh(),
      lastCalculatedDay: () => document.calculatedDay(),
      saveCalculatedDay: (day) => document.saveCalculatedDay(day),
      today: () => api.refreshDay(),
      hasFdqFormulas: async () => (await workbook.fdqCells()).length > 0,
      refresh: (reason) => this.refresh(reason, { newDay: true }),
    }).finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async run(reason: string, newDay: boolean, scope: RefreshScope): Promise<boolean> {
    const { api, workbook, prefs, document, timing } = this.deps;
    const now = this.deps.now ?? Date.now;
    const client = await api.readyClient();
    if (!client) {
      this.set(NOT_CONNECTED);
      return false;
    }
    const day = api.refreshDay();
    this.set({
      phase: "running",
      reason,
      scope,
      progress: { counting: true, done: 0, total: 0, errors: 0, unitsSpent: 0 },
    });
    const cancel = (this.cancel = new AbortController());
    try {
      const summary = await runRefresh({
        workbook,
        client,
        scope,
        signal: cancel.signal,
        today: day,
        now,
        // The new-day refresh keeps what today's cache holds: the answers of earlier days are gone already,
        // but those the quota saver keeps, and today's (another workbook's) cost nothing again.
        keepCache: newDay,
        ...timing,
        onProgress: (progress) => this.set({ phase: "running", reason, scope, progress }),
      });
      // Only a whole, finished refresh makes the workbook current for the day.
      const whole = scope === "workbook" && !summary.cancelled;
      await Promise.all([
        prefs.setLastRefresh({ day, at: now() }),
        whole ? document.saveCalculatedDay(day) : undefined,
        this.keepReport(summary, reason, day, now()),
      ]);
      this.set({ phase: "done", reason, summary });
      return true;
    } catch (err) {
      this.set({ phase: "error", message: messageOf(err) });
      return false;
    } finally {
      this.cancel = undefined;
    }
  }

  /** Keeps the change report; storage that refuses it loses the report, never the refresh. */
  private async keepReport(summary: RefreshSummary, reason: string, day: string, at: number): Promise<void> {
    const { history, workbookId } = this.deps;
    const fields = {
      at,
      day,
      reason,
      scope: summary.scope,
      cancelled: summary.cancelled,
      workbook: workbookId?.() ?? "",
    };
    await history?.add(makeReport(fields, summary.changes)).catch(() => undefined);
  }

  private set(next: RefreshState): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
