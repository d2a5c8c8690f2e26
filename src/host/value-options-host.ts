// The value options the functions run with in Excel: the analyst's choices saved by the task pane
// (src/functions/value-options.ts, in OfficeRuntime.storage), read at most once per READ_INTERVAL_MS so that a
// recalculation of thousands of cells reads the storage once, and limited to what this Excel supports: where it
// cannot hold data-type values, numbers return plain whatever the option says (rich-value-support.ts).
import { DEFAULT_VALUE_OPTIONS, loadValueOptions, type ValueOptions } from "../functions/value-options";
import { richValueSupport } from "./rich-value-support";
import { officeRuntimeStorage } from "./shared-client";

/** How long a reading of the options serves: one recalculation's worth. */
export const READ_INTERVAL_MS = 1000;

let reading: { readonly at: number; readonly options: Promise<ValueOptions> } | undefined;

async function read(): Promise<ValueOptions> {
  const storage = officeRuntimeStorage();
  const saved = storage
    ? await loadValueOptions(storage).catch(() => DEFAULT_VALUE_OPTIONS)
    : DEFAULT_VALUE_OPTIONS;
  return richValueSupport().supported ? saved : { ...saved, withSource: false };
}

/** The options the functions apply now. */
export function currentValueOptions(now = Date.now()): Promise<ValueOptions> {
  if (!reading || now - reading.at >= READ_INTERVAL_MS) reading = { at: now, options: read() };
  return reading.options;
}

/** Forgets the last reading: the pane calls it after saving new options, so the next calculation reads them. */
export function forgetValueOptions(): void {
  reading = undefined;
}
