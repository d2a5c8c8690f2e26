import { readFileSync } from "node:fs";
import path from "node:path";
import { pngSize, validateManifest } from "../../../scripts/validate-manifest";

const ROOT = path.resolve(__dirname, "../../..");
const GOOD = readFileSync(path.join(ROOT, "manifest.xml"), "utf8");

/** Validates a variant of the real manifest made by replacing `from` (which must occur) with `to`. */
async function problemsOf(from: string | RegExp, to: string): Promise<string[]> {
  const text = GOOD.replace(from, to);
  expect(text).not.toBe(GOOD);
  return validateManifest(text, { rootDir: ROOT });
}

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split("\n").length;
}

describe("validate-manifest", () => {
  it("accepts the project's manifest.xml", async () => {
    expect(await validateManifest(GOOD, { rootDir: ROOT })).toEqual([]);
  });

  it("reports malformed XML with its line and column", async () => {
    const text = GOOD.replace("<Version>0.1.0.0</Version>", "<Version>0.1.0.0</Versoin>");
    const problems = await validateManifest(text, { rootDir: ROOT });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(
        `^manifest\\.xml: line ${lineOf(text, "</Versoin>")}, column \\d+: malformed XML: .*Version`,
      ),
    );
  });

  it("requires a GUID id", async () => {
    const problems = await problemsOf(/<Id>[^<]+<\/Id>/, "<Id>fdq-addin</Id>");
    expect(problems).toEqual([
      `manifest.xml:${lineOf(GOOD, "<Id>")}: <Id> must be a GUID, found "fdq-addin"`,
    ]);
  });

  it("requires a dotted numeric version", async () => {
    const problems = await problemsOf("<Version>0.1.0.0</Version>", "<Version>v1</Version>");
    expect(problems).toEqual([
      `manifest.xml:${lineOf(GOOD, "<Version>")}: <Version> must be n[.n[.n[.n]]], found "v1"`,
    ]);
  });

  it("requires the OfficeApp elements in schema order", async () => {
    const problems = await problemsOf(
      "<Version>0.1.0.0</Version>\n  <ProviderName>FDQ for Excel</ProviderName>",
      "<ProviderName>FDQ for Excel</ProviderName>\n  <Version>0.1.0.0</Version>",
    );
    expect(problems).toEqual([
      `manifest.xml:${lineOf(GOOD, "<Version>") + 1}: <Version> is out of order: it must come before <ProviderName>`,
    ]);
  });

  it("reports a missing required element", async () => {
    const problems = await problemsOf(/\s*<SupportUrl [^>]+\/>/, "");
    expect(problems).toEqual(["manifest.xml: <SupportUrl> is missing from <OfficeApp>"]);
  });

  it("rejects plain http URLs except for localhost", async () => {
    const problems = await problemsOf(
      '<bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="https://localhost:3000/taskpane.html"/>',
      '<bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="http://fdq.example.com/help"/>',
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^manifest\.xml:\d+: resource "GetStarted\.LearnMoreUrl": "http:\/\/fdq\.example\.com\/help" must use https \(http only for localhost\)$/,
    );
    const local = await problemsOf(
      '<bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="https://localhost:3000/taskpane.html"/>',
      '<bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="http://localhost:3000/taskpane.html"/>',
    );
    expect(local).toEqual([]);
  });

  it("reports a resid that no resource defines, and one of the wrong kind", async () => {
    const missing = await problemsOf(
      '<Label resid="RefreshButton.Label"/>',
      '<Label resid="Refresh.Label"/>',
    );
    expect(missing).toEqual([
      `manifest.xml:${lineOf(GOOD, 'resid="RefreshButton.Label"')}: resid "Refresh.Label" of <Label> is not defined in <Resources>`,
    ]);
    const wrongKind = await problemsOf(
      '<Description resid="RefreshButton.Tooltip"/>',
      '<Description resid="RefreshButton.Label"/>',
    );
    expect(wrongKind).toEqual([
      `manifest.xml:${lineOf(GOOD, 'resid="RefreshButton.Label"')}: resid "RefreshButton.Label" of <Description> must name a bt:LongStrings entry, not bt:ShortStrings`,
    ]);
  });

  it("checks that icon files exist and have the declared pixel size", async () => {
    const wrongSize = await problemsOf(
      'id="Icon.16x16" DefaultValue="https://localhost:3000/assets/icon-16.png"',
      'id="Icon.16x16" DefaultValue="https://localhost:3000/assets/icon-32.png"',
    );
    expect(wrongSize.length).toBeGreaterThan(0);
    expect(new Set(wrongSize.map((p) => p.replace(/^manifest\.xml:\d+: /, "")))).toEqual(
      new Set(['image "Icon.16x16": assets/icon-32.png is 32x32 px, 16x16 px expected']),
    );
    const missing = await problemsOf(
      '<HighResolutionIconUrl DefaultValue="https://localhost:3000/assets/icon-64.png"/>',
      '<HighResolutionIconUrl DefaultValue="https://localhost:3000/assets/logo-64.png"/>',
    );
    expect(missing).toEqual([
      `manifest.xml:${lineOf(GOOD, "<HighResolutionIconUrl")}: <HighResolutionIconUrl>: icon file assets/logo-64.png does not exist`,
    ]);
  });

  it("requires the FDQ custom functions namespace", async () => {
    const problems = await problemsOf(
      '<bt:String id="Functions.Namespace" DefaultValue="FDQ"/>',
      '<bt:String id="Functions.Namespace" DefaultValue="CONTOSO"/>',
    );
    expect(problems).toEqual([
      `manifest.xml:${lineOf(GOOD, 'id="Functions.Namespace"')}: the custom functions namespace must be "FDQ", found "CONTOSO"`,
    ]);
  });

  it("requires the SharedRuntime 1.1 requirement set", async () => {
    const problems = await problemsOf(
      '<Set Name="SharedRuntime" MinVersion="1.1"/>',
      '<Set Name="CustomFunctionsRuntime" MinVersion="1.1"/>',
    );
    expect(problems).toEqual([
      'manifest.xml: <Requirements> must contain <Set Name="SharedRuntime" MinVersion="1.1"/>',
    ]);
  });

  it("requires one long-lived runtime shared by functions page, task pane and commands", async () => {
    const short = await problemsOf('lifetime="long"', 'lifetime="short"');
    expect(short).toEqual([`manifest.xml:${lineOf(GOOD, "<Runtime ")}: <Runtime> must have lifetime="long"`]);

    const split = await problemsOf(
      '<FunctionFile resid="Taskpane.Url"/>',
      '<FunctionFile resid="GetStarted.LearnMoreUrl"/>',
    );
    expect(split).toEqual([
      `manifest.xml:${lineOf(GOOD, 'resid="GetStarted.LearnMoreUrl"')}: <FunctionFile> uses resid "GetStarted.LearnMoreUrl" but the shared runtime is "Taskpane.Url"`,
    ]);
  });

  it("reads PNG sizes from the IHDR header", () => {
    expect(pngSize(readFileSync(path.join(ROOT, "assets/icon-80.png")))).toEqual({ width: 80, height: 80 });
    expect(pngSize(Buffer.from("<svg/>"))).toBeUndefined();
  });
});
