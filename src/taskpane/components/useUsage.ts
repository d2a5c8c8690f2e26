// Today's requests and cache hits of the shared client, kept per refresh day in OfficeRuntime.storage
// (the client's own counters start again with each new client).
import { useEffect, useRef, useState } from "react";
import type { ClientStats, FdqClient } from "../../api";
import type { DailyUsage, LastRefresh } from "../logic/pane-prefs";
import { useServices } from "../services";

export interface Usage {
  readonly today: DailyUsage;
  readonly lastRefresh?: LastRefresh;
}

/** Polls every `pollMs`, and at once whenever `version` changes (e.g. after a refresh). */
export function useUsage(version: number, pollMs = 1000): Usage {
  const { api, prefs } = useServices();
  const [usage, setUsage] = useState<Usage>({ today: { day: api.refreshDay(), requests: 0, cacheHits: 0 } });
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
      if (live) setUsage({ today, lastRefresh });
    };
    void tick();
    const timer = setInterval(() => void tick(), pollMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, prefs, pollMs, version]);
  return usage;
}
