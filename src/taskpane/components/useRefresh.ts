// The pane's view of the runtime's one RefreshService: the Refresh panel's buttons and whatever refresh
// the ribbon or the new-day check started, with its progress and summary.
import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { RefreshEstimate } from "../logic/refresh-estimate";
import type { RefreshState } from "../logic/refresh-service";
import type { RefreshScope } from "../logic/scope-cells";
import { useServices } from "../services";

export type { RefreshState } from "../logic/refresh-service";

export interface RefreshControl {
  readonly state: RefreshState;
  /** Shows the cost of refreshing `scope` and answers it (undefined without a key or when it failed). */
  estimate(scope?: RefreshScope): Promise<RefreshEstimate | undefined>;
  refresh(reason: string, scope?: RefreshScope): Promise<void>;
  /** Stops the refresh under way from sending any new request. */
  cancel(): void;
}

/** `onFinished` runs after each refresh that ended with a summary, whoever started it. */
export function useRefresh(onFinished: () => void): RefreshControl {
  const { refresher } = useServices();
  const state = useSyncExternalStore(refresher.subscribe, refresher.state);
  useEffect(() => {
    if (state.phase === "done") onFinished();
  }, [state, onFinished]);
  return useMemo(
    () => ({
      state,
      estimate: (scope) => refresher.estimate(scope),
      refresh: async (reason, scope) => void (await refresher.refresh(reason, scope ? { scope } : {})),
      cancel: () => void refresher.cancelRefresh(),
    }),
    [state, refresher],
  );
}
