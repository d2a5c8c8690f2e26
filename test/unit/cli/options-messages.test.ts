// How fdq answers a command line it cannot use: one sentence that says what to do (src/cli/options.ts, src/cli/serve-options.ts).
import { parseEvalArgs, parseSearchArgs, parseUsageArgs, UsageError } from "../../../src/cli/options";
import { parseServeArgs } from "../../../src/cli/serve-options";

/** The UsageError message `parse` throws. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error("accepted");
}

const ENV = {};

describe("options of fdq", () => {
  it("an unknown option names the command, the closest options and all of them, with balanced quotes", () => {
    const message = refusal(() => parseEvalArgs(["--base-ur", "x", "=FDQ.RATING(1)"], ENV));
    expect(message).toBe(
      "fdq eval has no option --base-ur. Did you mean --base-url? Its options: --base-url, --api-key, " +
        "--cache-dir, --no-cache, --sandbox, --stats, --concurrency, -h/--help, --billing, --budget, " +
        "-f/--file, --json, --values-only, --with-source, --card-metric.",
    );
    expect(refusal(() => parseSearchArgs(["roic", "--frobnicate"]))).toBe(
      "fdq search has no option --frobnicate. Its options: --dataset, --limit, --json, -h/--help.",
    );
    expect(refusal(() => parseUsageArgs(["--jsno"], ENV))).toMatch(
      /^fdq usage has no option --jsno\. Did you mean --json\?/,
    );
    expect(refusal(() => parseEvalArgs(["-x", "=FDQ.RATING(1)"], ENV))).toMatch(
      /^fdq eval has no option -x\. Its/,
    );
    for (const m of [message, refusal(() => parseEvalArgs(["-x"], ENV))]) {
      expect((m.match(/'/g) ?? []).length % 2).toBe(0);
      expect((m.match(/"/g) ?? []).length % 2).toBe(0);
    }
  });

  it("an option without its value, or a value given to a switch, says how to write it", () => {
    expect(refusal(() => parseServeArgs(["--upstream", "https://h/v1", "--port"], ENV))).toBe(
      "--port needs a value (--port VALUE).",
    );
    expect(refusal(() => parseEvalArgs(["-f"], ENV))).toBe("-f/--file needs a value (-f/--file VALUE).");
    expect(refusal(() => parseEvalArgs(["--budget", "-1", "=FDQ.RATING(1)"], ENV))).toBe(
      'the value after --budget starts with "-", which is ambiguous: write --budget=VALUE for such a value.',
    );
    expect(refusal(() => parseEvalArgs(["--json=yes", "=FDQ.RATING(1)"], ENV))).toBe(
      "--json takes no value (give --json alone).",
    );
  });

  it("fdq serve --upstream without /v1 is refused with the URL to give", () => {
    expect(refusal(() => parseServeArgs(["--upstream", "https://api.newconstructs.com"], ENV))).toBe(
      "--upstream must be the FDQ base URL including /v1: give --upstream https://api.newconstructs.com/v1 " +
        "(not https://api.newconstructs.com).",
    );
    expect(refusal(() => parseServeArgs(["--upstream", "http://127.0.0.1:4010/api/"], ENV))).toContain(
      "give --upstream http://127.0.0.1:4010/api/v1 ",
    );
    expect(parseServeArgs(["--upstream", "https://api.newconstructs.com/v1"], ENV).upstream).toBe(
      "https://api.newconstructs.com/v1",
    );
    expect(parseServeArgs(["--upstream", "http://127.0.0.1:4010/v1/"], ENV).upstream).toBe(
      "http://127.0.0.1:4010/v1/",
    );
  });
});
