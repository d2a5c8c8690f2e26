// `fdq`: the FDQ worksheet functions on the command line, with the same implementations and request
// module as Excel. Exit status: 0 when formulas were evaluated (even to Excel errors), 2 for usage errors and
// files fdq cannot use, 3 when a run would spend more quota units than its --budget (nothing sent), 4 when
// `fdq refresh` left formulas with their old values, 1 when something else failed (refresh: REFRESH_EXIT).
// An unwritable cache directory is only a warning: fdq runs without the file.
import { BudgetExceeded } from "./budget";
import { runEval } from "./eval-command";
import { runFreeze } from "./freeze-command";
import { runRefresh } from "./refresh-command";
import { runSearch } from "./search-command";
import { runServe } from "./serve-command";
import { runUsage } from "./usage-command";
import { DEFAULTS } from "../api/defaults";
import {
  MAX_CONCURRENCY,
  parseEvalArgs,
  parseFreezeArgs,
  parseRefreshArgs,
  parseSearchArgs,
  parseServeArgs,
  parseUsageArgs,
  UsageError,
  wantsHelp,
} from "./options";

export const USAGE = `Usage:
  fdq eval [options] FORMULA...        evaluate formulas given as arguments
  fdq eval [options] -f FILE           evaluate one formula per line of FILE ("-" = stdin; # comments)
  fdq refresh WORKBOOK.xlsx (-o OUT.xlsx | --in-place) [options]
                                       give every FDQ cell of an .xlsx/.xlsm workbook today's value, and
                                       every formula depending on one; only those cached values change,
                                       every other byte of the file is kept (docs/refresh.md). -o writes
                                       a new file, --in-place replaces the workbook (atomically, keeping
                                       its permissions); one of them is required. Cells left with their
                                       old values are listed. --changes FILE: what changed (JSON, or
                                       CSV for a .csv name); --sheet NAME, --only errors|stale: refresh
                                       only those FDQ cells (docs/refresh.md)
  fdq freeze WORKBOOK.xlsx (-o OUT.xlsx | --in-place) [--sheet NAME] [--share]
                                       FDQ cells to their values, formulas kept in the workbook
                                       (--share: a copy for someone without the add-in, with a sheet
                                       "FDQ sources" saying where each value came from)
  fdq thaw WORKBOOK.xlsx (-o OUT.xlsx | --in-place) [--sheet NAME]
                                       puts the frozen FDQ formulas back
  fdq search QUERY... [--dataset PATH] [--limit N] [--json]
                                       find datapoints by name, abbreviation or description, best first
                                       (offline, from the catalog; --limit default 20; --json: an array
                                       of {name, dataset, sign, description}; QUERY may be left out
                                       with --dataset to list that dataset)
  fdq usage [--json] [--plan N] [--plan-raised] [--base-url URL] [--api-key KEY] [--cache-dir DIR]
                                       this month's quota units of the key's account as fdq counted them
                                       in its cache file: the total of the plan (--plan, default ${DEFAULTS.planUnits.toLocaleString("en-US")}),
                                       by day and by dataset, whether the service answered "Limit
                                       Exceeded" and when the quota resets (--json: the report as JSON;
                                       --plan-raised: send requests again after a "Limit Exceeded").
                                       Sends no request.
  fdq serve --upstream URL [--port N] [--host H] [--public-url URL] [--store DIR] [--tokens FILE]
            [--redis redis://HOST:PORT] [--cert FILE --key FILE]
                                       the FDQ gateway of a team: the built add-in at /, the FDQ service
                                       of --upstream (base URL including /v1) at /v1 with each client's
                                       own key, one day's answers shared by everyone of an account,
                                       GET /usage, GET /healthz (--port default 8080, --host 127.0.0.1,
                                       --public-url default http://HOST:PORT, --store default
                                       CACHE_DIR/gateway). Prints its URL; stops on SIGTERM or Ctrl+C.
                                       --tokens FILE (or FDQ_GATEWAY_TOKENS): team mode, the key of
                                       FDQ_UPSTREAM_API_KEY upstream and a personal gateway token per
                                       analyst in x-api-key, FILE holding "name:sha256hex" lines.
                                       --redis: answers, in-flight requests, upstream slots and the
                                       ledger shared by every instance on that Redis. --cert/--key:
                                       PEM files, https instead of http.
  fdq serve --hash-token TOKEN [--name NAME]
                                       prints the tokens-file line of TOKEN (NAME default "analyst").

Formulas: =FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023) and the other FDQ functions (DATASET, SERIES,
RATING, SECTOR, COVERAGE, SECURITY, INFO), any case, with text, number and TRUE/FALSE literals and
omitted optional arguments (,,).

Output: each formula (cut to 60 characters) and its value beside it; a spill's rows under each other, their
cells separated by tabs; an error as its code and message (#N/A The requested datapoint was not found.).
A line of FILE that is not a formula fdq can evaluate prints "usage error at line N: ..." in its place; the
other lines are evaluated and fdq exits with status 2.

Options:
  --values-only       print the values alone, one formula after another, without the formulas
  --json              print one JSON object per formula and line: {"formula":"=FDQ...","value":...}, a spill's
                      value as rows ([[...],...]), an error as {"formula":...,"error":"#N/A","message":"..."},
                      a line not evaluated as {"formula":...,"line":N,"error":"usage","message":"..."};
                      with --values-only, the bare JSON values
  -o, --out FILE      fdq refresh: where to write the refreshed workbook (a new file, not the input)
  --in-place          fdq refresh: replace the workbook itself (a temporary file beside it, flushed to disk,
                      then renamed over it, with the workbook's permissions)
  --stats             print requests sent, quota units spent, cache hits, coalesced calls and retries on stderr
  --billing MODEL     how the key's account is billed (env FDQ_BILLING): per-datapoint (default, the vendor's
                      unit: one datapoint x security x period; cells asking some names of a dataset ask each
                      name, all names one whole request) or per-request (one unit a request: whole datasets)
  --budget N          estimate the run first (quota units of the requests not in today's cache) and, when it
                      would spend more than N, send nothing and exit with status 3
  --base-url URL      service base URL including /v1 (env FDQ_BASE_URL; default http://127.0.0.1:4010/v1,
                      the local sandbox of \`npm run sandbox\`)
  --api-key KEY       API key (env FDQ_API_KEY; default the local sandbox's demo key)
  --cache-dir DIR     where the day's answers are kept (env FDQ_CACHE_DIR; default $XDG_CACHE_HOME/fdq
                      or ~/.cache/fdq)
  --no-cache          keep answers in memory for this run only
  --concurrency N     requests open at once (1-${MAX_CONCURRENCY}; default ${DEFAULTS.concurrency}, as in Excel)
  --sandbox           start an embedded sandbox for this run and evaluate against it (no key, no network)
  -h, --help          show this help

Exit status: 0 when the formulas were evaluated (even to Excel errors), 2 for a usage error or a file fdq
cannot use (nothing sent), 3 when the run would spend more than --budget (nothing sent), 4 when fdq refresh
left formulas with their old values (the file is written; each is listed), 1 for anything else (fdq refresh
writes nothing over anything then).
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
    if (command === "freeze" || command === "thaw")
      return await runFreeze(command, parseFreezeArgs(command, rest));
    if (command === "search") return runSearch(parseSearchArgs(rest));
    if (command === "usage") return await runUsage(parseUsageArgs(rest));
    if (command === "serve") return await runServe(parseServeArgs(rest));
    throw new UsageError(`unknown command "${command}"`);
  } catch (err) {
    if (err instanceof BudgetExceeded) {
      process.stderr.write(`fdq: ${err.message}\n`);
      return 3;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`fdq: ${err.message}\nRun "fdq --help" for the usage.\n`);
      return 2;
    }
    throw err;
  }
}
