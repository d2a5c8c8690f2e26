// fdq serve hands out the add-in's manifests for its public URL (src/gateway/addin.ts): the add-in only manifest,
// the unified manifest and the app package the Microsoft 365 admin center takes. The build folder is what
// `npm run build` writes for its default URL (the manifests from src/manifest, the icons from assets/), made here
// without webpack.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { validateUnifiedManifest } from "../../../scripts/validate-unified-manifest";
import {
  APP_PACKAGE_FILE,
  APP_PACKAGE_ICONS,
  DEV_ADDIN_URL,
  manifestJson,
  manifestXml,
} from "../../../src/manifest";
import { startRig, tempDir, type Rig } from "./helpers";

const ROOT = path.resolve(__dirname, "../../..");
const PUBLIC_URL = "https://fdq.example.com/team";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A build folder as `npm run build` writes it for the dev server's URL (what it builds without FDQ_ADDIN_URL). */
function builtAddin(): string {
  const dist = tempDir();
  writeFileSync(path.join(dist, "manifest.xml"), manifestXml(DEV_ADDIN_URL));
  writeFileSync(path.join(dist, "manifest.json"), manifestJson(DEV_ADDIN_URL));
  writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FDQ</title>");
  mkdirSync(path.join(dist, "assets"));
  for (const file of APP_PACKAGE_ICONS) copyFileSync(path.join(ROOT, file), path.join(dist, file));
  return dist;
}

describe("fdq serve: the add-in's manifests and app package", () => {
  it("serves /manifest.xml and /manifest.json as made for the public URL, to any origin", async () => {
    rig = await startRig({}, { distDir: builtAddin(), publicUrl: `${PUBLIC_URL}/` });
    const xml = await rig.get("/manifest.xml", { key: null });
    const json = await rig.get("/manifest.json", { key: null });
    expect([xml.status, json.status]).toEqual([200, 200]);
    expect(await xml.text()).toBe(manifestXml(PUBLIC_URL));
    expect(await json.text()).toBe(manifestJson(PUBLIC_URL));
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(json.headers.get("access-control-allow-origin")).toBe("*");
    expect(xml.headers.get("access-control-allow-origin")).toBe("*");
  });

  it(`serves the app package /${APP_PACKAGE_FILE}: manifest.json and its two icons, valid by Microsoft's schema`, async () => {
    rig = await startRig({}, { distDir: builtAddin(), publicUrl: PUBLIC_URL });
    const res = await rig.get(`/${APP_PACKAGE_FILE}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${APP_PACKAGE_FILE}"`);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(zip).sort()).toEqual(["assets/color.png", "assets/outline.png", "manifest.json"]);
    const manifest = strFromU8(zip["manifest.json"]!);
    expect(manifest).toBe(manifestJson(PUBLIC_URL));
    expect(manifest).not.toContain("localhost");
    expect(validateUnifiedManifest(manifest, { packageFile: (file) => zip[file] })).toEqual([]);
  });

  it("answers 503 saying to build again for the unified manifest and the package of a build without them", async () => {
    const dist = builtAddin();
    rmSync(path.join(dist, "manifest.json"));
    rig = await startRig({}, { distDir: dist });
    expect((await rig.get("/manifest.xml", { key: null })).status).toBe(200);
    for (const p of ["/manifest.json", `/${APP_PACKAGE_FILE}`]) {
      const res = await rig.get(p, { key: null });
      expect([p, res.status, await res.json()]).toEqual([
        p,
        503,
        {
          message:
            "The add-in's build has no manifest.json, which the unified manifest needs: run `npm run build` again, " +
            "then restart `fdq serve` (from the FDQ gateway).",
        },
      ]);
    }
  });

  it("answers 503 saying to run npm run build for the unified manifest and the package without a build", async () => {
    rig = await startRig({}, { distDir: tempDir() });
    for (const p of ["/manifest.json", `/${APP_PACKAGE_FILE}`]) {
      const res = await rig.get(p, { key: null });
      expect([p, res.status]).toEqual([p, 503]);
      expect(((await res.json()) as { message: string }).message).toContain("npm run build");
    }
  });
});
