// Offline check of the unified manifest (manifest.json): Microsoft's published JSON schema for its
// manifestVersion (vendored in schemas/, see schemas/README.md), checked with ajv, then what the schema cannot say:
// the two icon files and their pixel sizes, one long-lived runtime that runs the FDQ custom functions and serves
// the pane and the commands, the SharedRuntime 1.1 requirement, and ribbon buttons that name that runtime's actions.
// `npm run validate` runs it through scripts/validate-manifest.ts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import draft04 from "ajv/lib/refs/json-schema-draft-04.json";
import { UNIFIED_SCHEMA_VERSION } from "../src/manifest";
import { pngSize } from "./png";

const ROOT = path.resolve(__dirname, "..");
/** The vendored schema of the version manifest.json declares. */
export const UNIFIED_SCHEMA_FILE = path.join(
  ROOT,
  `schemas/microsoft-365-app-manifest/v${UNIFIED_SCHEMA_VERSION}/MicrosoftTeams.schema.json`,
);
const NAMESPACE = "FDQ";
/** Pixel size of each icon of the unified manifest (the schema's descriptions: color 192x192, outline 32x32). */
const ICON_SIZES = { color: 192, outline: 32 } as const;

export interface UnifiedValidateOptions {
  /** Reported in messages; defaults to "manifest.json". */
  readonly fileName?: string;
  /** The bytes of a file of the app package by its path there (icons), or undefined when it is missing. */
  readonly packageFile: (relativePath: string) => Uint8Array | undefined;
}

let compiled: ValidateFunction | undefined;

/** The schema, compiled once per process (about 0.2 s). */
function schemaValidator(): ValidateFunction {
  if (compiled) return compiled;
  // The schema is draft-04, which ajv 6 reads once draft-04's meta-schema is added. Keywords beside a $ref are
  // ignored by draft-04's rules; ajv says so for each, which is no problem of the manifest.
  const ajv = new Ajv({
    schemaId: "auto",
    allErrors: true,
    logger: {
      log: () => undefined,
      warn: (...args: unknown[]) => {
        if (!String(args[0]).startsWith("$ref: keywords ignored")) console.warn(...args);
      },
      error: (...args: unknown[]) => console.error(...args),
    },
  });
  ajv.addMetaSchema(draft04);
  compiled = ajv.compile(JSON.parse(readFileSync(UNIFIED_SCHEMA_FILE, "utf8")) as object);
  return compiled;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Every problem found in manifest.json's text; an empty list means it passed. */
export function validateUnifiedManifest(text: string, options: UnifiedValidateOptions): string[] {
  const file = options.fileName ?? "manifest.json";
  const problems: string[] = [];
  const report = (message: string): void => {
    if (!problems.includes(`${file}: ${message}`)) problems.push(`${file}: ${message}`);
  };
  let manifest: Json;
  try {
    manifest = obj(JSON.parse(text));
  } catch (err) {
    report(`not JSON: ${(err as Error).message}`);
    return problems;
  }
  if (manifest["manifestVersion"] !== UNIFIED_SCHEMA_VERSION) {
    report(
      `manifestVersion must be "${UNIFIED_SCHEMA_VERSION}" (the vendored schema), found ${JSON.stringify(manifest["manifestVersion"])}`,
    );
    return problems;
  }
  const validate = schemaValidator();
  if (!validate(manifest)) {
    for (const e of validate.errors ?? [])
      report(`schema: ${e.dataPath || "(root)"} ${e.message ?? ""}`.trim());
  }

  const icons = obj(manifest["icons"]);
  for (const [name, size] of Object.entries(ICON_SIZES)) {
    const rel = icons[name];
    if (typeof rel !== "string") continue; // the schema reports it
    const bytes = options.packageFile(rel);
    const dims = bytes && pngSize(bytes);
    if (!bytes) report(`icons.${name}: ${rel} does not exist`);
    else if (!dims) report(`icons.${name}: ${rel} is not a PNG file`);
    else if (dims.width !== size || dims.height !== size) {
      report(`icons.${name}: ${rel} is ${dims.width}x${dims.height} px, ${size}x${size} px expected`);
    }
  }

  const extension = obj(arr(manifest["extensions"])[0]);
  const runtimes = arr(extension["runtimes"]).map(obj);
  const capabilities = (element: Json): Json[] => arr(obj(element["requirements"])["capabilities"]).map(obj);
  const shared = (element: Json): boolean =>
    capabilities(element).some((c) => c["name"] === "SharedRuntime" && c["minVersion"] === "1.1");
  if (!arr(obj(extension["requirements"])["scopes"]).includes("workbook")) {
    report(`extensions[0].requirements.scopes must contain "workbook"`);
  }
  if (!shared(extension)) report(`extensions[0].requirements must ask for SharedRuntime 1.1`);
  if (runtimes.length !== 1) {
    report(`extensions[0] must declare exactly one runtime (the shared runtime), found ${runtimes.length}`);
    return problems;
  }
  const runtime = runtimes[0] as Json;
  if (runtime["lifetime"] !== "long") report(`the runtime must have lifetime "long"`);
  if (!shared(runtime)) report(`the runtime's requirements must ask for SharedRuntime 1.1`);
  const functions = obj(runtime["customFunctions"]);
  const namespace = obj(functions["namespace"]);
  if (!runtime["customFunctions"]) report(`the runtime must declare the custom functions (customFunctions)`);
  else if (namespace["id"] !== NAMESPACE || namespace["name"] !== NAMESPACE) {
    report(
      `the custom functions namespace must be "${NAMESPACE}", found id ${JSON.stringify(namespace["id"])} and name ${JSON.stringify(namespace["name"])}`,
    );
  } else if (typeof functions["metadataUrl"] !== "string") {
    report(`the custom functions must name their metadata (customFunctions.metadataUrl)`);
  }
  const code = obj(runtime["code"]);
  if (typeof code["script"] !== "string") report(`the runtime must name the functions' script (code.script)`);

  const actions = new Set(arr(runtime["actions"]).map((a) => obj(a)["id"]));
  const controls = arr(extension["ribbons"])
    .flatMap((r) => arr(obj(r)["tabs"]))
    .flatMap((t) => arr(obj(t)["groups"]))
    .flatMap((g) => arr(obj(g)["controls"]))
    .map(obj);
  for (const control of controls) {
    const actionId = control["actionId"];
    if (!actions.has(actionId)) {
      report(
        `ribbon button ${JSON.stringify(control["id"])} names action ${JSON.stringify(actionId)}, which the runtime does not declare`,
      );
    }
  }
  return problems;
}

/** The package files of a manifest.json on disk: its relative paths resolved against its folder. */
export function filesBeside(manifestFile: string): (relativePath: string) => Uint8Array | undefined {
  const dir = path.dirname(path.resolve(manifestFile));
  return (rel) => {
    const target = path.resolve(dir, rel);
    if (!target.startsWith(dir + path.sep) || !existsSync(target)) return undefined;
    return readFileSync(target);
  };
}
