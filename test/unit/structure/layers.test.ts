// The layers of src/ (docs/architecture.md, "Layers"): each layer imports only from the layers under it, and lint
// enforces it (eslint.config.cjs, import-x/no-restricted-paths, over the whole of src/ in `npm run lint`). Here the
// project's own config, through ESLint's Node API, is shown one import that breaks each rule, in a file of the layer
// it names, and must refuse it with that rule's words; imports the order allows must pass.
import path from "node:path";
import { ESLint } from "eslint";

const ROOT = path.join(__dirname, "../../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is CommonJS for this very load
const CONFIG = require(path.join(ROOT, "eslint.config.cjs")) as ESLint.Options["overrideConfig"];
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: CONFIG });

/** The layer rules' findings for `source` as the file `file` (relative to the repository): their messages. */
async function layerFindings(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as probe from "${source}";\nexport { probe };\n`, {
    filePath: path.join(ROOT, file),
  });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === "import-x/no-restricted-paths")
    .map((m) => m.message);
}

/** One import per rule: the file that makes it, what it imports, and the words of the rule that must refuse it. */
const VIOLATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ["src/catalog/probe.ts", "../api", "src/catalog is the bottom layer"],
  ["src/formula/probe.ts", "../functions/formula", "src/formula is Excel's formula language"],
  ["src/formula/probe.ts", "../workbook/model", "src/formula is Excel's formula language"],
  ["src/api/probe.ts", "../functions/formula", "src/api depends on src/catalog only"],
  [
    "src/functions/probe.ts",
    "../workbook/refresh/recalculation",
    "src/functions and src/host sit on src/api",
  ],
  ["src/host/probe.ts", "../cli/usage-command", "src/functions and src/host sit on src/api"],
  ["src/manifest/probe.ts", "../api", "src/manifest is the add-in's description"],
  ["src/sandbox/probe.ts", "../functions/formula", "src/sandbox serves the contract"],
  ["src/workbook/probe.ts", "../cli/usage-command", "src/workbook sits under the surfaces"],
  ["src/taskpane/probe.ts", "../gateway", "src/taskpane is a surface"],
  ["src/gateway/probe.ts", "../host/shared-client", "src/gateway relays requests"],
  ["src/cli/probe.ts", "../host/shared-client", "src/cli runs outside Excel"],
  ["src/commands/probe.ts", "../sandbox", "src/commands runs in Excel"],
  ["src/workbook/probe.ts", "../../test/integration/gateway/helpers", "src/ ships"],
  ["src/cli/probe.ts", "../api/transport", "Import src/api through its surface"],
  ["src/workbook/xlsx/probe.ts", "../refresh/recalculation", "src/workbook's base"],
  ["src/workbook/engine/probe.ts", "../freeze/freeze", "src/workbook's base"],
  ["src/workbook/refresh/probe.ts", "../share/fdq-sources", "refresh, freeze and repair stand side by side"],
  ["src/workbook/refresh/probe.ts", "../freeze/freeze", "refresh stands beside freeze and repair"],
  ["src/workbook/freeze/probe.ts", "../refresh/recalculation", "freeze and repair stand beside refresh"],
  ["src/workbook/share/probe.ts", "../refresh/cell-sources", "share freezes a copy"],
  ["src/workbook/changes/probe.ts", "../freeze/freeze", "changes re-reads calls through refresh"],
  [
    "src/workbook/templates/probe.ts",
    "../refresh/recalculation",
    "templates write new sheets on the workbook base",
  ],
  ["src/workbook/refresh/probe.ts", "../templates/definitions", "templates stand beside the other concerns"],
  ["src/workbook/xlsx/probe.ts", "../templates/definitions", "src/workbook's base"],
  [
    "src/workbook/retrofit/probe.ts",
    "../refresh/recalculation",
    "retrofit proposes FDQ formulas for constants",
  ],
  ["src/workbook/freeze/probe.ts", "../retrofit/retrofit", "refresh, freeze and repair stand side by side"],
];

describe("the layers of src/", () => {
  it.each(VIOLATIONS)("refuses, in %s, an import of %s (%s)", async (file, source, words) => {
    const findings = await layerFindings(file, source);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(words);
  });

  it("lets each layer import the layers under it", async () => {
    const allowed: ReadonlyArray<readonly [string, string]> = [
      ["src/api/probe.ts", "../catalog"],
      ["src/functions/probe.ts", "../api"],
      ["src/functions/probe.ts", "../formula/parser"],
      ["src/workbook/engine/probe.ts", "../../formula/parser"],
      ["src/taskpane/probe.ts", "../formula/excel-values"],
      ["src/functions/probe.ts", "../host/shared-client"],
      ["src/sandbox/probe.ts", "../api"],
      ["src/workbook/probe.ts", "../functions/formula"],
      ["src/taskpane/probe.ts", "../workbook/model"],
      ["src/gateway/probe.ts", "../manifest/addin"],
      ["src/cli/probe.ts", "../gateway"],
      ["src/cli/probe.ts", "../sandbox"],
      ["src/commands/probe.ts", "../taskpane/runtime-services"],
      ["src/workbook/refresh/probe.ts", "../engine/evaluator"],
      ["src/workbook/share/probe.ts", "../freeze/freeze"],
      ["src/workbook/changes/probe.ts", "../refresh/fdq-functions"],
      ["src/workbook/templates/probe.ts", "../xlsx/xml"],
      ["src/taskpane/probe.ts", "../workbook/templates"],
      ["src/workbook/retrofit/probe.ts", "../freeze/frozen-formulas"],
    ];
    for (const [file, source] of allowed) {
      expect({ file, source, findings: await layerFindings(file, source) }).toEqual({
        file,
        source,
        findings: [],
      });
    }
  });
});
