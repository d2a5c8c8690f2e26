// The docs test (test/integration/docs/commands.test.ts) runs every ```console example of the pages and compares
// what it printed with what the page shows. This tests that comparison on its own, on pages written here: it
// passes on the right text, fails on a wrong line and names that line, and its placeholders stand only for what
// they say.
import {
  commandsOf,
  matchOutput,
  normaliseOutput,
  uncheckedHelpListings,
} from "../../integration/docs/doc-commands";

const page = [
  "Some text.",
  "",
  "```console",
  '$ npx --no-install fdq eval --sandbox \'=FDQ.SECURITY("AAPL","name")\'',
  '=FDQ.SECURITY("AAPL","name")  Aplo Synthetic Holdings',
  "$ npx --no-install fdq search roic \\",
  ">   --limit 2",
  "ROIC  metrics/roic",
  "",
  "```",
  "<!-- docs-test: exit 2 -->",
  "```console",
  "$ npx fdq price",
  'fdq: unknown command "price"; the commands are eval, refresh.',
  "```",
  "<!-- docs-test: not run: it needs a key -->",
  "```console",
  "$ npx --no-install fdq usage",
  "```",
].join("\n");

describe("reading a page's ```console examples", () => {
  const read = commandsOf(page, "page.md");

  it("takes each $ command with the lines under it, continuation lines joined", () => {
    expect(read.examples).toEqual([
      {
        where: "page.md:4",
        command: 'npx --no-install fdq eval --sandbox \'=FDQ.SECURITY("AAPL","name")\'',
        expected: ['=FDQ.SECURITY("AAPL","name")  Aplo Synthetic Holdings'],
        exit: 0,
        outputAt: 4,
      },
      {
        where: "page.md:6",
        command: "npx --no-install fdq search roic --limit 2",
        expected: ["ROIC  metrics/roic"],
        exit: 0,
        outputAt: 7,
      },
      {
        where: "page.md:13",
        command: "npx fdq price",
        expected: ['fdq: unknown command "price"; the commands are eval, refresh.'],
        exit: 2,
        outputAt: 13,
      },
    ]);
  });

  it("skips a block marked not run, with its reason", () => {
    expect(read.skipped).toEqual([{ where: "page.md:17", reason: "it needs a key" }]);
    expect(read.misplaced).toEqual([]);
  });
});

describe("comparing what a command printed with the page", () => {
  const shown = ["Usage:", "  fdq eval FORMULA", "", "Exit status:", "  0  done"];

  it("accepts the same text, with \\r\\n line ends, trailing spaces and a last newline", () => {
    expect(matchOutput(shown, "Usage:\n  fdq eval FORMULA\n\nExit status:\n  0  done\n")).toEqual({
      ok: true,
    });
    expect(
      matchOutput(shown, "Usage:  \r\n  fdq eval FORMULA\r\n\r\nExit status:\r\n  0  done\r\n\r\n"),
    ).toEqual({
      ok: true,
    });
  });

  it("fails on a page with a wrong line, naming the line, the page's text and the printed text", () => {
    const printed = "Usage:\n  fdq eval FORMULA\n\nExit status:\n  0  finished\n";
    expect(matchOutput(shown, printed)).toEqual({
      ok: false,
      line: 5,
      expected: "  0  done",
      printed: "  0  finished",
    });
  });

  it("fails on a line the page leaves out, and on one it adds", () => {
    expect(
      matchOutput(shown, "Usage:\n  fdq eval FORMULA\n\nExit status:\n  0  done\n  1  failed\n"),
    ).toEqual({
      ok: false,
      line: 6,
      expected: undefined,
      printed: "  1  failed",
    });
    expect(matchOutput(shown, "Usage:\n  fdq eval FORMULA\n\nExit status:\n")).toEqual({
      ok: false,
      line: 5,
      expected: "  0  done",
      printed: undefined,
    });
  });

  it("reads a difference in spaces inside a line as a difference", () => {
    expect(matchOutput(["a  b"], "a b").ok).toBe(false);
    expect(matchOutput(["a\tb"], "a  b").ok).toBe(false);
  });

  it("lets <date>, <time>, <number>, <duration> and <port> stand for their own kind of text only", () => {
    const line = ["resolved on <date> at <time>: <number> units in <duration>, http://127.0.0.1:<port>/v1"];
    expect(
      matchOutput(line, "resolved on 2026-11-24 at 09:12:07: 1,250 units in 3.2 s, http://127.0.0.1:4010/v1"),
    ).toEqual({ ok: true });
    expect(
      matchOutput(line, "resolved on today at 09:12: 1,250 units in 3.2 s, http://127.0.0.1:4010/v1").ok,
    ).toBe(false);
    expect(
      matchOutput(line, "resolved on 2026-11-24 at 09:12: many units in 3.2 s, http://127.0.0.1:4010/v1").ok,
    ).toBe(false);
    // The rest of the line is literal: a regular expression's characters in the page mean themselves.
    expect(matchOutput(["a.b (c)"], "axb (c)").ok).toBe(false);
    expect(matchOutput(["a.b (c)"], "a.b (c)").ok).toBe(true);
  });

  it("lets a line … alone stand for any run of lines, none included", () => {
    const head = ["first", "…", "last"];
    expect(matchOutput(head, "first\nlast")).toEqual({ ok: true });
    expect(matchOutput(head, "first\n2\n3\nlast")).toEqual({ ok: true });
    expect(matchOutput(head, "first\n2\n3\nlast but not").ok).toBe(false);
    expect(matchOutput(head, "second\nlast").ok).toBe(false);
  });

  it("normalises only line ends, trailing spaces and trailing blank lines", () => {
    expect(normaliseOutput("  a  \r\n\tb\t\n\n\n")).toEqual(["  a", "\tb"]);
  });
});

describe("help listings the pages show", () => {
  const listing = "Usage:\n  fdq eval [options] FORMULA...        evaluate formulas\n";

  it("are refused as ```text, or in a block marked not run", () => {
    expect(uncheckedHelpListings(`Intro.\n\n\`\`\`text\n${listing}\`\`\`\n`, "p.md")).toEqual(["p.md:3"]);
    expect(
      uncheckedHelpListings(
        `<!-- docs-test: not run: shown only -->\n\`\`\`console\n$ npx --no-install fdq --help\n${listing}\`\`\`\n`,
        "p.md",
      ),
    ).toEqual(["p.md:2"]);
  });

  it("are accepted as a ```console example of an fdq command", () => {
    expect(
      uncheckedHelpListings(`\`\`\`console\n$ npx --no-install fdq --help\n${listing}\`\`\`\n`, "p.md"),
    ).toEqual([]);
  });
});
