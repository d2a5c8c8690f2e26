// The unified manifest's offline check (scripts/validate-unified-manifest.ts): Microsoft's JSON schema, vendored
// in schemas/, and the rules the schema cannot state. `npm run validate` runs it on manifest.json
// (test/integration/manifest/validate-script.test.ts runs the script).
import { readFileSync } from "node:fs";
import path from "node:path";
import { filesBeside, validateUnifiedManifest } from "../../../scripts/validate-unified-manifest";

const ROOT = path.resolve(__dirname, "../../..");
const FILE = path.join(ROOT, "manifest.json");
const GOOD = readFileSync(FILE, "utf8");
const packageFile = filesBeside(FILE);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edits of a parsed manifest in place

/** The problems of a variant of the real manifest.json made by `edit`. */
function problemsOf(edit: (manifest: Json) => void): string[] {
  const manifest = JSON.parse(GOOD) as Json;
  edit(manifest);
  return validateUnifiedManifest(JSON.stringify(manifest), { packageFile });
}

const runtime = (m: Json): Json => m["extensions"][0]["runtimes"][0];

describe("validate-unified-manifest", () => {
  it("accepts the project's manifest.json", () => {
    expect(validateUnifiedManifest(GOOD, { packageFile })).toEqual([]);
  });

  it("reports text that is not JSON", () => {
    const problems = validateUnifiedManifest(GOOD.slice(0, -3), { packageFile });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^manifest\.json: not JSON: /);
  });

  it("requires the manifestVersion of the vendored schema", () => {
    expect(problemsOf((m) => (m["manifestVersion"] = "1.17"))).toEqual([
      'manifest.json: manifestVersion must be "1.28" (the vendored schema), found "1.17"',
    ]);
  });

  it("reports what Microsoft's schema refuses, with the path of each", () => {
    const problems = problemsOf((m) => {
      runtime(m)["code"]["page"] = "http://fdq.example.com/taskpane.html";
      delete m["icons"]["color"];
      m["description"]["short"] = "x".repeat(81);
    });
    expect(problems).toEqual([
      "manifest.json: schema: .description.short should NOT be longer than 80 characters",
      "manifest.json: schema: .icons should have required property 'color'",
      'manifest.json: schema: .extensions[0].runtimes[0].code.page should match pattern "^[Hh][Tt][Tt][Pp][Ss]://"',
    ]);
  });

  it("checks that the two icons exist in the package and have their pixel sizes", () => {
    expect(problemsOf((m) => (m["icons"]["color"] = "assets/icon-32.png"))).toEqual([
      "manifest.json: icons.color: assets/icon-32.png is 32x32 px, 192x192 px expected",
    ]);
    expect(problemsOf((m) => (m["icons"]["outline"] = "assets/missing.png"))).toEqual([
      "manifest.json: icons.outline: assets/missing.png does not exist",
    ]);
    expect(problemsOf((m) => (m["icons"]["outline"] = "../package.json"))).toEqual([
      "manifest.json: icons.outline: ../package.json does not exist",
    ]);
  });

  it("requires one long-lived runtime with the shared runtime, the FDQ functions and their script", () => {
    expect(problemsOf((m) => (runtime(m)["lifetime"] = "short"))).toEqual([
      'manifest.json: the runtime must have lifetime "long"',
    ]);
    expect(
      problemsOf((m) => (runtime(m)["requirements"]["capabilities"] = [{ name: "AddinCommands" }])),
    ).toEqual(["manifest.json: the runtime's requirements must ask for SharedRuntime 1.1"]);
    expect(
      problemsOf((m) => (runtime(m)["customFunctions"]["namespace"] = { id: "FDQ", name: "CONTOSO" })),
    ).toEqual([
      'manifest.json: the custom functions namespace must be "FDQ", found id "FDQ" and name "CONTOSO"',
    ]);
    expect(problemsOf((m) => delete runtime(m)["code"]["script"])).toEqual([
      "manifest.json: the runtime must name the functions' script (code.script)",
    ]);
    expect(problemsOf((m) => m["extensions"][0]["runtimes"].push({ ...runtime(m), id: "Second" }))).toEqual([
      "manifest.json: extensions[0] must declare exactly one runtime (the shared runtime), found 2",
    ]);
  });

  it("requires every ribbon button to name an action of the runtime", () => {
    expect(problemsOf((m) => (runtime(m)["actions"] = runtime(m)["actions"].slice(0, 1)))).toEqual([
      'manifest.json: ribbon button "FdqRefreshButton" names action "refreshFdq", which the runtime does not declare',
    ]);
  });
});
