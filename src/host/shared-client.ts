// The one FdqClient of Excel's shared runtime, used by the custom functions and the task pane alike. Its
// cache and usage ledger persist in IndexedDB, shared safely by every open workbook's runtime
// (cache-store/indexeddb-store.ts); the settings and the key stay in OfficeRuntime.storage. Both are
// partitioned by Office.context.partitionKey where Office defines one. Outside Excel (tests, CLI) the cache
// stays in memory unless options name a storage.
//
// Host code: the one place that reads Office's globals (Office.context, OfficeRuntime.storage). The request
// module (src/api) is handed the storage it persists to and the Excel wording of its errors (EXCEL_HINTS), and
// knows nothing of Office.
import {
  FdqClient,
  IndexedDbStore,
  NotConfiguredError,
  hasIndexedDb,
  loadSettings,
  officeStorage,
  partitioned,
  type ClientEvent,
  type ClientOptions,
  type FdqSettings,
  type KeyValueStore,
} from "../api";
import { EXCEL_HINTS } from "./excel-hints";

export type SharedClientOptions = Partial<Omit<ClientOptions, "baseUrl" | "apiKey">>;

let shared: FdqClient | undefined;
const listeners = new Set<(e: ClientEvent) => void>();

/** Office.context.partitionKey where Office defines one (Excel on the web), else undefined. */
export function officePartitionKey(): string | undefined {
  try {
    const key = typeof Office !== "undefined" ? Office.context?.partitionKey : undefined;
    return typeof key === "string" && key !== "" ? key : undefined;
  } catch {
    return undefined; // Office not initialised yet: no partition is known
  }
}

/**
 * OfficeRuntime.storage as a storage adapter, its keys under the partition key where there is one; undefined
 * outside Office. In the shared runtime it is the webview's localStorage: about 5 M characters that every
 * workbook's runtime shares, with no signal when full (office-js#2901), so it keeps the settings only.
 */
export function officeRuntimeStorage(): KeyValueStore | undefined {
  return typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage
    ? partitioned(officeStorage(OfficeRuntime.storage), officePartitionKey())
    : undefined;
}

const indexedDbStores = new Map<string, IndexedDbStore>();

/**
 * Where the cache and the usage ledger persist: IndexedDB where the runtime has it (the shared runtime
 * does), one database per partition; OfficeRuntime.storage otherwise, in bounded parts, as where the
 * database cannot be opened (the day cache then warns once).
 */
export function cacheStorage(): KeyValueStore | undefined {
  if (!hasIndexedDb()) return officeRuntimeStorage();
  const partition = officePartitionKey();
  const name = partition === undefined ? "fdq-cache" : `fdq-cache.${partition}`;
  let store = indexedDbStores.get(name);
  if (!store) {
    // The cache and ledger an earlier version kept in OfficeRuntime.storage are imported once, then removed;
    // where the database cannot be opened (a private-mode webview), they stay there instead, in parts.
    const office = officeRuntimeStorage();
    store = new IndexedDbStore({ name, legacy: office, fallback: office });
    indexedDbStores.set(name, store);
  }
  return store;
}

function clientOptions(settings: FdqSettings, options: SharedClientOptions): ClientOptions {
  return {
    ...options,
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    ...(settings.billing ? { billing: settings.billing } : {}),
    ...(settings.refreshPolicy ? { refreshPolicy: settings.refreshPolicy } : {}),
    storage: options.storage ?? cacheStorage(),
    hints: { ...EXCEL_HINTS, ...options.hints },
    onEvent: (e) => {
      options.onEvent?.(e);
      for (const listener of listeners) listener(e);
    },
  };
}

function replace(next: FdqClient): FdqClient {
  const previous = shared;
  shared = next;
  void previous?.close().catch(() => undefined);
  return next;
}

/** Replaces the shared client (e.g. after the task pane saved new settings); the old one flushes its cache. */
export function configureSharedClient(settings: FdqSettings, options: SharedClientOptions = {}): FdqClient {
  return replace(new FdqClient(clientOptions(settings, options)));
}

/**
 * The shared client, usable at once. Before any configureSharedClient() it is built from the settings saved
 * in OfficeRuntime.storage when its first call runs (so cells recalculated while Excel starts wait for the
 * settings instead of failing); while no API key is saved, calls reject with NotConfiguredError.
 */
export function getSharedClient(): FdqClient {
  return (
    shared ??
    replace(
      new FdqClient(async () => {
        const storage = officeRuntimeStorage();
        const settings = storage ? await loadSettings(storage) : undefined;
        if (!settings?.apiKey) throw new NotConfiguredError({ hints: EXCEL_HINTS });
        return clientOptions(settings, {});
      }),
    )
  );
}

/** Events of whichever client is shared now or later (task pane status, logs); answers an unsubscribe. */
export function onSharedClientEvent(listener: (e: ClientEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Drops the shared client (tests, sign-out); the next getSharedClient() reads the settings again. */
export async function resetSharedClient(): Promise<void> {
  const previous = shared;
  shared = undefined;
  await previous?.close();
}
