// `npm run build` for a production URL: one page with the three entries, functions.json, the icons, and both
// manifests and the app package made for that URL, which pass the offline validators. In a full run the build checked is the
// run's one production build, which the browser tests load too (test/support/browser-page.ts: made once, for the
// URL PAGE_URL); a run without the browser tests builds with webpack's command line, as `npm run build` does.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { strFromU8, unzipSync } from "fflate";
import { validateManifest } from "../../../scripts/validate-manifest";
import { filesBeside, validateUnifiedManifest } from "../../../scripts/validate-unified-manifest";
import { FUNCTION_NAMES } from "../../../src/functions/signatures";
import { APP_PACKAGE_FILE, manifestJson, manifestXml } from "../../../src/manifest";
import { PAGE_DIR_VARIABLE, PAGE_URL, pageBuilt } from "../../support/browser-page";

const ROOT = path.resolve(__dirname, "../../..");

describe("production build", () => {
  let out: string;

  beforeAll(async () => {
    const shared = process.env[PAGE_DIR_VARIABLE];
    if (shared) {
      out = await pageBuilt(shared);
      return;
    }
    out = mkdtempSync(path.join(tmpdir(), "fdq-dist-"));
    await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, "node_modules/webpack-cli/bin/cli.js"), "--mode", "production", "--output-path", out],
      { cwd: ROOT, env: { ...process.env, FDQ_ADDIN_URL: PAGE_URL } },
    );
  }, 420_000); // the run's build, on a busy machine, can take minutes

  it("moves every manifest URL to FDQ_ADDIN_URL and still validates", async () => {
    const manifest = readFileSync(path.join(out, "manifest.xml"), "utf8");
    expect(manifest).not.toContain("localhost");
    expect(manifest).toContain(`<bt:Url id="Taskpane.Url" DefaultValue="${PAGE_URL}taskpane.html"/>`);
    expect(manifest).toContain("<AppDomain>https://fdq.example.com</AppDomain>");
    expect(manifest).toBe(manifestXml(PAGE_URL));
    expect(await validateManifest(manifest, { rootDir: out })).toEqual([]);
  });

  it("writes the unified manifest for FDQ_ADDIN_URL and its app package, both valid", () => {
    const file = path.join(out, "manifest.json");
    const manifest = readFileSync(file, "utf8");
    expect(manifest).toBe(manifestJson(PAGE_URL));
    expect(manifest).not.toContain("localhost");
    expect(validateUnifiedManifest(manifest, { packageFile: filesBeside(file) })).toEqual([]);
    const zip = unzipSync(readFileSync(path.join(out, APP_PACKAGE_FILE)));
    expect(Object.keys(zip).sort()).toEqual(["assets/color.png", "assets/outline.png", "manifest.json"]);
    expect(strFromU8(zip["manifest.json"]!)).toBe(manifest);
  });

  it("loads task pane, commands and functions in one page with one webpack runtime", () => {
    const html = readFileSync(path.join(out, "taskpane.html"), "utf8");
    const scripts = [...html.matchAll(/<script[^>]*src="?([^" >]+)"?/g)].map((m) => m[1]);
    expect(scripts[0]).toBe("https://appsforoffice.microsoft.com/lib/1/hosted/office.js");
    expect(scripts[1]).toBe("runtime.js");
    expect(scripts.slice(-3)).toEqual(["taskpane.js", "commands.js", "functions.js"]);
  });

  it("emits functions.json, allowing data types, and the associate calls for the nine functions", () => {
    const json = JSON.parse(readFileSync(path.join(out, "functions.json"), "utf8")) as {
      allowCustomDataForDataTypeAny?: boolean;
      functions: { id: string }[];
    };
    expect(json.functions.map((f) => f.id)).toEqual([...FUNCTION_NAMES]);
    expect(json.allowCustomDataForDataTypeAny).toBe(true);
    const functionsJs = readFileSync(path.join(out, "functions.js"), "utf8");
    // The generated associate calls go through the registrar of functions.ts (Excel's CustomFunctions only
    // where it exists), whose name the minifier shortens: the nine names are what is asserted.
    const associated = [...functionsJs.matchAll(/\.associate\("([A-Z]+)"/g)].map((m) => m[1]);
    expect(associated.sort()).toEqual([...FUNCTION_NAMES].sort());
    expect(readdirSync(path.join(out, "assets")).sort()).toEqual([
      "color.png",
      "icon-128.png",
      "icon-16.png",
      "icon-32.png",
      "icon-64.png",
      "icon-80.png",
      "outline.png",
    ]);
  });
});
