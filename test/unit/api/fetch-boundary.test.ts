// Every request to the service goes through the request module (timeouts, retries, key redaction); the gateway's
// requests upstream and the sandbox may call fetch too (docs/architecture.md, "Who calls fetch"). Lint enforces it
// (eslint.config.cjs, over the whole of src/ in `npm run lint`); here the project's own config, through ESLint's
// Node API, is shown each way of reaching the platform's fetch in a file of src/, and must refuse every one of
// them by the rule named, and let the allowed places and an injected fetch pass.
import path from "node:path";
import { ESLint } from "eslint";

const ROOT = path.join(__dirname, "../../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is CommonJS for this very load
const CONFIG = require(path.join(ROOT, "eslint.config.cjs")) as ESLint.Options["overrideConfig"];
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: CONFIG });

const MESSAGE =
  'Only src/api, the gateway\'s upstream requests and the sandbox call fetch (docs/architecture.md, "Who calls fetch"): ' +
  "send the request through src/api, or call a fetch you were given.";

interface Finding {
  readonly line: number;
  readonly rule: string | null;
}

/** What lint says of `text` as the file `file` (relative to the repository): each finding's line and rule. */
async function lint(file: string, text: string): Promise<Finding[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  const messages = result?.messages ?? [];
  // Each rule puts its own words first ("Unexpected use of 'fetch'."), then the config's message.
  for (const m of messages)
    if (m.ruleId?.startsWith("no-restricted-")) expect(m.message.slice(-MESSAGE.length)).toBe(MESSAGE);
  return messages.map((m) => ({ line: m.line, rule: m.ruleId }));
}

/** One violation per line, each with the rule that must catch it. */
const VIOLATIONS: ReadonlyArray<readonly [string, string]> = [
  ["export const a = fetch('https://example.com');", "no-restricted-globals"],
  ["export const b = fetch;", "no-restricted-globals"],
  ["export const c = fetch.bind(undefined);", "no-restricted-globals"],
  ["export const d = globalThis.fetch('https://example.com');", "no-restricted-properties"],
  ["export const e = window.fetch;", "no-restricted-properties"],
  ["export const f = self.fetch;", "no-restricted-properties"],
  ["export const g = globalThis['fetch'];", "no-restricted-properties"],
  ["export const { fetch: h } = globalThis;", "no-restricted-properties"],
  ["export const i = globalThis.fetch.bind(globalThis);", "no-restricted-properties"],
  ["export const j = (globalThis as { fetch: typeof fetch }).fetch;", "no-restricted-syntax"],
  ["export const k = globalThis;", "no-restricted-syntax"],
  ["export const l = globalThis as unknown as { fetch: typeof fetch };", "no-restricted-syntax"],
  ["export const m = globalThis.window.fetch;", "no-restricted-syntax"],
  ["export const n = (name: 'fetch') => globalThis[name];", "no-restricted-syntax"],
  ["export const o = Reflect.get(globalThis, 'fetch');", "no-restricted-syntax"],
  ["export const { fetch: p } = globalThis as unknown as { fetch: typeof fetch };", "no-restricted-syntax"],
];

/** What a file outside the allowed places may do: take a fetch given to it, and name fetch's type. */
const ALLOWED_ELSEWHERE = [
  "export interface Input { readonly fetch?: typeof fetch }",
  "export const call = (input: Input): Promise<Response> | undefined => input.fetch?.('https://example.com');",
  "export const gateway = { fetch: (request: Request) => new Response(request.url) };",
  "export const app = gateway.fetch;",
  "export const origin = globalThis.location?.origin;",
  "export const here = globalThis.location as Location | undefined;",
  "export const registry = (globalThis as { CustomFunctions?: unknown }).CustomFunctions;",
  "export const { document } = globalThis;",
].join("\n");

describe("the fetch boundary (lint)", () => {
  it("refuses each way of reaching the platform's fetch in src/ outside the request module, by the rule named", async () => {
    const text = VIOLATIONS.map(([line]) => line).join("\n");
    for (const file of [
      "src/taskpane/logic/gateway-origin.ts",
      "src/functions/fetching.ts",
      "src/cli/x.tsx",
    ]) {
      expect(await lint(file, text)).toEqual(VIOLATIONS.map(([, rule], i) => ({ line: i + 1, rule })));
    }
  });

  it("lets a file outside the request module call a fetch it was given, and read other globals", async () => {
    expect(await lint("src/taskpane/logic/gateway-origin.ts", ALLOWED_ELSEWHERE)).toEqual([]);
  });

  it("lets the request module, the gateway's upstream requests and the sandbox call fetch", async () => {
    const text = "export const a = fetch('https://example.com');\nexport const b = globalThis.fetch;\n";
    for (const file of [
      "src/api/transport.ts",
      "src/api/probe.ts",
      "src/gateway/upstream.ts",
      "src/sandbox/index.ts",
    ]) {
      expect({ file, findings: await lint(file, text) }).toEqual({ file, findings: [] });
    }
  });

  it("holds in the rest of the gateway: only its upstream requests call fetch", async () => {
    expect(await lint("src/gateway/index.ts", "export const a = fetch('https://example.com');\n")).toEqual([
      { line: 1, rule: "no-restricted-globals" },
    ]);
  });
});
