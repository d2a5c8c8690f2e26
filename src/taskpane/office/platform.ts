// The Office host around the workbook: persistent storage, the Office theme, and selection events.
import type { KeyValueStore } from "../../api";
import { officeRuntimeStorage } from "../../host/shared-client";

export type ThemeKind = "light" | "dark";

export interface OfficePlatform {
  /** OfficeRuntime.storage (through officeStorage, partitioned): per add-in domain, never inside the document. */
  readonly storage: KeyValueStore;
  theme(): ThemeKind;
  /** Answers an unsubscribe. */
  onThemeChanged(listener: (theme: ThemeKind) => void): () => void;
  /** Answers an unsubscribe. */
  onSelectionChanged(listener: () => void): () => void;
}

/** Relative luminance of "#RRGGBB" (0 black .. 1 white). */
function luminance(hex: string): number {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return 1;
  const [r, g, b] = [match[1], match[2], match[3]].map((h) => {
    const c = parseInt(h ?? "ff", 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 1) + 0.7152 * (g ?? 1) + 0.0722 * (b ?? 1);
}

/** Office themes are named by their colours only: a dark body background means a dark theme. */
export function themeOf(officeTheme: Pick<Office.OfficeTheme, "bodyBackgroundColor"> | undefined): ThemeKind {
  if (!officeTheme?.bodyBackgroundColor) return "light";
  return luminance(officeTheme.bodyBackgroundColor) < 0.2 ? "dark" : "light";
}

/** One Office handler per event type, fanned out to the pane's current listeners. */
function eventHub<T>(
  type: Office.EventType,
  toValue: (args: unknown) => T,
): (listener: (value: T) => void) => () => void {
  const listeners = new Set<(value: T) => void>();
  let registered = false;
  return (listener) => {
    if (!registered) {
      registered = true;
      // Hosts without the event (older Excel builds) report a failure; the pane then keeps its state.
      Office.context.document.addHandlerAsync(
        type,
        (args: unknown) => listeners.forEach((l) => l(toValue(args))),
        () => undefined,
      );
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
}

export function officePlatform(): OfficePlatform {
  // The very store the custom functions read, partitioned as they partition it.
  const storage = officeRuntimeStorage();
  if (!storage)
    throw new Error("OfficeRuntime.storage is missing: the pane runs only in Excel's shared runtime.");
  const onThemeChanged = eventHub(Office.EventType.OfficeThemeChanged, (args) =>
    themeOf((args as Partial<Office.OfficeThemeChangedEventArgs>).officeTheme ?? Office.context.officeTheme),
  );
  const onSelectionChanged = eventHub(Office.EventType.DocumentSelectionChanged, () => undefined);
  return {
    storage,
    theme: () => themeOf(Office.context.officeTheme),
    onThemeChanged,
    onSelectionChanged: (listener) => onSelectionChanged(() => listener()),
  };
}
