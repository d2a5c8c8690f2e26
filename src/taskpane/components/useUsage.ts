// Today's requests and cache hits of the shared client, kept per refresh day in OfficeRuntime.storage
// (the client's own counters start again with each new client), and the month's quota: the units the
// client's usage ledger counted and the plan size the user set (pane preferences).
import { useCallback, useEffect, useRef, useState } from "react";
import { DEFAULTS, type ClientStats, type FdqClient } from "../../api";
import type { DailyUsage, LastRefresh } from "../logic/pane-prefs";
import { readStanding, type QuotaStanding } from "../logic/quota";
import { useServices } from "../services";

export interface Usage {
  readonly today: DailyUsage;
  readonly lastRefresh?: LastRefresh;
  /** The monthly plan's units (the pane's setting). */
  readonly planUnits: number;
  /** This month's units, plan and what is left; undefined while no key is saved. */
  readonly quota?: QuotaStanding;
}

export interface UsageView {
  readonly usage: Usage;
  /** Reads everything again now (after the plan size changed or the plan was said raised). */
  reload(): void;
}

/** Polls every `pollMs`, and at once whenever `version` changes (e.g. after a refresh) or on reload(). */
export function useUsage(version: number, pollMs = 1000): UsageView {
  const { api, prefs } = useServices();
  const [usage, setUsage] = useState<Usage>({
    today: { day: api.refreshDay(), requests: 0, cacheHits: 0 },
    planUnits: DEFAULTS.planUnits,
  });
  const [reloads, setReloads] = useState(0);
  const seen = useRef<{ client: FdqClient; stats: ClientStats } | undefined>(undefined);

  useEffect(() => {
    let live = true;
    const tick = async (): Promise<void> => {
      const client = api.client();
      const day = api.refreshDay();
      let requests = 0;
      let cacheHits = 0;
      if (client) {
        const stats = client.stats();
        const before = seen.current?.client === client ? seen.current.stats : undefined;
        requests = stats.requestsSent - (before?.requestsSent ?? 0);
        cacheHits = stats.cacheHits - (before?.cacheHits ?? 0);
        seen.current = { client, stats };
      }
      const today = await prefs.addUsage(day, requests, cacheHits);
      const lastRefresh = await prefs.lastRefresh();
      const planUnits = await prefs.planUnits();
      // A client that cannot load its settings has no ledger to read: no quota line then.
      const quota = client ? await readStanding(client, prefs).catch(() => undefined) : undefined;
      if (live) setUsage({ today, lastRefresh, planUnits, ...(quota && { quota }) });
    };
    void tick();
    const timer = setInterval(() => void tick(), pollMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, prefs, pollMs, version, reloads]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { usage, reload };
}
