// docs/command-line.md shows the exit-status table of src/cli/exit-codes.ts, and `fdq --help` prints that same
// table: one source for the code, the help and the docs. (The page's `fdq --help` block is a ```console example,
// which the docs test, test/integration/docs/commands.test.ts, compares with what the command prints.)
// FDQ_UPDATE_DOCS=1 rewrites the generated table of the page instead of comparing it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EXIT, EXIT_CODES, exitCodeHelp, exitCodeMarkdown } from "../../../src/cli/exit-codes";
import { USAGE } from "../../../src/cli/help";

const DOC = path.resolve(__dirname, "../../../docs/command-line.md");

/** The page's text between `<!-- NAME: begin ... -->` and `<!-- NAME: end -->`, and the page with `text` there. */
function block(page: string, name: string): { text: string; with(text: string): string } {
  const begin = new RegExp(`<!-- ${name}: begin[^>]*-->\\n`).exec(page);
  const end = page.indexOf(`<!-- ${name}: end -->`);
  if (!begin || end < 0) throw new Error(`docs/command-line.md has no "${name}" block`);
  const from = begin.index + begin[0].length;
  return { text: page.slice(from, end), with: (text) => page.slice(0, from) + text + page.slice(end) };
}

describe("docs/command-line.md", () => {
  let page = readFileSync(DOC, "utf8");
  if (process.env.FDQ_UPDATE_DOCS === "1") {
    page = block(page, "fdq exit status").with(exitCodeMarkdown());
    writeFileSync(DOC, page);
  }

  it("shows the exit-status table of exit-codes.ts", () => {
    expect(block(page, "fdq exit status").text).toBe(exitCodeMarkdown());
  });
});

describe("exit statuses", () => {
  it("are 0 ok, 1 failure, 2 usage, 3 budget, 4 skipped, each once", () => {
    expect(EXIT_CODES.map((e) => [e.code, e.name])).toEqual([
      [0, "ok"],
      [1, "failure"],
      [2, "usage"],
      [3, "budget"],
      [4, "skipped"],
    ]);
    expect(EXIT.skipped.code).toBe(4);
  });

  it("are printed by fdq --help, every status with its whole meaning", () => {
    expect(USAGE.endsWith(exitCodeHelp())).toBe(true);
    const help = exitCodeHelp().replace(/\s+/g, " ");
    for (const e of EXIT_CODES) expect(help).toContain(`${e.code} ${e.meaning.replaceAll("`", "")}`);
  });

  it("wrap the help at 110 columns", () => {
    for (const line of exitCodeHelp().split("\n")) expect(line.length).toBeLessThanOrEqual(110);
  });
});
