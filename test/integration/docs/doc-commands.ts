// The shell commands the documentation shows, read from its fenced code blocks, and how the docs test checks
// each one. The rules a doc author follows (docs/README.md, "Writing these pages", says the same):
//   ```sh      every command in the block is checked: `npx fdq …` is run, `npm run X` / `npm test` / `npm ci` /
//              `npm start` must name a script of package.json, `npx tsx FILE` / `node FILE` / `bash FILE` a
//              file of the repository, `npx jest|tsc|eslint|prettier …` a tool installed in node_modules (and the
//              paths it names must exist); `npm run sandbox` and `npx fdq serve` are started, asked once and
//              stopped. Anything else is an error that asks for the marker below.
//   ```text, ```console, ```ts, ... (any other language, or none): shown, never run (output, syntax, code).
//   <!-- docs-test: not run: REASON --> on the line before a ```sh fence: shown, not run; the reason is said.
//   <!-- docs-test: exit N --> on the line before a ```sh fence: its fdq commands must exit with status N.
import { readdirSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../../..");

/** The documentation the test reads: the front page, every page of docs/, and the benchmarks' page. */
export function docFiles(root: string = ROOT): string[] {
  const docs = readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => path.join("docs", f));
  return ["README.md", ...docs, "bench/README.md"];
}

export type CommandKind =
  | { kind: "fdq" } // run, to completion
  | { kind: "server"; program: "fdq serve" | "sandbox" } // started, asked once, stopped by its PID
  | { kind: "script"; name: string } // an npm script that must exist
  | { kind: "file"; file: string } // a file of the repository that must exist
  | { kind: "tool"; bin: string; files: string[] } // a tool of node_modules/.bin, and the paths it is given
  | { kind: "unknown" };

export interface DocCommand {
  /** e.g. "docs/sandbox.md:42" */
  where: string;
  /** the command as the page shows it (continuation lines joined, one `&&` part) */
  command: string;
  kind: CommandKind;
  /** the exit status the page documents for it (default 0) */
  exit: number;
}

export interface SkippedBlock {
  where: string;
  reason: string;
}

export interface PageCommands {
  commands: DocCommand[];
  skipped: SkippedBlock[];
  /** marker comments that do not stand before a ```sh fence, or say nothing */
  misplaced: string[];
}

/** Development tools a page may show with npx (checked to be installed, not run). */
const TOOLS = ["jest", "tsc", "eslint", "prettier"];

const MARKER = /^<!--\s*docs-test:\s*(.*?)\s*-->$/;

export function classify(command: string): CommandKind {
  const words = command.replace(/^(\w+=\S*\s+)+/, "").split(/\s+/);
  const [first, second, third] = words;
  if (first === "npx" && second === "fdq") {
    const serving = third === "serve" && !words.includes("--hash-token");
    return serving ? { kind: "server", program: "fdq serve" } : { kind: "fdq" };
  }
  if (first === "npm" && second === "run" && third === "sandbox")
    return { kind: "server", program: "sandbox" };
  if (first === "npm" && second === "run" && third) return { kind: "script", name: third };
  if (first === "npm" && (second === "test" || second === "start")) return { kind: "script", name: second };
  if (first === "npm" && second === "ci") return { kind: "file", file: "package-lock.json" };
  if (first === "npx" && second === "tsx" && third) return { kind: "file", file: third };
  if (first === "npx" && second && TOOLS.includes(second))
    return {
      kind: "tool",
      bin: second,
      files: words.slice(2).filter((w) => /^(src|test|bench|scripts|docs)\//.test(w)),
    };
  if ((first === "node" || first === "bash") && second && !second.startsWith("-"))
    return { kind: "file", file: second };
  return { kind: "unknown" };
}

/** The commands of one page's ```sh blocks, with the blocks marked as not run. */
export function commandsOf(markdown: string, file: string): PageCommands {
  const lines = markdown.split("\n");
  const out: PageCommands = { commands: [], skipped: [], misplaced: [] };
  let marker: { text: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const m = MARKER.exec(line);
    if (m) {
      if (marker) out.misplaced.push(`${file}:${marker.line}`);
      marker = { text: m[1]!, line: i + 1 };
      continue;
    }
    const fence = /^(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (!fence) {
      if (marker && line !== "") {
        out.misplaced.push(`${file}:${marker.line}`);
        marker = undefined;
      }
      continue;
    }
    const close = fence[1]!;
    const language = fence[2]!;
    const start = i;
    const body: { text: string; line: number }[] = [];
    for (i++; i < lines.length && !lines[i]!.trim().startsWith(close); i++)
      body.push({ text: lines[i]!, line: i + 1 });
    const given = marker;
    marker = undefined;
    if (language !== "sh") {
      if (given) out.misplaced.push(`${file}:${given.line}`);
      continue;
    }
    const notRun = given && /^not run:\s*(\S.*)$/.exec(given.text);
    const exit = given && /^exit\s+(\d+)$/.exec(given.text);
    if (given && !notRun && !exit) out.misplaced.push(`${file}:${given.line}`);
    if (notRun) {
      out.skipped.push({ where: `${file}:${start + 1}`, reason: notRun[1]! });
      continue;
    }
    for (const { command, line: at } of joinContinuations(body)) {
      for (const part of command.split(/\s+&&\s+/)) {
        out.commands.push({
          where: `${file}:${at}`,
          command: part.trim(),
          kind: classify(part.trim()),
          exit: exit ? Number(exit[1]) : 0,
        });
      }
    }
  }
  return out;
}

/** Lines ending in `\` joined with the next; blank lines and `#` comment lines left out. */
function joinContinuations(body: { text: string; line: number }[]): { command: string; line: number }[] {
  const out: { command: string; line: number }[] = [];
  let pending: { command: string; line: number } | undefined;
  for (const { text, line } of body) {
    const t = text.trim();
    if (!pending && (t === "" || t.startsWith("#"))) continue;
    const continued = t.endsWith("\\");
    const piece = continued ? t.slice(0, -1).trim() : t;
    pending = pending
      ? { command: `${pending.command} ${piece}`, line: pending.line }
      : { command: piece, line };
    if (!continued) {
      out.push(pending);
      pending = undefined;
    }
  }
  if (pending) out.push(pending);
  return out;
}

/** URLs in a command that would leave this machine (only 127.0.0.1 and localhost are allowed). */
export function foreignUrls(command: string): string[] {
  return (command.match(/\bhttps?:\/\/[^\s'"]+/g) ?? []).filter(
    (url) => !/^https?:\/\/(127\.0\.0\.1|localhost)([:/]|$)/.test(url),
  );
}
