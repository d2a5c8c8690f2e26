// `fdq`: the FDQ worksheet functions on the command line, with the same implementations and request
// module as Excel. Exit status: 0 when formulas were evaluated (even to Excel errors), 2 for usage errors,
// 1 when something else failed. An unwritable cache directory is only a warning: fdq runs without the file.
import { runEval } from "./eval-command";
import { runRefresh } from "./refresh-command";
import { DEFAULTS } from "../api/defaults";
import { MAX_CONCURRENCY, parseEvalArgs, parseRefreshArgs, UsageError, wantsHelp } from "./options";

export const USAGE = `Usage:
  fdq eval [options] FORMULA...        evaluate formulas given as arguments
  fdq eval [options] -f FILE           evaluate one formula per line of FILE ("-" = stdin; # comments)
  fdq refresh WORKBOOK.xlsx [-o OUT.xlsx] [options]
                                       evaluate every FDQ formula of a workbook and save the values

Formulas: =FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023) and the other FDQ functions (DATASET, SERIES,
RATING, SECTOR, COVERAGE, SECURITY, INFO), any case, with text, number and TRUE/FALSE literals and
omitted optional arguments (,,).

Options:
  --json              print one JSON value per formula (errors as {"error":"#N/A","message":"..."})
  --stats             print requests sent, cache hits, coalesced calls and retries on stderr
  --base-url URL      service base URL including /v1 (env FDQ_BASE_URL; default http://127.0.0.1:4010/v1,
                      the local sandbox of \`npm run sandbox\`)
  --api-key KEY       API key (env FDQ_API_KEY; default the local sandbox's demo key)
  --cache-dir DIR     where the day's answers are kept (env FDQ_CACHE_DIR; default $XDG_CACHE_HOME/fdq
                      or ~/.cache/fdq)
  --no-cache          keep answers in memory for this run only
  --concurrency N     requests open at once (1-${MAX_CONCURRENCY}; default ${DEFAULTS.concurrency}, as in Excel)
  --sandbox           start an embedded sandbox for this run and evaluate against it (no key, no network)
  -h, --help          show this help
`;

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === "help" || command === "-h" || command === "--help") {
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    }
    if (wantsHelp(rest)) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (command === "eval") return await runEval(parseEvalArgs(rest));
    if (command === "refresh") return await runRefresh(parseRefreshArgs(rest));
    throw new UsageError(`unknown command "${command}"`);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`fdq: ${err.message}\nRun "fdq --help" for the usage.\n`);
      return 2;
    }
    throw err;
  }
}
