// The pane's handle on the request module: settings in OfficeRuntime.storage and the shared client
// that the custom functions use too (src/api/runtime.ts), so both see one key, one cache, one counter.
import {
  DEFAULTS,
  RefreshDayClock,
  configureSharedClient,
  getSharedClient,
  loadSettings,
  officeStorage,
  saveSettings,
  type FdqClient,
  type MetadataRecord,
} from "../api";
import type { KeyValueStorage } from "./office/platform";
import type { ApiAccess } from "./services";

/** Builds the access; the shared client counts as usable once an API key is saved. */
export async function sharedApiAccess(storage: KeyValueStorage): Promise<ApiAccess> {
  const store = officeStorage(storage);
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

  return {
    loadSettings: () => loadSettings(store),
    saveSettings: async (settings) => {
      configureSharedClient(await saveSettings(store, settings));
      configured = true;
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
