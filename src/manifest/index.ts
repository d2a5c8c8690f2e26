// The add-in's manifests, made from one description (addin.ts): the add-in only manifest (manifest.xml), the
// unified manifest for Microsoft 365 (manifest.json) and the app package that carries the latter.
export { ADDIN, DEV_ADDIN_URL, REFRESH_COMMAND, addinBase } from "./addin";
export { manifestXml } from "./xml-manifest";
export {
  UNIFIED_SCHEMA_URL,
  UNIFIED_SCHEMA_VERSION,
  manifestJson,
  unifiedManifest,
} from "./unified-manifest";
export { APP_PACKAGE_FILE, APP_PACKAGE_ICONS, appPackage } from "./app-package";
