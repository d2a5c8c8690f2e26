// Offline manifest check (Office's online validator cannot be reached from here): well-formed XML,
// the OfficeApp elements in schema order, ids, https URLs, resource references, icon files and pixel
// sizes, the FDQ custom-functions namespace and one shared runtime used by the functions page, the
// task pane and the ribbon commands. Also parses the file with office-addin-manifest's reader. A .json file is
// the unified manifest, checked by scripts/validate-unified-manifest.ts.
// Usage: tsx scripts/validate-manifest.ts manifest.xml manifest.json   (exits 1 and lists every problem)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { pngSize } from "./png";
import { UNIFIED_SCHEMA_VERSION } from "../src/manifest";
import { filesBeside, validateUnifiedManifest } from "./validate-unified-manifest";

export { pngSize };

interface XmlNode {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
  readonly text: string;
}

/** Child elements of a TaskPaneApp in the order of the Office manifest schema (1.1). */
const OFFICE_APP_ORDER = [
  "Id",
  "AlternateId",
  "Version",
  "ProviderName",
  "DefaultLocale",
  "DisplayName",
  "Description",
  "IconUrl",
  "HighResolutionIconUrl",
  "SupportUrl",
  "AppDomains",
  "Hosts",
  "Requirements",
  "DefaultSettings",
  "Permissions",
  "AllowSnapshot",
  "VersionOverrides",
] as const;

/** Optional in the schema; every other element is required here (icons, support URL, runtime, ...). */
const OPTIONAL_TOP = new Set(["AlternateId", "AppDomains", "AllowSnapshot"]);
const REQUIRED_TOP = OFFICE_APP_ORDER.filter((tag) => !OPTIONAL_TOP.has(tag));

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VERSION = /^\d{1,5}(\.\d{1,5}){0,3}$/;
const NAMESPACE = "FDQ";
/** Pixel size Office expects for each icon element of a task pane add-in. */
const ICON_ELEMENT_SIZES: Readonly<Record<string, number>> = { IconUrl: 32, HighResolutionIconUrl: 64 };
const RIBBON_IMAGE_SIZES = new Set([16, 20, 24, 32, 40, 48, 64, 80]);
const MAX_RESID_LENGTH = 32;

type ResourceKind = "bt:Images" | "bt:Urls" | "bt:ShortStrings" | "bt:LongStrings";

export interface ValidateOptions {
  /** Folder the icon URLs' paths are resolved against (the project root: /assets/x.png -> ROOT/assets/x.png). */
  readonly rootDir: string;
  /** Reported in messages; defaults to "manifest.xml". */
  readonly fileName?: string;
}

// --- XML tree -----------------------------------------------------------------------------------

type Ordered = Record<string, unknown>;

function toNodes(items: unknown): XmlNode[] {
  if (!Array.isArray(items)) return [];
  const nodes: XmlNode[] = [];
  for (const item of items as Ordered[]) {
    const tag = Object.keys(item).find((k) => k !== ":@" && k !== "#text");
    if (!tag) continue;
    const rawAttrs = (item[":@"] ?? {}) as Record<string, unknown>;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawAttrs)) attrs[k.replace(/^@_/, "")] = String(v);
    const rawChildren = item[tag];
    const text = Array.isArray(rawChildren)
      ? (rawChildren as Ordered[])
          .map((c) => (c["#text"] === undefined ? "" : String(c["#text"])))
          .join("")
          .trim()
      : "";
    nodes.push({ tag, attrs, children: toNodes(rawChildren), text });
  }
  return nodes;
}

function child(node: XmlNode | undefined, tag: string): XmlNode | undefined {
  return node?.children.find((c) => c.tag === tag);
}

function path_(node: XmlNode | undefined, ...tags: string[]): XmlNode | undefined {
  return tags.reduce<XmlNode | undefined>((n, t) => child(n, t), node);
}

function descendants(node: XmlNode, out: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    out.push(c);
    descendants(c, out);
  }
  return out;
}

function byType(nodes: readonly XmlNode[], tag: string, type: string): XmlNode[] {
  return nodes.filter((n) => n.tag === tag && n.attrs["xsi:type"] === type);
}

// --- helpers ------------------------------------------------------------------------------------

/** 1-based line of the first occurrence of `needle` in the text, for messages. */
function lineOf(text: string, needle: string): number | undefined {
  const at = text.indexOf(needle);
  return at < 0 ? undefined : text.slice(0, at).split("\n").length;
}

function isLocalHost(host: string): boolean {
  return host === "localhost" || host === "127.0.0.1";
}

// --- the checks ---------------------------------------------------------------------------------

class Checker {
  readonly problems: string[] = [];
  readonly resources = new Map<string, { kind: ResourceKind; value: string }>();

  constructor(
    readonly text: string,
    readonly options: ValidateOptions,
  ) {}

