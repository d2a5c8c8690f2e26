// `fdq`: the FDQ worksheet functions on the command line, with the same implementations and request
// module as Excel. Every command ends with a status of exit-codes.ts (the table `fdq --help` and
// docs/command-line.md show); every message of fdq itself starts with "fdq:".
// An unwritable cache directory is only a warning: fdq runs without the file.
// Each command's module is loaded when that command runs, after its arguments are parsed: `fdq eval` then does not
// load the gateway, the Redis client, the workbook engine or the search index, which were a third of its start's
// CPU and page faults. `require`, not `import()`: bin/fdq.js runs the sources through tsx's CommonJS hook, which
// a native dynamic import would bypass.
import { BudgetExceeded } from "./budget";
import { CommandFailed, EXIT } from "./exit-codes";
import { USAGE } from "./help";
import {
  parseEvalArgs,
  parseFreezeArgs,
  parseRefreshArgs,
  parseRepairArgs,
  parseRetrofitArgs,
  parseSearchArgs,
  parseUsageArgs,
  UsageError,
  wantsHelp,
} from "./options";
import { parseServeArgs } from "./serve-options";

export { USAGE } from "./help";

export const COMMANDS = [
  "eval",
  "refresh",
  "repair",
  "freeze",
  "thaw",
  "new",
  "retrofit",
  "search",
  "usage",
  "serve",
] as const;

/* eslint-disable @typescript-eslint/no-require-imports -- each command's module is required when it runs (see the top) */
type Run = (rest: string[]) => number | Promise<number>;

/** Each command: its arguments parsed first (a usage error loads nothing more), then its module loaded and run. */
const RUN: Readonly<Record<(typeof COMMANDS)[number], Run>> = {
  eval: (rest) => {
    const options = parseEvalArgs(rest);
    return (require("./eval-command") as typeof import("./eval-command")).runEval(options);
  },
  refresh: (rest) => {
    const options = parseRefreshArgs(rest);
    return (require("./refresh-command") as typeof import("./refresh-command")).runRefresh(options);
  },
  repair: (rest) => {
    const options = parseRepairArgs(rest);
    return (require("./repair-command") as typeof import("./repair-command")).runRepair(options);
  },
  freeze: (rest) => freezeOrThaw("freeze", rest),
  new: (rest) => {
    const command = require("./new-command") as typeof import("./new-command");
    return command.runNew(command.parseNewArgs(rest));
  },
  thaw: (rest) => freezeOrThaw("thaw", rest),
  retrofit: (rest) => {
    const options = parseRetrofitArgs(rest);
    return (require("./retrofit-command") as typeof import("./retrofit-command")).runRetrofitCommand(options);
  },
  search: (rest) => {
    const options = parseSearchArgs(rest);
    return (require("./search-command") as typeof import("./search-command")).runSearch(options);
  },
  usage: (rest) => {
    const options = parseUsageArgs(rest);
    return (require("./usage-command") as typeof import("./usage-command")).runUsage(options);
  },
  serve: (rest) => {
    const options = parseServeArgs(rest);
    return (require("./serve-command") as typeof import("./serve-command")).runServe(options);
  },
};

function freezeOrThaw(command: "freeze" | "thaw", rest: string[]): Promise<number> {
  const options = parseFreezeArgs(command, rest);
  return (require("./freeze-command") as typeof import("./freeze-command")).runFreeze(command, options);
}
/* eslint-enable @typescript-eslint/no-require-imports */

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
    // Own keys only: "constructor" or "toString" is an unknown command, not an Object method.
    if (Object.hasOwn(RUN, command)) return await RUN[command as keyof typeof RUN](rest);
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
