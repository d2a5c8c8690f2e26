// The add-in's records inside the workbook file (Office.context.document.settings): unlike
// OfficeRuntime.storage, which every workbook of the add-in's domain shares, they belong to this workbook.

/** The refresh day this workbook was last calculated on, kept in the document. */
export interface DocumentSettings {
  calculatedDay(): Promise<string | undefined>;
  saveCalculatedDay(day: string): Promise<void>;
}

export const CALCULATED_DAY_SETTING = "fdq.calculatedRefreshDay";

export function officeDocumentSettings(): DocumentSettings {
  const settings = (): Office.Settings => Office.context.document.settings;
  return {
    calculatedDay: async () => {
      const value: unknown = settings().get(CALCULATED_DAY_SETTING);
      return typeof value === "string" ? value : undefined;
    },
    saveCalculatedDay: (day) =>
      new Promise((resolve) => {
        settings().set(CALCULATED_DAY_SETTING, day);
        // A failed save only means the next open refreshes once more: nothing to report.
        settings().saveAsync(() => resolve());
      }),
  };
}

/** Whether the formula doctor has offered its repair in this workbook: it offers once per workbook. */
export interface DoctorOffers {
  offered(): Promise<boolean>;
  markOffered(): Promise<void>;
}

export const DOCTOR_OFFERED_SETTING = "fdq.doctorOffered";

export function officeDoctorOffers(): DoctorOffers {
  const settings = (): Office.Settings => Office.context.document.settings;
  return {
    offered: async () => settings().get(DOCTOR_OFFERED_SETTING) === true,
    markOffered: () =>
      new Promise((resolve) => {
        settings().set(DOCTOR_OFFERED_SETTING, true);
        // A failed save only means the offer comes once more when the workbook opens again.
        settings().saveAsync(() => resolve());
      }),
  };
}