  private get file(): string {
    return this.options.fileName ?? "manifest.xml";
  }

  report(message: string, needle?: string): void {
    const line = needle === undefined ? undefined : lineOf(this.text, needle);
    const problem = line === undefined ? `${this.file}: ${message}` : `${this.file}:${line}: ${message}`;
    // An image used by several controls is one problem, not one per use.
    if (!this.problems.includes(problem)) this.problems.push(problem);
  }

  checkTopLevel(app: XmlNode): void {
    const tags = app.children.map((c) => c.tag);
    for (const tag of REQUIRED_TOP) {
      if (!tags.includes(tag)) this.report(`<${tag}> is missing from <OfficeApp>`);
    }
    let last = -1;
    for (const tag of tags) {
      const index = (OFFICE_APP_ORDER as readonly string[]).indexOf(tag);
      if (index < 0) {
        this.report(`<${tag}> is not an element of <OfficeApp>`, `<${tag}`);
        continue;
      }
      if (index < last) {
        this.report(`<${tag}> is out of order: it must come before <${OFFICE_APP_ORDER[last]}>`, `<${tag}`);
      }
      last = Math.max(last, index);
    }
    if (app.attrs["xsi:type"] !== "TaskPaneApp") this.report(`<OfficeApp> must have xsi:type="TaskPaneApp"`);
    const id = child(app, "Id")?.text ?? "";
    if (child(app, "Id") && !GUID.test(id)) this.report(`<Id> must be a GUID, found "${id}"`, "<Id>");
    const version = child(app, "Version")?.text ?? "";
    if (child(app, "Version") && !VERSION.test(version)) {
      this.report(`<Version> must be n[.n[.n[.n]]], found "${version}"`, "<Version>");
    }
    const hosts = child(app, "Hosts")?.children.map((h) => h.attrs["Name"]) ?? [];
    if (child(app, "Hosts") && !hosts.includes("Workbook"))
      this.report(`<Hosts> must contain <Host Name="Workbook"/>`);
  }

