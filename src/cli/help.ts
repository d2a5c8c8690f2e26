// The text of `fdq --help`: every command and option. docs/command-line.md shows the same text (generated from
// here; test/unit/cli/command-line-docs.test.ts checks that they agree), with the exit-status table of
// exit-codes.ts.
import { DEFAULTS } from "../api";
import { exitCodeHelp } from "./exit-codes";
import { MAX_CONCURRENCY } from "./options";

/**
 * 10000 as "10,000", as toLocaleString("en-US") writes a whole number, without loading ICU's number formatting,
 * which cost every fdq process (this module is loaded by each) about 30 ms of CPU at start.
 */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

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
                                       only those FDQ cells
  fdq repair WORKBOOK.xlsx (-o OUT.xlsx | --in-place)
                                       store again every FDQ formula Excel no longer recognises (#NAME?:
                                       _xludf.FDQ., [2]!_xldudf_FDQ_, 'C:\\...\\x.xla'!, lower case) as
                                       Excel stores the add-in's functions, and remove the external links
                                       only they used; lists each repaired cell (docs/refresh.md)
  fdq freeze WORKBOOK.xlsx (-o OUT.xlsx | --in-place) [--sheet NAME] [--share]
                                       FDQ cells to their values, formulas kept in the workbook
                                       (--share: a copy for someone without the add-in, with a sheet
                                       "FDQ sources" saying where each value came from)
  fdq thaw WORKBOOK.xlsx (-o OUT.xlsx | --in-place) [--sheet NAME]
                                       puts the frozen FDQ formulas back, and the constants fdq
                                       retrofit replaced
  fdq new TEMPLATE --tickers T1,T2,... [--datapoints DATASET:NAME,...] -o NEW.xlsx
                                       a new workbook holding a template's sheet (FDQ formulas with
                                       relative periods, FY0 ... FY-9), and what filling it will cost in
                                       quota units (today's cache counted; nothing is sent); fill it with
                                       fdq refresh NEW.xlsx --in-place (docs/templates.md)
  fdq new --list                       the templates' names, one a line
  fdq retrofit MODEL.xlsx [--ticker T] [--estimate] [--budget N] [--report FILE]
               [--apply (-o OUT.xlsx | --in-place)] [--tolerance PCT]
                                       find the typed numbers of a model that are FDQ datapoints (a company
                                       per sheet, periods across; or a comps table, tickers down) and
                                       propose each one's formula; prints the price first (--estimate:
                                       only that, nothing sent); --report FILE: one row per number (JSON,
                                       or CSV for a .csv name); --apply: write the formulas over the
                                       matched constants, kept in the workbook for fdq thaw
                                       (docs/retrofit.md)
  fdq search QUERY... [--dataset PATH] [--limit N] [--json]
                                       find datapoints by name, abbreviation or description, best first
                                       (offline, from the catalog; --limit default 20; --json: an array
                                       of {name, dataset, sign, description}; QUERY may be left out
                                       with --dataset to list that dataset)
  fdq usage [--json] [--plan N] [--plan-raised] [--reset] [--base-url URL] [--api-key KEY] [--cache-dir DIR]
                                       this month's quota units of the key's account as fdq counted them
                                       in its cache file: the total of the plan (--plan, default ${grouped(DEFAULTS.planUnits)}),
                                       by day and by dataset, and when the quota resets; once the
                                       service answered "Limit Exceeded", that alone, with its day and
                                       no units left beside it (--json: the report as JSON;
                                       --plan-raised: send requests again after a "Limit Exceeded";
                                       --reset: the same at the FDQ gateway of --base-url too).
                                       Sends no request (--reset: one, to the gateway).
  fdq serve --upstream URL [--port N] [--host H] [--public-url URL] [--store DIR] [--tokens FILE]
            [--redis redis://HOST:PORT] [--cert FILE --key FILE]
                                       the FDQ gateway of a team: the built add-in at /, the FDQ service
                                       of --upstream (base URL including /v1) at /v1 with each client's
                                       own key, one day's answers shared by everyone of an account,
                                       GET /usage, GET /healthz (--port default 8080, --host 127.0.0.1,
                                       --public-url default http://HOST:PORT, --store default
                                       CACHE_DIR/gateway). Prints its URL; stops on SIGTERM or Ctrl+C
                                       (also when the npx or npm run that started it stops).
                                       --tokens FILE (or FDQ_GATEWAY_TOKENS): team mode, the key of
                                       FDQ_UPSTREAM_API_KEY upstream and a personal gateway token per
                                       analyst in x-api-key, FILE holding "name:sha256hex" lines.
                                       --redis: answers, in-flight requests, upstream slots and the
                                       ledger shared by every instance on that Redis. --cert/--key:
                                       PEM files, https instead of http.
  fdq serve --hash-token TOKEN [--name NAME]
                                       prints the tokens-file line of TOKEN (NAME default "analyst").

Formulas: =FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023) and the other FDQ functions (DATASET, SERIES,
RATING, SECTOR, COVERAGE, SECURITY, INFO, CARD), any case, with text, number and TRUE/FALSE literals and
omitted optional arguments (,,).

