// The evaluating process: a fresh Node process per measurement, so that its cold start, its cache
// read from disk and its peak memory are the evaluator's alone.
import { CONFIG_ENV, KEY_ENV, REPORT_PREFIX, type ChildConfig, type PassResult } from "./child-protocol";
import { EVALUATOR_NAME, evaluateWithProduct } from "./product";

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
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const outcome = await evaluateWithProduct(run);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    passes.push({ seconds, cpuUs: cpu.user + cpu.system, ...outcome });
  }
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `${REPORT_PREFIX}${JSON.stringify({ passes, maxRssMb, evaluator: EVALUATOR_NAME })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
