// `npx tsx bench/warm-steps.ts [--workloads W1] [--rounds 5]`: what each step of a warm run costs per cached cell
// once the code is warm (compiled and optimised), to say where the product's CPU beyond the floor goes. In this
// process, after one full warm evaluation (as bench/product.ts runs it) has compiled the product's code, each
// step runs alone over every cell of the workload, `--rounds` times, and its median CPU per cell is printed:
// reading and parsing the formulas; the request module's per-call pieces (checking the arguments, the call's
// request keys, the day cache's look-up, the answer's record and URL); a datapoint call through the client; the
// whole cell (the function layer and provenance) through evaluateAll; and formatting `--json`. A new process's
// first evaluation costs more than the sum (V8 compiling the code as it first runs, and the garbage collector):
// `npx tsx bench/warm-floor.ts` measures that; this one apportions the steady state. W1 and W2 (FDQ.DATAPOINT of
// fixed years) and W3 (FDQ.RATING: the ticker's check and key, the look-up, client.ratings, the function).
// Reaches into the client's private parts (its loaded ClientParts) to time the cache look-up alone: a
// diagnostic, never a way to use the client.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { checkDatapointRequest, type DatapointRequest, type FdqClient, type RecordsAnswer } from "../src/api";
// eslint-disable-next-line import-x/no-restricted-paths -- a diagnostic: times the request module's pieces alone
import { datapointKeys, keyOfCall } from "../src/api/call-requests";
import { openConnection } from "../src/cli/connection";
import { evaluateFile, fileLines } from "../src/cli/eval-command";
import { formatResult, formatResults } from "../src/cli/format";
import { evaluateAll } from "../src/functions/evaluate";
import { readFdqCall, type FdqCall } from "../src/functions/formula";
import { rating } from "../src/functions/impl/rating";
import type { ChildConfig } from "./child-protocol";
import { runEvaluator } from "./measure";
import { evaluateWithProduct } from "./product";
import { forEachWarmWorkload, median, WARM_KEY, workloadIds } from "./warm-workloads";

interface Parts {
  cache: { get(key: unknown): unknown; today(): string };
  transport: { url(key: unknown): string };
}

/** What `fdq eval --json` prints. */
const JSON_OUTPUT = { json: true, valuesOnly: false } as const;

const cpu = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function steps(config: ChildConfig, rounds: number): Promise<void> {
  const base = {
    baseUrl: config.baseUrl,
    apiKey: WARM_KEY,
    cacheDir: config.cacheDir,
    concurrency: config.concurrency,
    billing: config.billing,
  };
  // One full warm evaluation first: the product's code compiled and optimised, as in a long-lived runtime.
  await evaluateWithProduct({ formulasFile: config.formulasFile, base });
  const text = readFileSync(config.formulasFile, "utf8");
  const calls = fileLines(config.formulasFile, text).map((l) => readFdqCall(l.text));
  const cells = calls.length;
  const connection = await openConnection({ ...base, noCache: false, sandbox: false, stats: false });
  const client: FdqClient = connection.client;
  await client.ready();
  const parts = (client as unknown as { parts: Parts }).parts;
  const measured: [string, () => unknown][] = [
    [
      "read the formula file and parse every formula",
      () => fileLines("f", readFileSync(config.formulasFile, "utf8")).map((l) => readFdqCall(l.text)),
    ],
    [
      "load the saved cache (open a client, ready())",
      async () => {
        const c = await openConnection({ ...base, noCache: false, sandbox: false, stats: false });
        await c.client.ready();
        await c.close();
      },
    ],
    ...(calls[0]?.name === "RATING"
      ? ratingSteps(client, parts, calls)
      : datapointSteps(client, parts, calls)),
    ["evaluateAll without provenance (the function layer)", () => evaluateAll(client, calls as FdqCall[])],
    [
      "evaluateAll with provenance (fdq eval --json)",
      () => evaluateAll(client, calls as FdqCall[], { provenance: true }),
    ],
    [
      "the whole warm run (evaluateFile, formatResult as each settles)",
      async () => {
        const { results } = await evaluateFile(
          config.formulasFile,
          { ...base, noCache: false, sandbox: false, stats: false, json: true },
          (result) => formatResult(result, JSON_OUTPUT),
        );
        results.join("");
      },
    ],
  ];
  const { results } = await evaluateFile(config.formulasFile, {
    ...base,
    noCache: false,
    sandbox: false,
    stats: false,
    json: true,
  });
  measured.push(["format --json (formatResults)", () => formatResults(results, JSON_OUTPUT)]);
  for (const [name, run] of measured) {
    const each: number[] = [];
    for (let r = 0; r < rounds + 1; r++) {
      const before = cpu();
      await run();
      // The first round compiles what only this step runs: left out.
      if (r > 0) each.push((cpu() - before) / cells);
    }
    console.log(`  ${median(each).toFixed(2).padStart(7)} µs  ${name}`);
  }
  await connection.close();
}

