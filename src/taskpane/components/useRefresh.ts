// Refresh state shared by the Refresh panel and the refresh on opening a workbook on a new refresh day.
import { useCallback, useState } from "react";
import { estimateRefresh, type RefreshEstimate } from "../logic/refresh-estimate";
import { runRefresh, type RefreshProgress, type RefreshSummary } from "../logic/refresh-run";
import { useServices } from "../services";
import { messageOf } from "../logic/message";

export type RefreshState =
  | { readonly phase: "idle" }
  | { readonly phase: "estimated"; readonly estimate: RefreshEstimate }
  | { readonly phase: "running"; readonly progress: RefreshProgress; readonly reason: string }
  | { readonly phase: "done"; readonly summary: RefreshSummary; readonly reason: string }
  | { readonly phase: "error"; readonly message: string };

export interface RefreshControl {
  readonly state: RefreshState;
  estimate(): Promise<void>;
  refresh(reason: string): Promise<void>;
}

export function useRefresh(onFinished: () => void): RefreshControl {
  const { workbook, api, prefs } = useServices();
  const [state, setState] = useState<RefreshState>({ phase: "idle" });

  const estimate = useCallback(async () => {
    const client = await api.readyClient();
    if (!client) return setState({ phase: "error", message: "Save an API key under Connect first." });
    try {
      setState({ phase: "estimated", estimate: estimateRefresh(await workbook.fdqCells(), client) });
    } catch (err) {
      setState({ phase: "error", message: messageOf(err) });
    }
  }, [api, workbook]);

  const refresh = useCallback(
    async (reason: string) => {
      const client = await api.readyClient();
      if (!client) return setState({ phase: "error", message: "Save an API key under Connect first." });
      const day = api.refreshDay();
      setState({ phase: "running", reason, progress: { done: 0, total: 0, errors: 0 } });
      try {
        const summary = await runRefresh({
          workbook,
          client,
          onProgress: (progress) => setState({ phase: "running", reason, progress }),
        });
        await prefs.setLastRefresh({ day, at: Date.now() });
        setState({ phase: "done", reason, summary });
      } catch (err) {
        setState({ phase: "error", message: messageOf(err) });
      }
      onFinished();
    },
    [api, workbook, prefs, onFinished],
  );

  return { state, estimate, refresh };
}