  checkUrl(url: string, where: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      this.report(`${where}: "${url}" is not an absolute URL`, url);
      return;
    }
    if (parsed.protocol === "https:") return;
    if (parsed.protocol === "http:" && isLocalHost(parsed.hostname)) return;
    this.report(`${where}: "${url}" must use https (http only for localhost)`, url);
  }

  collectResources(overrides: XmlNode): void {
    const resources = child(overrides, "Resources");
    if (!resources) {
      this.report("<Resources> is missing from <VersionOverrides>");
      return;
    }
    for (const group of resources.children) {
      const kind = group.tag as ResourceKind;
      for (const item of group.children) {
        const id = item.attrs["id"] ?? "";
        const value = item.attrs["DefaultValue"] ?? "";
        if (this.resources.has(id)) this.report(`resource id "${id}" is defined twice`, `id="${id}"`);
        if (id.length > MAX_RESID_LENGTH) {
          this.report(`resource id "${id}" is longer than ${MAX_RESID_LENGTH} characters`, `id="${id}"`);
        }
        this.resources.set(id, { kind, value });
        if (kind === "bt:Images" || kind === "bt:Urls") this.checkUrl(value, `resource "${id}"`);
      }
    }
  }

  /** The kind of resource a resid must point to, from the element that carries it. */
  private expectedKind(node: XmlNode, parent: XmlNode): ResourceKind {
    if (node.tag === "bt:Image") return "bt:Images";
    if (["SourceLocation", "Runtime", "FunctionFile", "LearnMoreUrl"].includes(node.tag)) return "bt:Urls";
    if (node.tag === "Description" && (parent.tag === "Supertip" || parent.tag === "GetStarted")) {
      return "bt:LongStrings";
    }
    return "bt:ShortStrings";
  }

  checkResids(node: XmlNode): void {
    for (const c of node.children) {
      const resid = c.attrs["resid"];
      if (resid !== undefined) {
        const resource = this.resources.get(resid);
        const kind = this.expectedKind(c, node);
        if (!resource)
          this.report(`resid "${resid}" of <${c.tag}> is not defined in <Resources>`, `resid="${resid}"`);
        else if (resource.kind !== kind) {
          this.report(
            `resid "${resid}" of <${c.tag}> must name a ${kind} entry, not ${resource.kind}`,
            `resid="${resid}"`,
          );
        }
      }
      this.checkResids(c);
    }
  }

  /** Where the add-in is served from: the folder of the default page (https://host/addin/). */
  baseUrl: string | undefined;

  /** Local file behind an asset URL: its path below the add-in's base URL, resolved against the root folder. */
  private localFile(url: string): string | undefined {
    try {
      const rel =
        this.baseUrl && url.startsWith(this.baseUrl) ? url.slice(this.baseUrl.length) : new URL(url).pathname;
      return path.join(this.options.rootDir, decodeURIComponent(rel));
    } catch {
      return undefined;
    }
  }

  checkIcon(url: string, size: number, where: string): void {
    const file = this.localFile(url);
    if (!file) return; // already reported as a bad URL
    if (!existsSync(file)) {
      this.report(`${where}: icon file ${path.relative(this.options.rootDir, file)} does not exist`, url);
      return;
    }
    const dims = pngSize(readFileSync(file));
    const rel = path.relative(this.options.rootDir, file);
    if (!dims) this.report(`${where}: ${rel} is not a PNG file`, url);
    else if (dims.width !== size || dims.height !== size) {
      this.report(`${where}: ${rel} is ${dims.width}x${dims.height} px, ${size}x${size} px expected`, url);
    }
  }

  checkIcons(app: XmlNode, all: readonly XmlNode[]): void {
    for (const [tag, size] of Object.entries(ICON_ELEMENT_SIZES)) {
      const url = child(app, tag)?.attrs["DefaultValue"];
      if (url === undefined) continue;
      this.checkUrl(url, `<${tag}>`);
      this.checkIcon(url, size, `<${tag}>`);
    }
    for (const image of all.filter((n) => n.tag === "bt:Image" && n.attrs["resid"] !== undefined)) {
      const size = Number(image.attrs["size"]);
      const resid = image.attrs["resid"] ?? "";
      if (!RIBBON_IMAGE_SIZES.has(size)) {
        this.report(
          `<bt:Image size="${image.attrs["size"]}"> is not a size Office accepts`,
          `resid="${resid}"`,
        );
        continue;
      }
      const resource = this.resources.get(resid);
      if (resource?.kind === "bt:Images") this.checkIcon(resource.value, size, `image "${resid}"`);
    }
  }

  checkSharedRuntime(app: XmlNode, host: XmlNode, all: readonly XmlNode[]): void {
    const sets = path_(app, "Requirements", "Sets")?.children ?? [];
    const shared = sets.find((s) => s.attrs["Name"] === "SharedRuntime");
    if (!shared) this.report(`<Requirements> must contain <Set Name="SharedRuntime" MinVersion="1.1"/>`);
    else if (shared.attrs["MinVersion"] !== "1.1") {
      this.report(
        `SharedRuntime MinVersion must be "1.1", found "${shared.attrs["MinVersion"] ?? ""}"`,
        "SharedRuntime",
      );
    }

    const runtimes = child(host, "Runtimes")?.children.filter((r) => r.tag === "Runtime") ?? [];
    if (runtimes.length !== 1) {
      this.report(
        `the Workbook host must declare exactly one <Runtime> in <Runtimes>, found ${runtimes.length}`,
      );
      return;
    }
    const runtime = runtimes[0] as XmlNode;
    if (runtime.attrs["lifetime"] !== "long") this.report(`<Runtime> must have lifetime="long"`, "<Runtime ");
    const resid = runtime.attrs["resid"] ?? "";

    const cf = byType(all, "ExtensionPoint", "CustomFunctions")[0];
    const uses: Array<[string, string | undefined]> = [
      ["the custom functions <Page>", path_(cf, "Page", "SourceLocation")?.attrs["resid"]],
      ["<FunctionFile>", all.find((n) => n.tag === "FunctionFile")?.attrs["resid"]],
      ...byType(all, "Action", "ShowTaskpane").map((a): [string, string | undefined] => [
        "the task pane action",
        child(a, "SourceLocation")?.attrs["resid"],
      ]),
    ];
    for (const [what, used] of uses) {
      if (used === undefined) this.report(`${what} is missing`);
      else if (used !== resid) {
        this.report(`${what} uses resid "${used}" but the shared runtime is "${resid}"`, `resid="${used}"`);
      }
    }
    const runtimeUrl = this.resources.get(resid)?.value;
    const defaultUrl = path_(app, "DefaultSettings", "SourceLocation")?.attrs["DefaultValue"];
    if (runtimeUrl !== undefined && defaultUrl !== undefined && runtimeUrl !== defaultUrl) {
      this.report(
        `<DefaultSettings> SourceLocation "${defaultUrl}" differs from the runtime page "${runtimeUrl}"`,
      );
    }
  }

  checkCustomFunctions(all: readonly XmlNode[]): void {
    const points = byType(all, "ExtensionPoint", "CustomFunctions");
    if (points.length !== 1) {
      this.report(
        `exactly one <ExtensionPoint xsi:type="CustomFunctions"> is required, found ${points.length}`,
      );
      return;
    }
    const cf = points[0] as XmlNode;
    for (const part of ["Script", "Page", "Metadata"]) {
      if (!path_(cf, part, "SourceLocation"))
        this.report(`the CustomFunctions <${part}> has no <SourceLocation>`);
    }
    const nsResid = child(cf, "Namespace")?.attrs["resid"];
    const ns = nsResid === undefined ? undefined : this.resources.get(nsResid)?.value;
    if (nsResid === undefined) this.report("the CustomFunctions <Namespace> is missing");
    else if (ns !== undefined && ns !== NAMESPACE) {
      this.report(`the custom functions namespace must be "${NAMESPACE}", found "${ns}"`, `id="${nsResid}"`);
    }
  }

  checkAllUrls(app: XmlNode, all: readonly XmlNode[]): void {
    const support = child(app, "SupportUrl")?.attrs["DefaultValue"];
    if (support !== undefined) this.checkUrl(support, "<SupportUrl>");
    const source = path_(app, "DefaultSettings", "SourceLocation")?.attrs["DefaultValue"];
    if (source !== undefined) {
      this.checkUrl(source, "<DefaultSettings>");
      try {
        this.baseUrl = new URL(".", source).href;
      } catch {
        // reported by checkUrl
      }
    }
    for (const domain of all.filter((n) => n.tag === "AppDomain")) this.checkUrl(domain.text, "<AppDomain>");
  }
}

