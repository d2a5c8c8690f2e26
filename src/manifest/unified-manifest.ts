// The unified manifest for Microsoft 365 (manifest.json, the Microsoft 365 app manifest) made from the description
// in addin.ts: what the Microsoft 365 admin center's Integrated apps and Teams' app upload take, inside the app
// package (app-package.ts). Schema 1.28, the newest the published schemas (npm @microsoft/app-manifest, vendored
// in schemas/) hold; custom functions belong to a runtime's `customFunctions` since 1.23. The shape follows
// Microsoft's "Configure custom functions with the unified manifest" and "Convert custom functions to the unified
// manifest": one general runtime of lifetime long whose page is the shared page and whose script is functions.js,
// with the FDQ namespace and functions.json; ribbon buttons name the runtime's actions.
import { ADDIN, addinBase } from "./addin";

/** The schema version manifest.json declares, and the vendored schema it is validated against. */
export const UNIFIED_SCHEMA_VERSION = "1.28";
export const UNIFIED_SCHEMA_URL = `https://developer.microsoft.com/json-schemas/teams/v${UNIFIED_SCHEMA_VERSION}/MicrosoftTeams.schema.json`;

/** The unified manifest's document for the add-in served from `url`, as JSON.parse would give it. */
export function unifiedManifest(url: string): Record<string, unknown> {
  const base = addinBase(url);
  const { ribbon, icons, functions, getStarted } = ADDIN;
  const ribbonIcons = icons.ribbon.map((icon) => ({ size: icon.size, url: base + icon.path }));
  const capabilities = ADDIN.requirementSets.map((set) => ({ name: set.name, minVersion: set.minVersion }));
  return {
    $schema: UNIFIED_SCHEMA_URL,
    manifestVersion: UNIFIED_SCHEMA_VERSION,
    id: ADDIN.unifiedId,
    version: ADDIN.version,
    name: { short: ADDIN.unifiedName, full: ADDIN.unifiedName },
    description: { short: ADDIN.shortDescription, full: ADDIN.description },
    developer: {
      name: ADDIN.provider,
      websiteUrl: base + ADDIN.supportPage,
      privacyUrl: base + ADDIN.supportPage,
      termsOfUseUrl: base + ADDIN.supportPage,
    },
    // Paths inside the app package, not URLs: the zip holds these two files beside manifest.json.
    icons: { color: icons.color.path, outline: icons.outline.path },
    accentColor: ADDIN.accentColor,
    localizationInfo: { defaultLanguageTag: ADDIN.locale.toLowerCase() },
    authorization: {
      permissions: { resourceSpecific: [{ name: ADDIN.permission.unified, type: "Delegated" }] },
    },
    validDomains: [new URL(base).origin],
    extensions: [
      {
        requirements: { scopes: ["workbook"], capabilities },
        runtimes: [
          {
            requirements: { capabilities },
            id: ADDIN.runtime.id,
            type: "general",
            code: { page: base + ADDIN.page, script: base + functions.script },
            // Long: the runtime loads with the document (src/commands sets Office.StartupBehavior.load, the one
            // start-up that needs no pane) and keeps running when the pane is closed.
            lifetime: ADDIN.runtime.lifetime,
            actions: [
              { id: ribbon.taskpane.paneId, type: "openPage" },
              { id: ribbon.refresh.functionName, type: "executeFunction" },
            ],
            customFunctions: {
              namespace: { id: functions.namespace, name: functions.namespace },
              metadataUrl: base + functions.metadata,
            },
          },
        ],
        ribbons: [
          {
            contexts: ["default"],
            tabs: [
              {
                builtInTabId: ribbon.tab,
                groups: [
                  {
                    id: ribbon.group.id,
                    label: ribbon.group.label,
                    icons: ribbonIcons,
                    controls: [ribbon.taskpane, ribbon.refresh].map((control) => ({
                      id: control.id,
                      type: "button",
                      label: control.label,
                      icons: ribbonIcons,
                      supertip: { title: control.label, description: control.tooltip },
                      actionId: "paneId" in control ? control.paneId : control.functionName,
                    })),
                  },
                ],
              },
            ],
          },
        ],
        getStartedMessages: [
          {
            title: getStarted.title,
            description: getStarted.description,
            learnMoreUrl: base + ADDIN.supportPage,
          },
        ],
        // Where the add-in only manifest's add-in is installed too, Office shows FDQ once.
        alternates: [{ hide: { customOfficeAddin: { officeAddinId: ADDIN.xmlId } } }],
      },
    ],
  };
}

/** manifest.json's text for the add-in served from `url`. */
export function manifestJson(url: string): string {
  return `${JSON.stringify(unifiedManifest(url), null, 2)}\n`;
}
