// `npm run sandbox -- --port 4010 [--api-key KEY]... [--body-object] [--latency-ms N] [--max-concurrent N]
//  [--fault-429 R] [--fault-503 R] [--fault-drop R] [--fault-malformed R] [--seed N]
//  [--quota N] [--refresh-window] [--restate YYYY-MM-DD] [--endpoint-names paths|groups]
//  [--cors off|permissive] [--no-data error|empty|not-found] [--clock YYYY-MM-DD]`
// The last five behave like production (docs/sandbox.md): --quota N meters quota units per key and answers
// 429 "Limit Exceeded" once a key has spent N (usage at GET /__usage); --refresh-window answers 503 from 05:00
// to 05:20 America/Chicago; --restate DAY restates the years closed on DAY from DAY on; --endpoint-names groups
// serves /v1/datapoint's `endpoints` as group names ("Model Data, Adjusted Fundamentals."); --cors off sends no
// CORS header on any answer and refuses preflights with 403 Forbidden, as a service without CORS support does
// (production-service.md, fact 17; default permissive: CORS for the task pane).
// --no-data chooses how a period without data answers (400 DataNotFound, 200 with no records, or 404); --clock
// fixes the sandbox's day (which periods are filed), e.g. to show a model rolling forward on a later day.
// FDQ_SANDBOX_API_KEYS (comma-separated) adds keys without putting them on a command line that npm echoes.
// Ctrl+C, SIGTERM or SIGHUP closes the server and exits; so does losing npm's script shell (see stopWhenOrphaned).
import { parseArgs } from "node:util";
import { CORS_MODES, type CorsMode } from "./cors-origin";
import { DEFAULT_SANDBOX_PORT, startSandbox, type EndpointNames, type SandboxOptions } from "./index";
import { parseRestatement } from "./restate";

function number(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag} needs a non-negative number, got "${value}"`);
  return n;
}

function endpointNames(value: string | undefined): EndpointNames {
  if (value === undefined || value === "paths" || value === "groups") return value ?? "paths";
  throw new Error(`--endpoint-names needs "paths" or "groups", got "${value}"`);
}

function corsMode(value: string | undefined): CorsMode {
  if (value === undefined) return "permissive";
  const mode = CORS_MODES.find((m) => m === value);
  if (mode === undefined) throw new Error(`--cors needs "off" or "permissive", got "${value}"`);
  return mode;
}

/** Checked here, so that a bad date fails with the flag's name before anything starts. */
function restateDay(value: string): string {
  parseRestatement(value);
  return value;
}

function noData(value: string): NonNullable<SandboxOptions["noData"]> {
  if (value === "error" || value === "empty" || value === "not-found") return value;
  throw new Error(`--no-data needs "error", "empty" or "not-found", got "${value}"`);
}

/** A clock fixed at noon UTC of the day: the day's filed periods, the day's prices. */
function clock(value: string): () => Date {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw new Error(`--clock needs a date YYYY-MM-DD, got "${value}"`);
  return () => date;
}

function quota(value: string | undefined): number | undefined {
  if (value !== undefined && !/^\d+$/.test(value))
    throw new Error(`--quota needs a non-negative integer, got "${value}"`);
  return value === undefined ? undefined : Number(value);
}

export function optionsFromArgs(args: readonly string[], env: NodeJS.ProcessEnv = {}): SandboxOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "api-key": { type: "string", multiple: true },
      "body-object": { type: "boolean" },
      "latency-ms": { type: "string" },
      "max-concurrent": { type: "string" },
      "fault-429": { type: "string" },
      "fault-503": { type: "string" },
      "fault-drop": { type: "string" },
      "fault-malformed": { type: "string" },
      seed: { type: "string" },
      quota: { type: "string" },
      "refresh-window": { type: "boolean" },
      restate: { type: "string" },
      "endpoint-names": { type: "string" },
      cors: { type: "string" },
      "no-data": { type: "string" },
      clock: { type: "string" },
    },
    strict: true,
  });
  const faults = {
    rate429: number(values["fault-429"], "fault-429") ?? 0,
    rate503: number(values["fault-503"], "fault-503") ?? 0,
    dropRate: number(values["fault-drop"], "fault-drop") ?? 0,
    malformedRate: number(values["fault-malformed"], "fault-malformed") ?? 0,
  };
  return {
    port: number(values.port, "port") ?? DEFAULT_SANDBOX_PORT,
    host: values.host ?? "127.0.0.1",
    apiKeys: [...(values["api-key"] ?? []), ...(env.FDQ_SANDBOX_API_KEYS ?? "").split(",").filter(Boolean)],
    bodyAsObject: values["body-object"] ?? false,
    seed: number(values.seed, "seed") ?? 1,
    latencyMs: number(values["latency-ms"], "latency-ms") ?? 0,
    maxConcurrent: number(values["max-concurrent"], "max-concurrent") ?? 0,
    faults,
    ...(values.quota !== undefined ? { quota: quota(values.quota) } : {}),
    refreshWindow: values["refresh-window"] ?? false,
    ...(values.restate !== undefined ? { restate: restateDay(values.restate) } : {}),
    endpointNames: endpointNames(values["endpoint-names"]),
    cors: corsMode(values.cors),
    ...(values["no-data"] !== undefined ? { noData: noData(values["no-data"]) } : {}),
    ...(values.clock !== undefined ? { now: clock(values.clock) } : {}),
  };
}

async function main(): Promise<void> {
  const opts = optionsFromArgs(process.argv.slice(2), process.env);
  const sandbox = await startSandbox(opts);
  console.log(`FDQ sandbox listening at ${sandbox.baseUrl}`);
  console.log(`Demo API key: ${sandbox.demoKey}`);
  // Extra keys are secrets of whoever passed them: count them, never print them.
  if (opts.apiKeys?.length) console.log(`Also accepting ${opts.apiKeys.length} key(s) given with --api-key.`);
  const usage = `http://${opts.host}:${sandbox.port}/__usage`;
  if (opts.quota !== undefined)
    console.log(`Quota: ${opts.quota} units per key and month (usage: ${usage}).`);
  if (opts.refreshWindow) console.log("Refresh window: /v1 answers 503 from 05:00 to 05:20 America/Chicago.");
  if (opts.restate) console.log(`Restatement: closed years change from ${opts.restate} on.`);
  if (opts.cors === "off") console.log("CORS off: no CORS headers, preflights answer 403 Forbidden.");
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // Open connections are closed with the server; the timer only guards against a close that never ends.
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
  if (process.env.npm_lifecycle_event === "sandbox") stopWhenOrphaned(stop);
}

const STOP_DEADLINE_MS = 3000;

/**
 * `npm run sandbox` runs this process under npm's script shell (`sh -c`). npm passes a SIGTERM on to that
 * shell, and Debian's /bin/sh (dash) dies of it without passing it on, which would leave the server running with
 * nobody to stop it: so under npm, a parent that goes away (this process is re-parented) stops the server too.
 */
function stopWhenOrphaned(stop: () => void, intervalMs = 200): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, intervalMs).unref();
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