/** The request module's pieces of a cell of FDQ.DATAPOINT of a fixed year (W1, W2). */
function datapointSteps(
  client: FdqClient,
  parts: Parts,
  calls: readonly FdqCall[],
): [string, () => unknown][] {
  const requests: DatapointRequest[] = calls.map((c) => {
    const [ticker, dataset, name, year] = c.args;
    return { ticker, dataset, name, year, quarter: null, ttm: null } as DatapointRequest;
  });
  const targets = requests.map(checkDatapointRequest);
  const keys = targets.map((t) => {
    const k = datapointKeys(t);
    return k.whole ?? k.single;
  });
  const answers = keys.map((k) => parts.cache.get(k) as RecordsAnswer);
  const indexes = targets.map((t, i) => answers[i]!.indexOf(t.name));
  return [
    ["check the arguments (checkDatapointRequest)", () => requests.map(checkDatapointRequest)],
    [
      "the call's request keys (datapointKeys, whole and single)",
      () =>
        targets.map((t) => {
          const k = datapointKeys(t);
          return [k.whole?.cacheKey, k.single.cacheKey];
        }),
    ],
    ["the call's request keys (the whole one only)", () => targets.map((t) => datapointKeys(t).whole)],
    ["the day cache's look-up (DayCache.get)", () => keys.map((k) => parts.cache.get(k))],
    ["the day (DayCache.today)", () => keys.map(() => parts.cache.today())],
    ["the name's index in the answer", () => targets.map((t, i) => answers[i]!.indexOf(t.name))],
    ["the answer's value", () => indexes.map((j, i) => answers[i]!.value(j))],
    ["the answer's record", () => indexes.map((j, i) => answers[i]!.record(j))],
    ["the answer's URL (transport.url)", () => keys.map((k) => parts.transport.url(k))],
    [
      "client.datapoint, every call started then awaited",
      () => Promise.all(requests.map((r) => client.datapoint(r))),
    ],
  ];
}

/** The request module's and the function's pieces of a cell of FDQ.RATING (W3). */
function ratingSteps(client: FdqClient, parts: Parts, calls: readonly FdqCall[]): [string, () => unknown][] {
  const tickers = calls.map((c) => c.args[0] as string);
  const keys = tickers.map((ticker) => keyOfCall({ kind: "ratings", ticker }));
  return [
    [
      "the call's request key (keyOfCall: the ticker checked)",
      () => tickers.map((ticker) => keyOfCall({ kind: "ratings", ticker })),
    ],
    ["the day cache's look-up (DayCache.get)", () => keys.map((k) => parts.cache.get(k))],
    ["the day (DayCache.today)", () => keys.map(() => parts.cache.today())],
    ["the answer's URL (transport.url)", () => keys.map((k) => parts.transport.url(k))],
    [
      "client.ratings, every call started then awaited",
      () => Promise.all(tickers.map((t) => client.ratings(t))),
    ],
    [
      "FDQ.RATING (rating()), every call started then awaited",
      () => Promise.all(calls.map((c) => rating(client, { ticker: c.args[0], field: c.args[1] }))),
    ],
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { workloads: { type: "string" }, rounds: { type: "string" } },
    strict: true,
  });
  const rounds = Math.max(1, Number(values.rounds ?? "5"));
  await forEachWarmWorkload(workloadIds(values.workloads ?? "W1"), async ({ id, cells, config }) => {
    await runEvaluator(config, WARM_KEY); // fills the cache
    console.log(`${id}: ${cells} cells, CPU per cached cell of each step, warm code, median of ${rounds}:`);
    await steps(config, rounds);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
