// Writes the function reference in docs/functions.md from the same source Excel reads: the JSDoc of
// src/functions/functions.ts, turned into functions.json by Microsoft's custom-functions-metadata generator (the
// one webpack's CustomFunctionsMetadataPlugin runs), plus the @returns lines the generator does not keep. The
// reference sits between two marker comments; everything else in the page is written by hand and kept as is.
// Run `npm run docs:functions` after changing the JSDoc; test/unit/docs/function-docs.test.ts fails while the
// page is stale. The page is formatted with prettier (the project's config) so that the check and
// `prettier --write` agree; prettier runs as its command line because its Node API loads its plugins by dynamic
// import, which jest's CommonJS runtime refuses.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";

export const ROOT = path.resolve(__dirname, "..");
export const FUNCTIONS_TS = path.join(ROOT, "src/functions/functions.ts");
export const FUNCTIONS_DOC = path.join(ROOT, "docs/functions.md");
export const BEGIN_MARKER =
  "<!-- BEGIN GENERATED function reference: edit the JSDoc in src/functions/functions.ts, then run npm run docs:functions -->";
export const END_MARKER = "<!-- END GENERATED function reference -->";

/** One function as functions.json declares it (the fields this page uses). */
interface DeclaredFunction {
  id: string;
  name: string;
  description?: string;
  parameters: {
    name: string;
    description?: string;
    type?: string;
    optional?: boolean;
    dimensionality?: string;
  }[];
  result?: { dimensionality?: string };
}

/** The @returns text of each @customfunction's JSDoc (functions.json has no place for it). */
export function returnsByFunction(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of source.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    const id = /@customfunction\s+(\w+)/.exec(block)?.[1];
    const returns = /@returns\s+([^\n]*(?:\n\s*\*\s+(?!@)[^\n]+)*)/.exec(block)?.[1];
    if (id && returns) out.set(id, returns.replace(/\s*\n\s*\*\s*/g, " ").trim());
  }
  return out;
}

/** Markdown text of a JSDoc sentence: keeps it readable and table-safe. */
function text(s: string | undefined): string {
  return (s ?? "").replace(/\|/g, "\\|").trim();
}

function signature(f: DeclaredFunction): string {
  const params = f.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(", ");
  return `FDQ.${f.name}(${params})`;
}

/** How a parameter takes a range, in the words of docs/functions.md's "Ranges" section. */
function rangeRule(f: DeclaredFunction): string {
  const matrix = f.parameters.some((p) => p.dimensionality === "matrix");
  return matrix
    ? "one cell each; a multi-cell range is `#VALUE!` naming the argument (the result spills a table of its own)"
    : "lifted: a range runs the function once per cell and spills one result per cell";
}

/** The reference section (without markers) for the declared functions. */
export function renderReference(
  functions: readonly DeclaredFunction[],
  returns: Map<string, string>,
): string {
  const lines: string[] = [
    `${functions.length} functions, in the order functions.json declares them. Optional arguments are in brackets.`,
    "",
  ];
  for (const f of functions) {
    lines.push(`### ${f.name}`, "", `\`${signature(f)}\``, "", text(f.description), "");
    lines.push("| Argument | Required | Description |", "| --- | --- | --- |");
    for (const p of f.parameters) {
      lines.push(`| \`${p.name}\` | ${p.optional ? "optional" : "required"} | ${text(p.description)} |`);
    }
    lines.push("");
    const ret = returns.get(f.id);
    if (ret)
      lines.push(`**Returns:** ${text(ret)}${f.result?.dimensionality === "matrix" ? " It spills." : ""}`);
    lines.push("", `**Given a range:** ${rangeRule(f)}.`, "");
  }
  return lines.join("\n");
}

/** The reference as the current JSDoc gives it, through the generator webpack's build runs. */
export async function generateReference(): Promise<string> {
  const generated = await generateCustomFunctionsMetadata(FUNCTIONS_TS);
  if (generated.errors.length > 0) throw new Error(generated.errors.join("\n"));
  const { functions } = JSON.parse(generated.metadataJson) as { functions: DeclaredFunction[] };
  return renderReference(functions, returnsByFunction(readFileSync(FUNCTIONS_TS, "utf8")));
}

/** `text` formatted as prettier formats docs/functions.md (the project's .prettierignore skips *.md, so not it). */
export function formatMarkdown(text: string): string {
  return execFileSync(
    process.execPath,
    [require.resolve("prettier/bin/prettier.cjs"), "--stdin-filepath", FUNCTIONS_DOC, "--ignore-path", ""],
    { input: text, encoding: "utf8", cwd: ROOT },
  );
}

/** `doc` with its generated section replaced by `reference`, formatted as prettier formats the page. */
export function withReference(doc: string, reference: string): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin < 0 || end < begin)
    throw new Error(`docs/functions.md must hold the two markers:\n${BEGIN_MARKER}\n${END_MARKER}`);
  const updated =
    doc.slice(0, begin + BEGIN_MARKER.length) + "\n\n" + reference.trim() + "\n\n" + doc.slice(end);
  return formatMarkdown(updated);
}

async function main(): Promise<void> {
  const current = readFileSync(FUNCTIONS_DOC, "utf8");
  const next = withReference(current, await generateReference());
  if (next === current) {
    console.log("docs/functions.md: the function reference is up to date");
    return;
  }
  writeFileSync(FUNCTIONS_DOC, next);
  console.log("docs/functions.md: function reference written from src/functions/functions.ts");
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  });
}
