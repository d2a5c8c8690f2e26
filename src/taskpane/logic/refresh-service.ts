// The one refresh of a runtime, shared by the ribbon command, the new-day check of the runtime's start-up code
// and the pane's Refresh panel: a refresh started anywhere shows its progress and summary in the pane, records
// the refresh day (pane storage and the workbook's own settings), and never runs twice at once.
import type { DocumentSettings } from "../office/document-settings";
import type { WorkbookAccess } from "../office/workbook";
import type { ApiAccess } from "../api-access";
import { messageOf } from "./message";
import { refreshIfNewDay, type NewDayOutcome } from "./new-day";
import type { PanePrefs } from "./pane-prefs";
import { estimateRefresh, type RefreshEstimate } from "./refresh-estimate";
import { runRefresh, type RefreshOptions, type RefreshProgress, type RefreshSummary } from "./refresh-run";

export type RefreshState =
  | { readonly phase: "idle" }
  | { readonly phase: "estimated"; readonly estimate: RefreshEstimate }
  | { readonly phase: "running"; readonly progress: RefreshProgress; readonly reason: string }
  | { readonly phase: "done"; readonly summary: RefreshSummary; readonly reason: string }
  | { readonly phase: "error"; readonly message: string };

export interface RefreshServiceDeps {
  readonly workbook: WorkbookAccess;
  readonly api: Pick<ApiAccess, "readyClient" | "refreshDay">;
  readonly prefs: Pick<PanePrefs, "autoRefresh" | "setLastRefresh">;
  readonly document: DocumentSettings;
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
  async estimate(): Promise<RefreshEstimate | undefined> {
    const { api, workbook } = this.deps;
    const client = await api.readyClient();
    if (!client) {
      this.set(NOT_CONNECTED);
      return undefined;
    }
    let next: RefreshState;
    try {
      next = {
        phase: "estimated",
        estimate: await estimateRefresh(await workbook.fdqCells(), {
          client,
          workbook,
          today: api.refreshDay(),
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
  refresh(reason: string, options: { newDay?: boolean } = {}): Promise<boolean> {
    this.running ??= this.run(reason, options.newDay === true).finally(() => (this.running = undefined));
    return this.running;
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

  private async run(reason: string, newDay: boolean): Promise<boolean> {
    const { api, workbook, prefs, document, timing } = this.deps;
    const now = this.deps.now ?? Date.now;
    const client = await api.readyClient();
    if (!client) {
      this.set(NOT_CONNECTED);
      return false;
    }
    const day = api.refreshDay();
    this.set({ phase: "running", reason, progress: { done: 0, total: 0, errors: 0 } });
    try {
      const summary = await runRefresh({
        workbook,
        client,
        now,
        // The new-day refresh keeps what today's cache holds: the answers of earlier days are gone already,
        // but those the quota saver keeps, and today's (another workbook's) cost nothing again.
        keepCache: newDay,
        ...timing,
        onProgress: (progress) => this.set({ phase: "running", reason, progress }),
      });
      await Promise.all([prefs.setLastRefresh({ day, at: now() }), document.saveCalculatedDay(day)]);
      this.set({ phase: "done", reason, summary });
      return true;
    } catch (err) {
      this.set({ phase: "error", message: messageOf(err) });
      return false;
    }
  }

  private set(next: RefreshState): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