Output: each formula (cut to 60 characters) and its value beside it; a spill's rows under each other, their
cells separated by tabs; an error as its code and message (#N/A The requested data was not found.).
A line of FILE that is not a formula fdq can evaluate prints "usage error at line N: ..." in its place; the
other lines are evaluated and fdq exits with status 2.

Options:
  --values-only       print the values alone, one formula after another, without the formulas
  --json              print one JSON object per formula and line: {"formula":"=FDQ...","value":...}, a spill's
                      value as rows ([[...],...]), an error as {"formula":...,"error":"#N/A","message":"..."},
                      a line not evaluated as {"formula":...,"line":N,"error":"usage","message":"..."};
                      with --values-only, the bare JSON values; a card (FDQ.CARD) or a number with its
                      source as Excel's own JSON (type, text or basicValue, properties, layouts)
  --with-source       fdq eval: numbers of DATAPOINT, SERIES, SECTOR and DATASET with their source (Excel
                      DoubleCellValues: basicValue, number format, ticker, period asked and resolved...), as
                      the task pane's "numbers with their source" option returns them in Excel
  --card-metric DATASET:NAME:PERIOD
                      fdq eval: a key metric of FDQ.CARD, e.g. roic:ROIC:FY0 (repeatable, at most 12), as
                      the task pane's card metrics
  -o, --out FILE      fdq refresh, repair, freeze, thaw, retrofit: where to write the workbook (a new file,
                      not the input)
  --in-place          fdq refresh, repair, freeze, thaw, retrofit: replace the workbook itself (a temporary
                      file beside it, flushed to disk, then renamed over it, with the workbook's permissions)
  --changes FILE      fdq refresh: write the cells whose values changed, with old and new values and the kind
                      of change (restated, new period, new value, now an error), as JSON or CSV (.csv)
  --sheet NAME        fdq refresh, freeze, thaw: only the FDQ cells of that sheet
  --only WHICH        fdq refresh: only the FDQ cells in error (errors) or not answered today (stale)
  --share             fdq freeze: a copy for a colleague without the add-in, with a sheet "FDQ sources"
  --ticker T          fdq retrofit: the ticker of company sheets that name none (a cell 'Ticker: AAPL', the
                      sheet's name)
  --estimate          fdq retrofit: print what the run would cost and stop; nothing is sent
  --report FILE       fdq retrofit: one row per number (sheet, cell, label, status, formula, FDQ and model
                      values, scale, difference, confidence, candidates), JSON or CSV (.csv)
  --apply             fdq retrofit: write the FDQ formulas in place of the matched constants (with -o or
                      --in-place)
  --tolerance PCT     fdq retrofit: a match within PCT (up to 5%) instead of the rounding of the cell's format
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

${exitCodeHelp()}`;
