// The pane's handle on the request module: settings in OfficeRuntime.storage and the shared client
// that the custom functions use too (src/host/shared-client.ts), so both see one key, one cache, one counter.
// ApiAccess is declared here, beside its one real implementation; the pane's logic and services.ts import the type.
import {
  DEFAULTS,
  RefreshDayClock,
  loadSettings,
  saveSettings,
  type BillingModel,
  type FdqClient,
  type FdqSettings,
  type KeyValueStore,
  type MetadataRecord,
  type RefreshPolicy,
} from "../api";
import { configureSharedClient, getSharedClient } from "../host/shared-client";

export interface ConnectionSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
}

/** How the account is billed and the refresh policy: saved with the connection settings, shown under Status. */
export interface QuotaSettings {
  /** per-datapoint (the vendor's unit, the default) or per-request. */
  readonly billing: BillingModel;
  /** strict per-day caching (the default) or the quota saver. */
  readonly refreshPolicy: RefreshPolicy;
}

export interface ApiAccess {
  /** The saved settings (production URL and no key before the first save). */
  loadSettings(): Promise<ConnectionSettings>;
  /** Checks, stores (OfficeRuntime.storage) and applies them to the shared client. */
  saveSettings(settings: ConnectionSettings): Promise<void>;
  /** The saved billing model and refresh policy (per-datapoint and strict before any is saved). */
  loadQuotaSettings(): Promise<QuotaSettings>;
  /** Saves the changes beside the connection settings and applies them to the shared client at once. */
  saveQuotaSettings(changes: Partial<QuotaSettings>): Promise<QuotaSettings>;
  /** The client the custom functions use, or undefined while no key is saved. */
  client(): FdqClient | undefined;
  /** The same client once it has loaded its settings and saved cache (needed to plan requests). */
  readyClient(): Promise<FdqClient | undefined>;
  /** The service's datapoint metadata (/v1/datapoint), loaded once per client; [] without a key. */
  datapointMetadata(): Promise<MetadataRecord[]>;
  /** The refresh day (YYYY-MM-DD) the shared cache is on now. */
  refreshDay(): string;
}

const quotaOf = (s: FdqSettings): QuotaSettings => ({
  billing: s.billing ?? DEFAULTS.billing,
  refreshPolicy: s.refreshPolicy ?? { kind: "strict" },
});

/** Builds the access; the shared client counts as usable once an API key is saved. */
export async function sharedApiAccess(store: KeyValueStore): Promise<ApiAccess> {
  // configureSharedClient leaves the refresh-day boundary at its default: the same clock tells the day.
  const clock = new RefreshDayClock(DEFAULTS.refreshDay);
  let configured = (await loadSettings(store)).apiKey !== "";
  const metadata = new WeakMap<FdqClient, Promise<MetadataRecord[]>>();
  const client = (): FdqClient | undefined => (configured ? getSharedClient() : undefined);

  const datapointMetadata = (c: FdqClient): Promise<MetadataRecord[]> => {
    let list = metadata.get(c);
    if (!list) {
      list = c.datapointList().then((r) => r.data);
      // A failed load is tried again next time, not remembered.
      list.catch(() => metadata.delete(c));
      metadata.set(c, list);
    }
    return list;
  };

  /**
   * Replaces the shared client with one built from `saved`, as after a connection save. The current client
   * writes its pending cache and usage first, so the new one loads today's answers and this month's units.
   * Without a key there is no client to replace: the functions read the settings when they first run.
   */
  const apply = async (saved: FdqSettings): Promise<void> => {
    if (saved.apiKey === "") return;
    await client()
      ?.flush()
      .catch(() => undefined);
    configureSharedClient(saved);
    configured = true;
  };

  return {
    loadSettings: () => loadSettings(store),
    saveSettings: async (settings) => {
      await apply(await saveSettings(store, settings));
    },
    loadQuotaSettings: async () => quotaOf(await loadSettings(store)),
    saveQuotaSettings: async (changes) => {
      const current = await loadSettings(store);
      const saved = await saveSettings(store, { ...current, ...changes });
      await apply(saved);
      return quotaOf(saved);
    },
    client,
    readyClient: async () => {
      const c = client();
      // A client that cannot get ready fails its calls with the reason (e.g. NotConfiguredError), which the
      // callers show: nothing to report here.
      await c?.ready().catch(() => undefined);
      return c;
    },
    datapointMetadata: async () => {
      const c = client();
      return c ? datapointMetadata(c) : [];
    },
    refreshDay: () => clock.label(Date.now()),
  };
}
