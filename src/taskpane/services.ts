// What the components need from outside React: Office (workbook, storage, theme) and the shared client.
// runtime-services.ts builds the real ones; a test can hand in others.
import { createContext, useContext } from "react";
import type { ApiAccess } from "./api-access";
import type { OfficePlatform } from "./office/platform";
import type { WorkbookAccess } from "./office/workbook";
import type { PanePrefs } from "./logic/pane-prefs";
import type { RefreshService } from "./logic/refresh-service";

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
