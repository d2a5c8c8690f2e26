// The evaluating process: a fresh Node process per measurement, so that its cold start, its cache
// read from disk and its peak memory are the evaluator's alone.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import * as path from "node:path";
import {
  CONFIG_ENV,
  KEY_ENV,
  measuredPass,
  writeReport,
  type ChildConfig,
  type PassResult,
} from "./child-protocol";
import { EVALUATOR_NAME, evaluateWithProduct } from "./product";

/** Sends one inspector command and waits for its answer. */
function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))),
  );
}

/**
 * FDQ_BENCH_EVAL_PROF=DIR: profiles the measured evaluation only (what "CPU per cached cell" counts: no
 * Node start-up, no module loading), sampling every 100 µs, into DIR/eval-<pid>-<pass>.cpuprofile.
 */
async function profiled<T>(pass: number, run: () => Promise<T>): Promise<T> {
  const dir = process.env.FDQ_BENCH_EVAL_PROF;
  if (!dir) return run();
  const session = new Session();
  session.connect();
  await post(session, "Profiler.enable");
  await post(session, "Profiler.setSamplingInterval", { interval: 100 });
  await post(session, "Profiler.start");
  const result = await run();
  const { profile } = await post<{ profile: object }>(session, "Profiler.stop");
  writeFileSync(path.join(dir, `eval-${process.pid}-${pass}.cpuprofile`), JSON.stringify(profile));
  session.disconnect();
  return result;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env[CONFIG_ENV] ?? "") as ChildConfig;
  const apiKey = process.env[KEY_ENV] ?? "";
  const run = {
    formulasFile: config.formulasFile,
    base: {
      baseUrl: config.baseUrl,
      apiKey,
      cacheDir: config.cacheDir,
      concurrency: config.concurrency,
      billing: config.billing,
    },
  };
  const passes: PassResult[] = [];
  for (let pass = 0; pass < config.passes; pass++) {
    passes.push(await measuredPass(() => profiled(pass, () => evaluateWithProduct(run))));
  }
  writeReport(passes, EVALUATOR_NAME);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
