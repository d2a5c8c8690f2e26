// The billing model and refresh policy (the quota saver), saved with the connection settings: read once,
// and saved and applied to the shared client at once by Status's controls and the estimate's proposal.
import { useCallback, useEffect, useRef, useState } from "react";
import type { QuotaSettings } from "../api-access";
import { messageOf } from "../logic/message";
import { useServices } from "../services";

export interface QuotaSettingsControl {
  /** The saved settings; undefined until read. */
  readonly settings: QuotaSettings | undefined;
  /** Why the last save failed, or "". */
  readonly error: string;
  /** Saves the changes and applies them to the shared client; answers whether that worked. */
  save(changes: Partial<QuotaSettings>): Promise<boolean>;
}

/** `onSaved` runs after each save that worked (e.g. to read the usage and estimate again). */
export function useQuotaSettings(onSaved: () => void): QuotaSettingsControl {
  const { api } = useServices();
  const [settings, setSettings] = useState<QuotaSettings>();
  const [error, setError] = useState("");
  /** Saves run one after another, so the last change typed is the one saved. */
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    let live = true;
    void api.loadQuotaSettings().then((s) => live && setSettings(s));
    return () => {
      live = false;
    };
  }, [api]);
  const save = useCallback(
    (changes: Partial<QuotaSettings>): Promise<boolean> => {
      setError("");
      // Shown at once; the saved value follows.
      setSettings((s) => s && { ...s, ...changes });
      const run = queue.current.then(async () => {
        try {
          setSettings(await api.saveQuotaSettings(changes));
          onSaved();
          return true;
        } catch (err) {
          setError(messageOf(err));
          setSettings(await api.loadQuotaSettings().catch(() => undefined));
          return false;
        }
      });
      queue.current = run;
      return run;
    },
    [api, onSaved],
  );
  return { settings, error, save };
}
