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
} from "../api";
import type { KeyValueStorage } from "./office/platform";
import type { ApiAccess } from "./services";

/** Builds the access and picks up the shared client if a key is already saved. */
export async function sharedApiAccess(storage: KeyValueStorage): Promise<ApiAccess> {
  const store = officeStorage(storage);
  // configureSharedClient leaves the refresh-day boundary at its default: the same clock tells the day.
  const clock = new RefreshDayClock(DEFAULTS.refreshDay);
  let client: FdqClient | undefined;
  try {
    client = await getSharedClient();
  } catch {
    client = undefined; // no key saved yet
  }
  return {
    loadSettings: () => loadSettings(store),
    saveSettings: async (settings) => {
      client = configureSharedClient(await saveSettings(store, settings));
    },
    client: () => client,
    refreshDay: () => clock.label(Date.now()),
  };
}