/** Every problem found in the manifest text; an empty list means it passed. */
export async function validateManifest(text: string, options: ValidateOptions): Promise<string[]> {
  const checker = new Checker(text, options);
  const wellFormed = XMLValidator.validate(text);
  if (wellFormed !== true) {
    const { msg, line, col } = wellFormed.err;
    checker.report(`line ${line}, column ${col}: malformed XML: ${msg}`);
    return checker.problems;
  }
  const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, parseAttributeValue: false });
  const roots = toNodes(parser.parse(text) as unknown).filter((n) => n.tag !== "?xml");
  const app = roots.find((n) => n.tag === "OfficeApp");
  if (!app) {
    checker.report("the root element must be <OfficeApp>");
    return checker.problems;
  }
  checker.checkTopLevel(app);
  const overrides = child(app, "VersionOverrides");
  const host = path_(overrides, "Hosts")?.children.find((h) => h.attrs["xsi:type"] === "Workbook");
  if (!overrides || !host) {
    checker.report(`<VersionOverrides> must contain <Hosts><Host xsi:type="Workbook">`);
    return checker.problems;
  }
  const all = descendants(app);
  checker.collectResources(overrides);
  checker.checkResids(overrides);
  checker.checkAllUrls(app, all);
  checker.checkIcons(app, all);
  checker.checkCustomFunctions(all);
  checker.checkSharedRuntime(app, host, all);
  return checker.problems;
}

/** Parses the file (either kind) with office-addin-manifest too: what Office's tooling reads must be there. */
export async function readWithOfficeTooling(file: string): Promise<string[]> {
  try {
    // Loaded on use: its dependency tree has ES-only modules that jest's CommonJS runtime cannot load.
    const { OfficeAddinManifest } = await import("office-addin-manifest");
    const info = await OfficeAddinManifest.readManifestFile(file);
    const missing = (["id", "version", "displayName", "officeAppType"] as const).filter((k) => !info[k]);
    return missing.map((k) => `${path.basename(file)}: office-addin-manifest could not read ${k}`);
  } catch (err) {
    return [
      `${path.basename(file)}: office-addin-manifest could not read the file: ${(err as Error).message}`,
    ];
  }
}

/** The problems of one manifest file: the add-in only manifest (.xml) or the unified manifest (.json). */
async function problemsOf(file: string): Promise<string[]> {
  const text = readFileSync(file, "utf8");
  const fileName = path.basename(file);
  const problems = file.endsWith(".json")
    ? validateUnifiedManifest(text, { fileName, packageFile: filesBeside(file) })
    : await validateManifest(text, { rootDir: path.resolve(path.dirname(file)), fileName });
  if (problems.length === 0) problems.push(...(await readWithOfficeTooling(file)));
  return problems;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 0) {
    console.error("usage: tsx scripts/validate-manifest.ts MANIFEST.xml|MANIFEST.json ...");
    return 2;
  }
  const missing = argv.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    for (const file of missing) console.error(`${file}: no such file`);
    return 2;
  }
  let failed = false;
  for (const file of argv) {
    const problems = await problemsOf(file);
    if (problems.length > 0) {
      failed = true;
      for (const p of problems) console.error(p);
      console.error(`${problems.length} problem(s) found in ${file}`);
    } else if (file.endsWith(".json")) {
      console.log(
        `${file} is valid (offline: Microsoft's JSON schema ${UNIFIED_SCHEMA_VERSION}, icons, namespace ${NAMESPACE}, shared runtime, ribbon actions)`,
      );
    } else {
      console.log(
        `${file} is valid (offline checks: schema order, resources, icons, namespace ${NAMESPACE}, shared runtime)`,
      );
    }
  }
  return failed ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
