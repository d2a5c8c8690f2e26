// `npm run manifests`: writes manifest.xml and manifest.json at the repository's root from the add-in's one
// description (src/manifest/addin.ts), for the dev server's URL. Both files are committed so that Office's tools,
// `npm start` and a person can read them; test/unit/manifest/generated.test.ts fails when either differs from what
// this writes. `npm run build` writes its own pair for FDQ_ADDIN_URL into dist/.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DEV_ADDIN_URL, manifestJson, manifestXml } from "../src/manifest";

const ROOT = path.resolve(__dirname, "..");

/** The committed manifests, by their path below the repository's root. */
export const COMMITTED_MANIFESTS: Readonly<Record<string, () => string>> = {
  "manifest.xml": () => manifestXml(DEV_ADDIN_URL),
  "manifest.json": () => manifestJson(DEV_ADDIN_URL),
};

if (require.main === module) {
  for (const [file, text] of Object.entries(COMMITTED_MANIFESTS)) {
    writeFileSync(path.join(ROOT, file), text());
    console.log(file);
  }
}
