// Command-line options of `fdq`, their environment variables and defaults.
import os from "node:os";
import path from "node:path";
import { type BillingModel, DEFAULTS } from "../api";
import { DATASETS, findDataset, parseRelativePeriod } from "../catalog";
import { MAX_CARD_METRICS, type CardMetric, type ValueOptions } from "../functions/value-options";
import { parse, UsageError } from "./parse-args";

export { UsageError } from "./parse-args";

export interface ConnectionOptions {
  /** Explicit --base-url or FDQ_BASE_URL; undefined means the local sandbox. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  cacheDir: string;
  noCache: boolean;
  /** Start an embedded sandbox on an ephemeral port and use it. */
  sandbox: boolean;
  stats: boolean;
  /** Requests open at once (--concurrency); undefined: the request module's default. */
  concurrency: number | undefined;
  /** How the key's account is billed (--billing, FDQ_BILLING); undefined: the request module's default. */
  billing?: BillingModel | undefined;
  /** --budget: most quota units the run may spend; over it, nothing is sent (exit status 3). */
  budget?: number | undefined;
}

export interface EvalOptions extends ConnectionOptions {
  json: boolean;
  /** --values-only: print the values without their formulas. */
  valuesOnly: boolean;
  /** --with-source and --card-metric: how values return, as the task pane's options set them in Excel. */
  values: ValueOptions;
  file: string | undefined;
  formulas: string[];
}

export interface RefreshOptions extends ConnectionOptions {
  workbook: string;
  out: string | undefined;
  /** --in-place: write the result over the input (atomically, keeping its permissions). */
  inPlace: boolean;
  /** --changes FILE: the change report, JSON or CSV by the extension (src/cli/refresh-changes.ts). */
  changes?: string | undefined;
  /** --sheet NAME: refresh the FDQ cells of this sheet only (src/cli/scoped-model.ts). */
  sheet?: string | undefined;
  /** --only errors|stale: refresh only FDQ cells in error, or from an older refresh day. */
  only?: RefreshOnly | undefined;
}

export type RefreshOnly = "errors" | "stale";
export const REFRESH_ONLY: readonly RefreshOnly[] = ["errors", "stale"];

/**
 * `fdq freeze` / `fdq thaw` (src/cli/freeze-command.ts). The connection options only say whose day cache
 * --share reads the refresh days from: nothing is sent.
 */
export interface FreezeOptions extends ConnectionOptions {
  workbook: string;
  out: string | undefined;
  inPlace: boolean;
  /** --sheet NAME: freeze (or thaw) this sheet's FDQ cells only. */
  sheet: string | undefined;
  /** --share: a copy for a colleague without the add-in, with an "FDQ sources" sheet. */
  share: boolean;
}

export function parseFreezeArgs(
  command: "freeze" | "thaw",
  args: string[],
  env: Env = process.env,
): FreezeOptions {
  const { values, positionals } = parse(command, args, {
    "base-url": CONNECTION_FLAGS["base-url"],
    "api-key": CONNECTION_FLAGS["api-key"],
    "cache-dir": CONNECTION_FLAGS["cache-dir"],
    "no-cache": CONNECTION_FLAGS["no-cache"],
    out: { type: "string", short: "o" },
    "in-place": { type: "boolean", default: false },
    sheet: { type: "string" },
    ...(command === "freeze" ? { share: { type: "boolean", default: false } } : {}),
    help: { type: "boolean", short: "h", default: false },
  });
  if (positionals.length !== 1)
    throw new UsageError(
      `give exactly one workbook: fdq ${command} WORKBOOK.xlsx (-o OUT.xlsx | --in-place)`,
    );
  const sheet = values.sheet?.trim();
  if (values.sheet !== undefined && !sheet) throw new UsageError("--sheet needs the name of a sheet.");
  return {
    ...connection(values, env),
    workbook: positionals[0] as string,
    out: values.out,
    inPlace: values["in-place"] === true,
    sheet,
    share: (values as { share?: boolean }).share === true,
  };
}

/** `fdq repair` (src/cli/repair-command.ts): nothing is sent, so it takes no connection options. */
export interface RepairOptions {
  workbook: string;
  out: string | undefined;
  inPlace: boolean;
}

