// Whether the dev server (webpack.config.js) serves https, which Excel requires of an add-in: with Office's
// development certificate (office-addin-dev-certs). On Windows and macOS the dev server makes and trusts it on
// first use; on Linux it uses an installed one only, because installing asks for the password
// (`npx office-addin-dev-certs install`). `npm start` (scripts/start.ts) says what this decides.
import { existsSync } from "node:fs";
import {
  caCertificatePath,
  localhostCertificatePath,
  localhostKeyPath,
} from "office-addin-dev-certs/lib/defaults";

/** The one command that installs the development certificate. */
export const INSTALL_CERTIFICATE = "npx office-addin-dev-certs install";

/** The CA certificate, the localhost certificate and its key, where office-addin-dev-certs keeps them. */
export function certificateFiles(): [string, string, string] {
  return [caCertificatePath, localhostCertificatePath, localhostKeyPath];
}

/** How the dev server will serve: https, or http and why. */
export function devServerScheme(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  installed: () => boolean = () => certificateFiles().every((file) => existsSync(file)),
): { https: true } | { https: false; reason: string } {
  if (env["FDQ_DEV_HTTP"] === "1") return { https: false, reason: "FDQ_DEV_HTTP=1 asks for http" };
  if (platform === "linux" && !installed()) {
    return { https: false, reason: "this machine has no development certificate" };
  }
  return { https: true };
}
