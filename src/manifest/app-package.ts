// The app package: the zip the Microsoft 365 admin center (Integrated apps) and Teams' "Upload a custom app" take,
// holding manifest.json and the two icon files its "icons" name, at those paths. fflate (already the workbook's
// zip library) writes it.
import { strToU8, zipSync } from "fflate";
import { ADDIN } from "./addin";

/** The file name under which the build and `fdq serve` hand the package out. */
export const APP_PACKAGE_FILE = "fdq-for-excel.zip";

/** The package's entries besides manifest.json: the colour and outline icons, by their path in the package. */
export const APP_PACKAGE_ICONS = [ADDIN.icons.color.path, ADDIN.icons.outline.path] as const;

/**
 * The zip of `manifest` (manifest.json's text) and its icons; `icon(path)` gives the bytes of each of
 * APP_PACKAGE_ICONS. The entries carry a fixed date, not the moment the zip is made.
 */
export function appPackage(manifest: string, icon: (path: string) => Uint8Array): Uint8Array {
  const mtime = new Date(Date.UTC(2026, 0, 1));
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {
    "manifest.json": [strToU8(manifest), { mtime }],
  };
  for (const path of APP_PACKAGE_ICONS) entries[path] = [icon(path), { mtime }];
  return zipSync(entries, { level: 9 });
}
