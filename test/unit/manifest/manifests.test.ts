// The add-in's two manifests and its app package, made from one description (src/manifest/addin.ts): the
// committed copies are what the generator writes, the two manifests say the same things, and the package holds
// what the unified manifest names.
import { readFileSync } from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { COMMITTED_MANIFESTS } from "../../../scripts/write-manifests";
import { validateUnifiedManifest } from "../../../scripts/validate-unified-manifest";
import {
  ADDIN,
  APP_PACKAGE_ICONS,
  DEV_ADDIN_URL,
  addinBase,
  appPackage,
  manifestJson,
  manifestXml,
  unifiedManifest,
} from "../../../src/manifest";

const ROOT = path.resolve(__dirname, "../../..");
const PUBLIC = "https://fdq.example.com/addin/";

/** The value of every DefaultValue attribute of the XML, by the resource id or element that carries it. */
function xmlValues(xml: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const m of xml.matchAll(/<(bt:\w+|\w+)\s+(?:id="([^"]+)"\s+)?DefaultValue="([^"]*)"/g)) {
    values.set(m[2] ?? (m[1] as string), m[3] as string);
  }
  return values;
}

interface Unified {
  id: string;
  icons: { color: string; outline: string };
  validDomains: string[];
  extensions: Array<{
    requirements: { scopes: string[]; capabilities: Array<{ name: string; minVersion: string }> };
    runtimes: Array<{
      id: string;
      lifetime: string;
      code: { page: string; script: string };
      actions: Array<{ id: string; type: string }>;
      customFunctions: { namespace: { id: string; name: string }; metadataUrl: string };
    }>;
    ribbons: Array<{
      tabs: Array<{
        builtInTabId: string;
        groups: Array<{
          label: string;
          icons: Array<{ size: number; url: string }>;
          controls: Array<{ id: string; label: string; actionId: string }>;
        }>;
      }>;
    }>;
    alternates: Array<{ hide: { customOfficeAddin: { officeAddinId: string } } }>;
  }>;
}

describe("the add-in's manifests, made from one description", () => {
  it("the committed manifest.xml and manifest.json are what `npm run manifests` writes", () => {
    for (const [file, generate] of Object.entries(COMMITTED_MANIFESTS)) {
      const committed = readFileSync(path.join(ROOT, file), "utf8");
      // On failure: run `npm run manifests` after changing src/manifest, and commit both files.
      expect([file, committed]).toEqual([file, generate()]);
    }
    expect(Object.keys(COMMITTED_MANIFESTS)).toEqual(["manifest.xml", "manifest.json"]);
  });

  it("a build's manifest.xml names its URL where the dev server's was, and that origin as AppDomain", () => {
    const dev = manifestXml(DEV_ADDIN_URL);
    const built = manifestXml(PUBLIC);
    expect(built).toBe(
      dev.replaceAll(DEV_ADDIN_URL, PUBLIC).replaceAll("https://localhost:3000", "https://fdq.example.com"),
    );
    expect(built).not.toContain("localhost");
    expect(built).toContain("<AppDomain>https://fdq.example.com</AppDomain>");
    expect(manifestXml("https://fdq.example.com/addin")).toBe(built);
  });

  it("takes an https URL, or http for localhost only", () => {
    expect(addinBase("http://localhost:3000")).toBe("http://localhost:3000/");
    expect(() => addinBase("http://fdq.example.com/")).toThrow(
      "the add-in's URL must be https (http only for localhost): http://fdq.example.com/",
    );
    expect(() => manifestJson("ftp://fdq.example.com/")).toThrow("must be https");
  });

  it("both manifests name the same pages, namespace, runtime, requirement sets, icons and ribbon commands", () => {
    const xml = manifestXml(PUBLIC);
    const values = xmlValues(xml);
    const json = unifiedManifest(PUBLIC) as unknown as Unified;
    const extension = json.extensions[0]!;
    const runtime = extension.runtimes[0]!;
    expect(extension.runtimes).toHaveLength(1);

    expect(runtime.code.page).toBe(values.get("Taskpane.Url"));
    expect(runtime.code.script).toBe(values.get("Functions.Script.Url"));
    expect(runtime.customFunctions.metadataUrl).toBe(values.get("Functions.Metadata.Url"));
    expect(runtime.customFunctions.namespace).toEqual({ id: "FDQ", name: values.get("Functions.Namespace") });
    expect([runtime.lifetime, xml.match(/<Runtime resid="Taskpane.Url" lifetime="(\w+)"\/>/)?.[1]]).toEqual([
      "long",
      "long",
    ]);
    expect(extension.requirements).toEqual({
      scopes: ["workbook"],
      capabilities: [{ name: "SharedRuntime", minVersion: "1.1" }],
    });
    expect(xml).toContain('<Set Name="SharedRuntime" MinVersion="1.1"/>');
    expect(json.validDomains).toEqual([xml.match(/<AppDomain>([^<]+)<\/AppDomain>/)?.[1]]);

    const group = extension.ribbons[0]!.tabs[0]!.groups[0]!;
    expect(extension.ribbons[0]!.tabs[0]!.builtInTabId).toBe(xml.match(/<OfficeTab id="(\w+)">/)?.[1]);
    expect(group.label).toBe(values.get("FdqGroup.Label"));
    expect(group.icons.map((i) => [i.size, i.url])).toEqual(
      [16, 32, 80].map((size) => [size, values.get(`Icon.${size}x${size}`)]),
    );
    expect(group.controls.map((c) => [c.id, c.label, c.actionId])).toEqual([
      ["FdqTaskpaneButton", values.get("TaskpaneButton.Label"), xml.match(/<TaskpaneId>(\w+)</)?.[1]],
      ["FdqRefreshButton", values.get("RefreshButton.Label"), xml.match(/<FunctionName>(\w+)</)?.[1]],
    ]);
    expect(runtime.actions).toEqual([
      { id: "FdqTaskpane", type: "openPage" },
      { id: "refreshFdq", type: "executeFunction" },
    ]);
  });

  it("the unified manifest has an id of its own and hides the add-in only manifest's add-in", () => {
    const json = unifiedManifest(DEV_ADDIN_URL) as unknown as Unified;
    const xmlId = manifestXml(DEV_ADDIN_URL).match(/<Id>([^<]+)<\/Id>/)?.[1];
    expect(xmlId).toBe(ADDIN.xmlId);
    expect(json.id).not.toBe(xmlId);
    expect(json.extensions[0]!.alternates).toEqual([
      { hide: { customOfficeAddin: { officeAddinId: xmlId } } },
    ]);
  });

  it("the app package holds manifest.json and the two icons it names, and passes the validator", () => {
    const manifest = manifestJson(PUBLIC);
    const zip = unzipSync(appPackage(manifest, (file) => readFileSync(path.join(ROOT, file))));
    const json = JSON.parse(manifest) as Unified;
    expect(Object.keys(zip).sort()).toEqual(["assets/color.png", "assets/outline.png", "manifest.json"]);
    expect([json.icons.color, json.icons.outline]).toEqual([...APP_PACKAGE_ICONS]);
    expect(strFromU8(zip["manifest.json"]!)).toBe(manifest);
    for (const file of APP_PACKAGE_ICONS) {
      expect(Buffer.from(zip[file]!).equals(readFileSync(path.join(ROOT, file)))).toBe(true);
    }
    expect(validateUnifiedManifest(manifest, { packageFile: (file) => zip[file] })).toEqual([]);
  });
});
