// What the components need from outside React: Office (workbook, storage, theme) and the shared client.
// runtime-services.ts builds the real ones; a test can hand in others.
import { createContext, useContext } from "react";
import type { FdqClient, MetadataRecord } from "../api";
import type { OfficePlatform } from "./office/platform";
import type { WorkbookAccess } from "./office/workbook";
import type { PanePrefs } from "./logic/pane-prefs";
import type { RefreshService } from "./logic/refresh-service";

export interface ConnectionSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
}

export interface ApiAccess {
  /** The saved settings (production URL and no key before the first save). */
  loadSettings(): Promise<ConnectionSettings>;
  /** Checks, stores (OfficeRuntime.storage) and applies them to the shared client. */
  saveSettings(settings: ConnectionSettings): Promise<void>;
  /** The client the custom functions use, or undefined while no key is saved. */
  client(): FdqClient | undefined;
  /** The same client once it has loaded its settings and saved cache (needed to plan requests). */
  readyClient(): Promise<FdqClient | undefined>;
  /** The service's datapoint metadata (/v1/datapoint), loaded once per client; [] without a key. */
  datapointMetadata(): Promise<MetadataRecord[]>;
  /** The refresh day (YYYY-MM-DD) the shared cache is on now. */
  refreshDay(): string;
}

export interface PaneServices {
  readonly platform: OfficePlatform;
  readonly workbook: WorkbookAccess;
  readonly api: ApiAccess;
  readonly prefs: PanePrefs;
  /** The runtime's one refresh (also driven by the ribbon and the new-day check of commands.ts). */
  readonly refresher: RefreshService;
}

export const ServicesContext = createContext<PaneServices | undefined>(undefined);

export function useServices(): PaneServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices outside <ServicesContext.Provider>");
  return services;
}
