// What the components need from outside React: Office (workbook, storage, theme) and the shared client.
// runtime-services.ts builds the real ones; a test can hand in others.
import { createContext, useContext } from "react";
import type { ApiAccess } from "./api-access";
import type { DoctorOffers } from "./office/document-settings";
import type { OfficePlatform } from "./office/platform";
import type { WorkbookAccess } from "./office/workbook";
import type { PanePrefs } from "./logic/pane-prefs";
import type { RefreshService } from "./logic/refresh-service";
import type { ChangeHistory } from "./logic/change-history";
import type { ShareCopyWriter } from "../workbook/share/fdq-sources";
import type { RichValueSupport } from "../host/rich-value-support";

export interface PaneServices {
  readonly platform: OfficePlatform;
  readonly workbook: WorkbookAccess;
  readonly api: ApiAccess;
  readonly prefs: PanePrefs;
  /** The runtime's one refresh (also driven by the ribbon and the new-day check of commands.ts). */
  readonly refresher: RefreshService;
  /** The last refreshes' change reports (OfficeRuntime.storage, bounded). */
  readonly history: ChangeHistory;
  /** This workbook's name for its kept reports. */
  readonly workbookId: () => string;
  /** Whether the formula doctor offered its repair in this workbook (document settings); optional for tests. */
  readonly doctorOffers?: DoctorOffers;
  /** The package step of Share as values; undefined where this build has none (the pane says so). */
  readonly shareWriter?: ShareCopyWriter;
  /**
   * Whether this Excel shows data types (cards, numbers with their source), and why not; optional for tests:
   * without it the pane offers neither.
   */
  readonly richValueSupport?: () => RichValueSupport;
}

export const ServicesContext = createContext<PaneServices | undefined>(undefined);

export function useServices(): PaneServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices outside <ServicesContext.Provider>");
  return services;
}
