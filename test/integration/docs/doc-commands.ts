// The shell commands the documentation shows, read from its fenced code blocks, and how the docs test checks
// each one. The rules a doc author follows (docs/README.md, "Writing these pages", says the same):
//   ```sh      every command in the block is checked: `npx fdq …` is run, `npm run X` / `npm test` / `npm ci` /
//              `npm start` must name a script of package.json, `npx tsx FILE` / `node FILE` / `bash FILE` a
//              file of the repository, `npx jest|tsc|eslint|prettier …` a tool installed in node_modules (and the
//              paths it names must exist); `npm run sandbox` and `npx fdq serve` are started, asked once and
//              stopped. Anything else is an error that asks for the marker below.
//   ```console  a command and what it prints: each line `$ npx --no-install fdq ARGS` (or `$ npx fdq ARGS`; a line
//              ending in `\` continues on the next) is run as the ```sh commands are, and the lines after it, up to
//              the next `$` line, must equal what it printed (stdout, then stderr) after the normalisation of
//              `matchOutput` below: line ends and trailing spaces, the placeholders <date>, <time>, <number>,
//              <duration>, <port>, <any>, and a line `…` alone for any run of lines. Only fdq commands go there.
//   ```text, ```ts, ... (any other language, or none): shown, never run (output, syntax, code).
//   <!-- docs-test: not run: REASON --> on the line before a ```sh or ```console fence: shown, not run; the reason
//              is said.
//   <!-- docs-test: exit N --> on the line before a ```sh or ```console fence: its fdq commands must exit with N.
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
  | { kind: "install" } // `npm link` or `npm install -g .`: fdq on the PATH, tried in a temporary prefix
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

/** One `$ command` of a ```console block and the output the page shows under it. */
export interface ConsoleExample {
  /** e.g. "docs/command-line.md:42", the line of the `$` */
  where: string;
  /** the command after `$ `, continuation lines joined */
  command: string;
  /** the lines the page shows under it (trailing blank lines dropped) */
  expected: string[];
  /** the exit status the page documents for it (default 0) */
  exit: number;
  /** where `expected` stands in the page: its first line's index (0-based) */
  outputAt: number;
}

export interface PageCommands {
  commands: DocCommand[];
  /** the ```console blocks' commands with their shown output */
  examples: ConsoleExample[];
  skipped: SkippedBlock[];
  /** marker comments that do not stand before a ```sh fence, or say nothing */
  misplaced: string[];
}

/** Development tools a page may show with npx (checked to be installed, not run). */
const TOOLS = ["jest", "tsc", "eslint", "prettier"];

const MARKER = /^<!--\s*docs-test:\s*(.*?)\s*-->$/;

