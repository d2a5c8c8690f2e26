// `fdq`: the FDQ worksheet functions on the command line, with the same implementations and request
// module as Excel. Every command ends with a status of exit-codes.ts (the table `fdq --help` and
// docs/command-line.md show); every message of fdq itself starts with "fdq:".
// An unwritable cache directory is only a warning: fdq runs without the file.
import { BudgetExceeded } from "./budget";
import { runEval } from "./eval-command";
import { CommandFailed, EXIT } from "./exit-codes";
import { USAGE } from "./help";
import { runFreeze } from "./freeze-command";
import { runRefresh } from "./refresh-command";
import { runSearch } from "./search-command";
import { runServe } from "./serve-command";
import { runUsage } from "./usage-command";
import {
  parseEvalArgs,
  parseFreezeArgs,
  parseRefreshArgs,
  parseSearchArgs,
  parseUsageArgs,
  UsageError,
  wantsHelp,
} from "./options";
import { parseServeArgs } from "./serve-options";

export { USAGE } from "./help";

export const COMMANDS = ["eval", "refresh", "freeze", "thaw", "search", "usage", "serve"] as const;

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === "help" || command === "-h" || command === "--help") {
      process.stdout.write(USAGE);
      return command === undefined ? EXIT.usage.code : EXIT.ok.code;
    }
    if (wantsHelp(rest)) {
      process.stdout.write(USAGE);
      return EXIT.ok.code;
    }
    if (command === "eval") return await runEval(parseEvalArgs(rest));
    if (command === "refresh") return await runRefresh(parseRefreshArgs(rest));
    if (command === "freeze" || command === "thaw")
      return await runFreeze(command, parseFreezeArgs(command, rest));
    if (command === "search") return runSearch(parseSearchArgs(rest));
    if (command === "usage") return await runUsage(parseUsageArgs(rest));
    if (command === "serve") return await runServe(parseServeArgs(rest));
    throw new UsageError(`unknown command "${command}"; the commands are ${COMMANDS.join(", ")}.`);
  } catch (err) {
    if (err instanceof BudgetExceeded) {
      process.stderr.write(`fdq: ${err.message}\n`);
      return EXIT.budget.code;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`fdq: ${err.message}\nRun "fdq --help" for the usage.\n`);
      return EXIT.usage.code;
    }
    if (err instanceof CommandFailed) {
      process.stderr.write(`fdq: ${err.message}\n`);
      return EXIT.failure.code;
    }
    throw err;
  }
}

/** An error no command expected: its message (never a stack) after "fdq:", and the failure status. */
export function reportCrash(err: unknown): number {
  process.stderr.write(`fdq: ${err instanceof Error ? err.message : String(err)}\n`);
  return EXIT.failure.code;
}
