// `npm run validate` as a process (tsx on scripts/validate-manifest.ts): its exit status and what it prints. The
// validators' rules are unit-tested in test/unit/manifest/validate-manifest.test.ts (manifest.xml) and
// validate-unified-manifest.test.ts (manifest.json).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(__dirname, "../../..");
const GOOD = readFileSync(path.join(ROOT, "manifest.xml"), "utf8");

describe("validate-manifest", () => {
  it("exits 1 and lists the problems of each file when run as the npm validate script", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-manifest-"));
    const file = path.join(dir, "manifest.xml");
    writeFileSync(file, GOOD.replace("</OfficeApp>", ""));
    // A unified manifest whose icons are not beside it.
    const json = path.join(dir, "manifest.json");
    writeFileSync(json, readFileSync(path.join(ROOT, "manifest.json")));
    const run = promisify(execFile);
    const tsx = path.join(ROOT, "node_modules/.bin/tsx");
    await expect(
      run(tsx, [path.join(ROOT, "scripts/validate-manifest.ts"), file, json]),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /malformed XML[\s\S]*1 problem\(s\) found in .*manifest\.xml\nmanifest\.json: icons\.color: assets\/color\.png does not exist\nmanifest\.json: icons\.outline: assets\/outline\.png does not exist\n2 problem\(s\) found in .*manifest\.json\n$/,
      ),
    });
    const ok = await run(tsx, [
      path.join(ROOT, "scripts/validate-manifest.ts"),
      path.join(ROOT, "manifest.xml"),
      path.join(ROOT, "manifest.json"),
    ]);
    expect(ok.stdout).toContain("manifest.xml is valid");
    expect(ok.stdout).toContain("manifest.json is valid (offline: Microsoft's JSON schema 1.28");
  });
});