export function classify(command: string): CommandKind {
  const words = command
    .replace(/^(\w+=\S*\s+)+/, "")
    .replace(/^npx --no-install /, "npx ")
    .split(/\s+/);
  const [first, second, third] = words;
  if (command === "npm link" || command === "npm install -g .") return { kind: "install" };
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
  const out: PageCommands = { commands: [], examples: [], skipped: [], misplaced: [] };
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
    if (language !== "sh" && language !== "console") {
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
    if (language === "console") {
      out.examples.push(...examplesOf(body, file, exit ? Number(exit[1]) : 0));
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

/** The `$` commands of a ```console block, each with the lines shown under it. */
function examplesOf(body: { text: string; line: number }[], file: string, exit: number): ConsoleExample[] {
  const out: ConsoleExample[] = [];
  let current: ConsoleExample | undefined;
  let continued = false;
  for (const { text, line } of body) {
    if (continued && current) {
      const piece = text.replace(/^\s*>?\s*/, "");
      continued = piece.endsWith("\\");
      current.command += " " + (continued ? piece.slice(0, -1).trim() : piece.trim());
      current.outputAt = line;
      continue;
    }
    const prompt = /^\$ (.*)$/.exec(text);
    if (prompt) {
      const command = prompt[1]!.trim();
      continued = command.endsWith("\\");
      current = {
        where: `${file}:${line}`,
        command: continued ? command.slice(0, -1).trim() : command,
        expected: [],
        exit,
        outputAt: line,
      };
      out.push(current);
      continue;
    }
    if (current) current.expected.push(text);
  }
  for (const example of out)
    while (example.expected.length > 0 && example.expected[example.expected.length - 1]!.trim() === "")
      example.expected.pop();
  return out;
}

/** The first line of `fdq --help`'s listing: a block showing it shows the help. */
const HELP_LISTING = /^\s*fdq eval \[options\] FORMULA\.\.\./m;

/**
 * The blocks of a page that show `fdq --help`'s listing without being a checked ```console example of an fdq
 * command (a ```text block, a block marked not run): each such block could drift from what fdq prints.
 */
export function uncheckedHelpListings(markdown: string, file: string): string[] {
  const lines = markdown.split("\n");
  const out: string[] = [];
  let notRun = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const marker = MARKER.exec(line);
    if (marker) {
      notRun = /^not run:/.test(marker[1]!);
      continue;
    }
    const fence = /^(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (!fence) {
      if (line !== "") notRun = false;
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) body.push(lines[i]!);
    const checked =
      fence[2] === "console" && !notRun && /^\$ npx (--no-install )?fdq /m.test(body.join("\n"));
    if (HELP_LISTING.test(body.join("\n")) && !checked) out.push(`${file}:${start + 1}`);
    notRun = false;
  }
  // Indented code blocks (four spaces) are never checked.
  const indented = markdown
    .split(/\n(?:[ \t]*\n)+/)
    .filter((p) => /^( {4}|\t)/.test(p) && HELP_LISTING.test(p));
  for (const block of indented)
    out.push(`${file}:${markdown.slice(0, markdown.indexOf(block)).split("\n").length}`);
  return out;
}

/** What fdq command a ```console line runs: `npx --no-install fdq ARGS` and `npx fdq ARGS` are both fdq. */
export const isFdqCommand = (command: string): boolean => /^npx (--no-install )?fdq(\s|$)/.test(command);

/**
 * The placeholders a page may write in a ```console block's output where the printed text changes from run to run:
 * each stands for one piece of a line. A line that is exactly `…` stands for any number of lines (none included).
 */
export const PLACEHOLDERS: Readonly<Record<string, string>> = {
  "<date>": "\\d{4}-\\d{2}-\\d{2}",
  "<time>": "\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?",
  "<number>": "-?[\\d,]+(?:\\.\\d+)?(?:e[-+]?\\d+)?",
  "<duration>": "[\\d.,]+ ?(?:ms|s|min)",
  "<port>": "\\d{1,5}",
  "<any>": ".*?",
};
const ELISION = "…";

/** A printed text as the page compares it: \r\n as \n, no trailing spaces, no trailing blank lines. */
export function normaliseOutput(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function linePattern(expected: string): RegExp {
  const names = Object.keys(PLACEHOLDERS).map((n) => n.replace(/[<>]/g, "\\$&"));
  const parts = expected.split(new RegExp(`(${names.join("|")})`));
  const source = parts
    .map((part) => PLACEHOLDERS[part] ?? part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("");
  return new RegExp(`^${source}$`);
}

export type OutputMatch =
  { ok: true } | { ok: false; line: number; expected: string | undefined; printed: string | undefined };

/**
 * Whether `printed` is what the page shows (`expected`, its lines): line by line after `normaliseOutput`, each
 * placeholder standing for its pattern and a `…` line for any run of lines. On a mismatch, the first line (1-based,
 * of the printed text) that differs, with the page's line and the printed one.
 */
export function matchOutput(expected: readonly string[], printed: string): OutputMatch {
  const want = normaliseOutput(expected.join("\n"));
  const got = normaliseOutput(printed);
  const patterns = want.map((line) => (line.trim() === ELISION ? undefined : linePattern(line)));
  let furthest = { at: 0, want: 0 };
  const from = (i: number, j: number): boolean => {
    if (i > furthest.at || (i === furthest.at && j > furthest.want)) furthest = { at: i, want: j };
    if (j === patterns.length) return i === got.length;
    const pattern = patterns[j];
    if (pattern === undefined) {
      for (let k = i; k <= got.length; k++) if (from(k, j + 1)) return true;
      return false;
    }
    return i < got.length && pattern.test(got[i]!) && from(i + 1, j + 1);
  };
  if (from(0, 0)) return { ok: true };
  return { ok: false, line: furthest.at + 1, expected: want[furthest.want], printed: got[furthest.at] };
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
