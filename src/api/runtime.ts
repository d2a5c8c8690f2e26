// The one FdqClient of Excel's shared runtime, used by the custom functions and the task pane alike, with
// its cache persisted in OfficeRuntime.storage. Outside Excel (tests, CLI) the cache stays in memory
// unless options name a storage.
import { FdqClient } from "./client";
import { NotConfiguredError } from "./errors";
import { loadSettings, type FdqSettings } from "./settings";
import { officeStorage, type KeyValueStore } from "./storage";
import type { ClientEvent, ClientOptions } from "./types";

export type SharedClientOptions = Partial<Omit<ClientOptions, "baseUrl" | "apiKey">>;

let shared: FdqClient | undefined;
const listeners = new Set<(e: ClientEvent) => void>();

/** OfficeRuntime.storage as a storage adapter, or undefined outside Office. */
export function officeRuntimeStorage(): KeyValueStore | undefined {
  return typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage
    ? officeStorage(OfficeRuntime.storage)
    : undefined;
}

function clientOptions(settings: FdqSettings, options: SharedClientOptions): ClientOptions {
  return {
    ...options,
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    ...(settings.billing ? { billing: settings.billing } : {}),
    ...(settings.refreshPolicy ? { refreshPolicy: settings.refreshPolicy } : {}),
    storage: options.storage ?? officeRuntimeStorage(),
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
        if (!settings?.apiKey) throw new NotConfiguredError();
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
