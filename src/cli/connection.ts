// The client the CLI evaluates with: the service named by the options, or the local sandbox with its demo
// key, or (--sandbox) an embedded sandbox started for this run only. The day's cache persists in a file
// per service and account under the cache directory, so a second run the same refresh day sends no request
// again; runs at once on one directory merge their answers into it (FileRecordStore's lock).
import { accessSync, constants, mkdirSync } from "node:fs";
import path from "node:path";
import { accountTag, type ClientStats, DEFAULTS, FdqClient, FdqError } from "../api";
import { FileRecordStore } from "../api/node";
import type { FdqCall } from "../functions/formula";
import { DEFAULT_SANDBOX_PORT, DEMO_API_KEY } from "../sandbox/demo";
import { BudgetExceeded, estimateRun } from "./budget";
import { evaluateEach, type EvaluationOptions, type Outcome } from "../functions/evaluate";
import { cliHints } from "./hints";
import { carryLedgerOver } from "./legacy-cache";
import { UsageError, type ConnectionOptions } from "./options";

export const LOCAL_SANDBOX_URL = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/v1`;

export interface Connection {
  readonly client: FdqClient;
  /** Where the answers come from, for messages (never the key). */
  readonly baseUrl: string;
  /** The cache file, or undefined when the cache stays in memory. */
  readonly cacheFile: string | undefined;
  /** Writes the cache, closes the client and stops an embedded sandbox. */
  close(): Promise<void>;
}

/**
 * One cache file per service and account: "127.0.0.1_4010_v1.<account tag>.json". Two keys on one base URL
 * then never discard each other's file (issue 13); the tag is a one-way hash of the key (account-tag.ts).
 */
export function cacheFileFor(cacheDir: string, baseUrl: string, apiKey: string): string {
  const name = baseUrl
    .replace(/^[a-z]+:\/\//i, "")
    .replace(/[^A-Za-z0-9.-]+/g, "_")
    .replace(/_+$/, "");
  return path.join(cacheDir, `${name}.${accountTag(apiKey.trim())}.json`);
}

/**
 * Largest cache file read: the entries' budget, doubled for JSON escaping, plus the ledger. A larger file
 * is discarded unread, so a damaged one cannot make a run allocate without bound.
 */
const MAX_CACHE_FILE_BYTES = 2 * DEFAULTS.maxFilePersistChars + 1_000_000;

/** Warnings go to stderr, so stdout stays one result per formula. */
function warn(message: string): void {
  process.stderr.write(`fdq: warning: ${message}\n`);
}

/** Creates the cache directory if needed; false (after a warning) when fdq cannot write there. */
function writableDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    warn(`cannot write the cache directory ${dir} (${reason}): running without the file cache.`);
    return false;
  }
}

export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  let stopSandbox: (() => Promise<void>) | undefined;
  let baseUrl = options.baseUrl ?? LOCAL_SANDBOX_URL;
  let apiKey = options.apiKey ?? DEMO_API_KEY;
  if (options.sandbox) {
    // Loaded only for --sandbox: a run against a service does not load the sandbox (`require`: see cli/main.ts).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when it runs (see above)
    const { startSandbox } = require("../sandbox") as typeof import("../sandbox");
    const sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
    stopSandbox = () => sandbox.close();
    baseUrl = sandbox.baseUrl;
    apiKey = sandbox.demoKey;
  }
  // An embedded sandbox listens on a new port each run: a cache file for it would never be read again.
  const persistent = !options.noCache && !options.sandbox && writableDir(options.cacheDir);
  const cacheFile = persistent ? cacheFileFor(options.cacheDir, baseUrl, apiKey) : undefined;
  const storage = cacheFile ? new FileRecordStore(cacheFile, MAX_CACHE_FILE_BYTES) : undefined;
  if (cacheFile && storage && apiKey.trim() !== "") {
    const ledgerKey = `${DEFAULTS.usageKey}.${accountTag(apiKey.trim())}`;
    await carryLedgerOver(cacheFile, storage, ledgerKey, MAX_CACHE_FILE_BYTES);
  }
  let client: FdqClient;
  try {
    client = new FdqClient({
      baseUrl,
      apiKey,
      storage,
      maxPersistChars: DEFAULTS.maxFilePersistChars,
      concurrency: options.concurrency,
      billing: options.billing,
      hints: cliHints(!options.sandbox && options.baseUrl === undefined),
      onEvent: (e) => {
        if (e.type === "cache-warning") warn(e.message);
      },
    });
  } catch (err) {
    await stopSandbox?.();
    // A base URL that is not https (outside localhost) or an empty key: how fdq was called is wrong.
    if (err instanceof FdqError) throw new UsageError(err.message);
    throw err;
  }
  return {
    client,
    baseUrl,
    cacheFile,
    close: async () => {
      try {
        await client.close();
      } finally {
        await stopSandbox?.();
      }
    },
  };
}

export interface Evaluation<T = Outcome> {
  /** One per call, in order: its outcome, or what `each` made of it. */
  readonly outcomes: T[];
  readonly stats: ClientStats;
}

/**
 * Evaluates `calls` as one Excel recalculation on a connection opened for them, then writes the cache and
 * closes. The saved cache is loaded before the first call: every cached call then answers at once, instead
 * of all of them waiting (each holding its pending state in memory) for the load. With a budget, the run is
 * estimated first and, when it would spend more units, refused (BudgetExceeded) before anything is sent.
 * With `each`, every outcome is turned into what the caller keeps as soon as it settles (evaluateEach).
 */
export function evaluateCalls(
  options: ConnectionOptions,
  calls: readonly FdqCall[],
  evaluation?: EvaluationOptions,
): Promise<Evaluation>;
export function evaluateCalls<T>(
  options: ConnectionOptions,
  calls: readonly FdqCall[],
  evaluation: EvaluationOptions,
  each: (outcome: Outcome, index: number) => T,
): Promise<Evaluation<T>>;
export async function evaluateCalls<T>(
  options: ConnectionOptions,
  calls: readonly FdqCall[],
  evaluation: EvaluationOptions = {},
  each?: (outcome: Outcome, index: number) => T,
): Promise<Evaluation<T | Outcome>> {
  const connection = await openConnection(options);
  try {
    await connection.client.ready();
    if (options.budget !== undefined) {
      const estimate = await estimateRun(connection.client, calls, evaluation.values);
      if (estimate.units > options.budget) throw new BudgetExceeded(estimate, options.budget);
    }
    const outcomes = await evaluateEach<T | Outcome>(connection.client, calls, evaluation, each ?? keep);
    return { outcomes, stats: connection.client.stats() };
  } finally {
    await connection.close();
  }
}

const keep = (outcome: Outcome): Outcome => outcome;

/** The --stats line (stderr). */
export function formatStats(stats: ClientStats): string {
  const failures = Object.entries(stats.failures)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ");
  return (
    `fdq stats: requests sent ${stats.requestsSent}${stats.redirects ? ` (${stats.redirects} redirects)` : ""}, units spent ${stats.unitsSpent}, cache hits ${stats.cacheHits}, ` +
    `coalesced calls ${stats.coalescedCalls}, retries ${stats.retries}, failures ${failures || "0"}`
  );
}