export function parseRepairArgs(args: string[]): RepairOptions {
  const { values, positionals } = parse("repair", args, {
    out: { type: "string", short: "o" },
    "in-place": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (positionals.length !== 1)
    throw new UsageError("give exactly one workbook: fdq repair WORKBOOK.xlsx (-o OUT.xlsx | --in-place)");
  return { workbook: positionals[0] as string, out: values.out, inPlace: values["in-place"] === true };
}

export type Env = Readonly<Record<string, string | undefined>>;

/** $XDG_CACHE_HOME/fdq, ~/.cache/fdq, or %LOCALAPPDATA%\fdq on Windows. */
export function defaultCacheDir(env: Env = process.env): string {
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, "fdq");
  if (process.platform === "win32" && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, "fdq");
  return path.join(os.homedir(), ".cache", "fdq");
}

export const CONNECTION_FLAGS = {
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  "cache-dir": { type: "string" },
  "no-cache": { type: "boolean", default: false },
  sandbox: { type: "boolean", default: false },
  stats: { type: "boolean", default: false },
  concurrency: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** Flags of the commands that evaluate formulas (eval, refresh). */
const EVALUATION_FLAGS = {
  ...CONNECTION_FLAGS,
  billing: { type: "string" },
  budget: { type: "string" },
} as const;

export const BILLING_MODELS: readonly BillingModel[] = ["per-datapoint", "per-request"];

/** More would only queue at the service or trip its throttling. */
export const MAX_CONCURRENCY = 64;

function concurrencyOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, not "${text}".`);
  }
  return n;
}

export function billingOf(flag: string | undefined, env: Env): BillingModel {
  const [text, name] = flag !== undefined ? [flag, "--billing"] : [env.FDQ_BILLING, "FDQ_BILLING"];
  if (text === undefined || text.trim() === "") return DEFAULTS.billing;
  const billing = BILLING_MODELS.find((b) => b === text.trim().toLowerCase());
  if (billing) return billing;
  throw new UsageError(`${name} must be ${BILLING_MODELS.join(" or ")}, not "${text}".`);
}

/** A whole number of quota units of 0 or more (digits, optionally grouped by , or _). */
function unitsOf(text: string | undefined, name: string, least: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.trim().replace(/[,_]/g, ""));
  if (!/^\s*\d[\d,_]*\s*$/.test(text) || !Number.isSafeInteger(n) || n < least) {
    throw new UsageError(`${name} must be a whole number of ${least} or more quota units, not "${text}".`);
  }
  return n;
}

/** --billing and --budget, beside the connection options, for eval and refresh. */
function evaluation(values: Record<string, unknown>, env: Env): ConnectionOptions {
  return {
    ...connection(values, env),
    billing: billingOf(values["billing"] as string | undefined, env),
    budget: unitsOf(values["budget"] as string | undefined, "--budget", 0),
  };
}

export function connection(values: Record<string, unknown>, env: Env): ConnectionOptions {
  const sandbox = values["sandbox"] === true;
  const baseUrl = (values["base-url"] as string | undefined) ?? env.FDQ_BASE_URL;
  if (sandbox && values["base-url"] !== undefined) {
    throw new UsageError(
      "--sandbox and --base-url exclude each other: --sandbox evaluates against its own sandbox.",
    );
  }
  const keyFlag = values["api-key"] as string | undefined;
  if (keyFlag !== undefined && keyFlag.trim() === "") {
    throw new UsageError(
      "--api-key is empty: give the key, or leave the option out to use FDQ_API_KEY or the local sandbox's demo key.",
    );
  }
  return {
    baseUrl: sandbox ? undefined : baseUrl || undefined,
    apiKey: (keyFlag ?? env.FDQ_API_KEY) || undefined,
    cacheDir: ((values["cache-dir"] as string | undefined) ?? env.FDQ_CACHE_DIR) || defaultCacheDir(env),
    noCache: values["no-cache"] === true,
    sandbox,
    stats: values["stats"] === true,
    concurrency: concurrencyOf(values["concurrency"] as string | undefined),
  };
}

export function wantsHelp(args: string[]): boolean {
  return args.includes("-h") || args.includes("--help");
}

/** --card-metric DATASET:NAME:PERIOD (repeatable): a key metric of FDQ.CARD, as the pane's card options name one. */
export function cardMetricsOf(texts: readonly string[]): CardMetric[] {
  if (texts.length > MAX_CARD_METRICS) {
    throw new UsageError(`--card-metric: at most ${MAX_CARD_METRICS} metrics (got ${texts.length}).`);
  }
  return texts.map((text) => {
    const parts = text.split(":").map((p) => p.trim());
    const [dataset, name, period] = parts;
    if (parts.length !== 3 || !dataset || !name || !period || !parseRelativePeriod(period)) {
      throw new UsageError(
        `--card-metric ${text}: give DATASET:NAME:PERIOD with a relative period, e.g. roic:ROIC:FY0 or enhanced:FREE_CASH_FLOW:FY0.`,
      );
    }
    return { dataset, name, period };
  });
}

export function parseEvalArgs(args: string[], env: Env = process.env): EvalOptions {
  const { values, positionals } = parse("eval", args, {
    ...EVALUATION_FLAGS,
    file: { type: "string", short: "f" },
    json: { type: "boolean", default: false },
    "values-only": { type: "boolean", default: false },
    "with-source": { type: "boolean", default: false },
    "card-metric": { type: "string", multiple: true },
  });
  const file = values.file;
  if (file !== undefined && positionals.length > 0) {
    throw new UsageError("give formulas as arguments or in a file (-f FILE), not both.");
  }
  if (file === undefined && positionals.length === 0) {
    throw new UsageError('no formula given: fdq eval \'=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)\'');
  }
  return {
    ...evaluation(values, env),
    json: values.json === true,
    valuesOnly: values["values-only"] === true,
    values: {
      withSource: values["with-source"] === true,
      cardMetrics: cardMetricsOf((values["card-metric"] as string[] | undefined) ?? []),
    },
    file,
    formulas: positionals,
  };
}

export function parseRefreshArgs(args: string[], env: Env = process.env): RefreshOptions {
  const { values, positionals } = parse("refresh", args, {
    ...EVALUATION_FLAGS,
    out: { type: "string", short: "o" },
    "in-place": { type: "boolean", default: false },
    changes: { type: "string" },
    sheet: { type: "string" },
    only: { type: "string" },
  });
  if (positionals.length !== 1)
    throw new UsageError("give exactly one workbook: fdq refresh WORKBOOK.xlsx (-o OUT.xlsx | --in-place)");
  const only = values.only?.trim().toLowerCase();
  if (values.only !== undefined && !REFRESH_ONLY.some((o) => o === only))
    throw new UsageError(`--only must be ${REFRESH_ONLY.join(" or ")}, not "${values.only}".`);
  const sheet = values.sheet?.trim();
  if (values.sheet !== undefined && !sheet) throw new UsageError("--sheet needs the name of a sheet.");
  if (values.changes !== undefined && values.changes.trim() === "")
    throw new UsageError("--changes needs a file name (.json or .csv).");
  return {
    ...evaluation(values, env),
    workbook: positionals[0] as string,
    out: values.out,
    inPlace: values["in-place"] === true,
    changes: values.changes,
    sheet,
    only: only as RefreshOnly | undefined,
  };
}

export interface UsageOptions extends ConnectionOptions {
  json: boolean;
  /** --plan-raised: the user says the plan was raised; requests are sent again. */
  planRaised: boolean;
  /** --reset: lift the "Limit Exceeded" stop of the FDQ gateway at --base-url too (POST /usage/reset). */
  reset: boolean;
  /** The plan's units a month (--plan; default the member plans' 10,000). */
  plan: number;
}

export function parseUsageArgs(args: string[], env: Env = process.env): UsageOptions {
  const { values, positionals } = parse("usage", args, {
    "base-url": CONNECTION_FLAGS["base-url"],
    "api-key": CONNECTION_FLAGS["api-key"],
    "cache-dir": CONNECTION_FLAGS["cache-dir"],
    sandbox: CONNECTION_FLAGS.sandbox,
    help: CONNECTION_FLAGS.help,
    json: { type: "boolean", default: false },
    "plan-raised": { type: "boolean", default: false },
    reset: { type: "boolean", default: false },
    plan: { type: "string" },
  });
  if (positionals.length > 0) {
    throw new UsageError(`fdq usage takes no arguments (got "${positionals.join(" ")}").`);
  }
  return {
    ...connection(values, env),
    json: values.json === true,
    planRaised: values["plan-raised"] === true,
    reset: values.reset === true,
    plan: unitsOf(values.plan, "--plan", 1) ?? DEFAULTS.planUnits,
  };
}

export interface SearchOptions {
  /** The words to search for; "" lists the --dataset's datapoints in catalog order. */
  query: string;
  /** Dataset path (e.g. "metrics/roic"), or undefined for every dataset. */
  dataset: string | undefined;
  limit: number;
  json: boolean;
}

export const DEFAULT_SEARCH_LIMIT = 20;

/** The dataset `ref` names (a path such as "metrics/roic" or its last part "roic", any case). */
function searchDataset(ref: string): string {
  const dataset = findDataset(ref);
  if (dataset !== undefined) return dataset.path;
  const parts = ref
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((p) => p.length >= 3);
  const close = DATASETS.filter((d) => parts.some((p) => d.path.includes(p))).map((d) => d.path);
  const hint = close.length > 0 ? ` Did you mean ${close.join(" or ")}?` : "";
  throw new UsageError(
    `--dataset "${ref}" is not a dataset.${hint} Datasets: ${DATASETS.map((d) => d.path).join(", ")}.`,
  );
}

export function parseSearchArgs(args: string[]): SearchOptions {
  const { values, positionals } = parse("search", args, {
    dataset: { type: "string" },
    limit: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  const dataset = values.dataset === undefined ? undefined : searchDataset(values.dataset);
  const query = positionals.join(" ").trim();
  if (query === "" && dataset === undefined) {
    throw new UsageError("no query given: fdq search 'return on invested capital' [--dataset PATH]");
  }
  let limit = DEFAULT_SEARCH_LIMIT;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!/^\s*\d+\s*$/.test(values.limit) || limit < 1) {
      throw new UsageError(`--limit must be a whole number of 1 or more, not "${values.limit}".`);
    }
  }
  return { query, dataset, limit, json: values.json === true };
}

/** `fdq retrofit` (src/cli/retrofit-command.ts). */
export interface RetrofitOptions extends ConnectionOptions {
  workbook: string;
  /** --ticker: the ticker of company sheets that name none. */
  ticker: string | undefined;
  /** --estimate: print what the run would cost and stop; nothing is sent. */
  estimate: boolean;
  /** --report FILE: one row per number, JSON or CSV by the extension. */
  report: string | undefined;
  /** --apply: write the FDQ formulas over the matched constants (with -o or --in-place). */
  apply: boolean;
  out: string | undefined;
  inPlace: boolean;
  /** --tolerance PCT: a match within this relative difference, instead of the cell's own rounding. */
  tolerance: number | undefined;
}

export function parseRetrofitArgs(args: string[], env: Env = process.env): RetrofitOptions {
  const { values, positionals } = parse("retrofit", args, {
    ...EVALUATION_FLAGS,
    ticker: { type: "string" },
    estimate: { type: "boolean", default: false },
    report: { type: "string" },
    apply: { type: "boolean", default: false },
    out: { type: "string", short: "o" },
    "in-place": { type: "boolean", default: false },
    tolerance: { type: "string" },
  });
  if (positionals.length !== 1)
    throw new UsageError(
      "give exactly one workbook: fdq retrofit MODEL.xlsx [--report FILE] [--apply -o OUT.xlsx]",
    );
  const apply = values.apply === true;
  const inPlace = values["in-place"] === true;
  if (!apply && (values.out !== undefined || inPlace))
    throw new UsageError("-o and --in-place write the formulas: give them with --apply.");
  if (apply && values.estimate === true)
    throw new UsageError("--estimate sends nothing and writes nothing: give it without --apply.");
  const ticker = values.ticker?.trim().toUpperCase();
  if (values.ticker !== undefined && !/^[A-Z][A-Z0-9.-]{0,9}$/.test(ticker ?? ""))
    throw new UsageError(`--ticker must be a ticker such as AAPL, not "${values.ticker}".`);
  if (values.report !== undefined && values.report.trim() === "")
    throw new UsageError("--report needs a file name (.json or .csv).");
  let tolerance: number | undefined;
  if (values.tolerance !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(values.tolerance);
    tolerance = m ? Number(m[1]) / 100 : NaN;
    if (!(tolerance >= 0 && tolerance <= 0.05))
      throw new UsageError(
        `--tolerance must be a percent from 0 to 5 (e.g. 0.5%), not "${values.tolerance}".`,
      );
  }
  return {
    ...evaluation(values, env),
    workbook: positionals[0] as string,
    ticker,
    estimate: values.estimate === true,
    report: values.report,
    apply,
    out: values.out,
    inPlace,
    tolerance,
  };
}
