// Loopback load on the sandbox: `npx tsx bench/sandbox-load.ts [requests] [concurrency]`.
// Starts the sandbox in-process, sends a bounded mix of requests over a keep-alive agent (stops after
// the count or 120 s), and prints throughput, latency percentiles, statuses and RSS before/after. Every
// request of the mix asks for data that exists, so every answer should be a 200: anything else counts as
// an error.
import { RequestKey } from "../src/api";
import { ANNUAL, findDataset, period, type Period } from "../src/catalog";
import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import { startSandbox } from "../src/sandbox";
import { lastFiscalYear } from "../src/sandbox/availability";
import { UNIVERSE_SIZE, universeFor } from "../src/sandbox/universe";

const TOTAL = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = Number(process.argv[3] ?? 64);
const TIME_LIMIT_MS = 120_000;
const NOW = new Date("2025-08-15T12:00:00Z");
const SEED = 1;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// A full GC before each memory reading, so that the figures show retained memory, not garbage.
v8.setFlagsFromString("--expose_gc");
const gc = vm.runInNewContext("gc") as () => void;
const heapAfterGc = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

function get(agent: http.Agent, port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent, headers: { "x-api-key": key } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/**
 * Fiscal years every active stock has data for in every period kind: from the year after the latest
 * first year (a ttm window reaches back into the prior year) to the last annual year.
 */
function coveredYears(): number[] {
  const firstYears = universeFor(SEED)
    .list("stock")
    .map((s) => s.firstYear);
  const years: number[] = [];
  for (let y = Math.max(...firstYears) + 1; y <= lastFiscalYear(NOW); y++) years.push(y);
  return years;
}

/** A varied mix: many tickers, datasets and periods, so caches cannot hide generation cost. */
function pathFor(i: number, tickers: readonly string[], years: readonly number[]): string {
  const ticker = (tickers[i % tickers.length] ?? "AAPL").toUpperCase();
  const year = years[i % years.length] ?? lastFiscalYear(NOW);
  const n = (i % 4) + 1;
  const data = (path: string, p: Period, name?: string): RequestKey =>
    RequestKey.data(findDataset(path)!, ticker, year, p, name);
  const keys = [
    () => data("metrics/roic", ANNUAL, "ROIC"),
    () => data("reconciliation/net-income-to-nopat", period("quarter", n)),
    () => data("screens/enhanced", period("ttm", n)),
    () => data("fundamentals/adjusted", ANNUAL, "ASSETS"),
    () => RequestKey.ratings(ticker),
    () => RequestKey.security("stock", ticker),
    () => RequestKey.metadata("NOPAT"),
    () => data("reconciliation/book-value-to-invested-capital", ANNUAL),
  ];
  return `/v1/${keys[i % keys.length]!().path}`;
}

async function main(): Promise<void> {
  const rssStart = process.memoryUsage().rss;
  const sandbox = await startSandbox({ now: () => NOW, seed: SEED });
  const years = coveredYears();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const list = await fetch(`${sandbox.baseUrl}/coverage/stock`, {
    headers: { "x-api-key": sandbox.demoKey },
  });
  const body = (await list.json()) as { body: string };
  const tickers = (JSON.parse(body.body) as { results: Array<{ ticker: string }> }).results.map(
    (s) => s.ticker,
  );
  const rssBefore = process.memoryUsage().rss;
  const heaps = [heapAfterGc()];

  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let networkErrors = 0;
  let next = 0;
  const started = performance.now();
  // Four rounds, with the retained heap measured after each: flat figures mean nothing accumulates.
  let roundEnd = 0;
  const worker = async (): Promise<void> => {
    while (next < roundEnd && performance.now() - started < TIME_LIMIT_MS) {
      const i = next++;
      const t0 = performance.now();
      try {
        const status = await get(agent, sandbox.port, pathFor(i, tickers, years), sandbox.demoKey);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch {
        networkErrors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  for (let round = 1; round <= 4; round++) {
    roundEnd = Math.round((TOTAL * round) / 4);
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    heaps.push(heapAfterGc());
  }
  const seconds = (performance.now() - started) / 1000;
  const rssAfter = process.memoryUsage().rss;
  agent.destroy();
  await sandbox.close();

  latencies.sort((a, b) => a - b);
  const pct = (p: number): string =>
    (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(2);
  console.log(
    `universe: ${UNIVERSE_SIZE.stock} stocks, ${UNIVERSE_SIZE.etf} ETFs, ${UNIVERSE_SIZE.mf} mutual funds`,
  );
  console.log(`requests: ${latencies.length} at concurrency ${CONCURRENCY} in ${seconds.toFixed(1)} s`);
  console.log(`throughput: ${(latencies.length / seconds).toFixed(0)} requests/s`);
  console.log(`latency: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms`);
  const ok = statuses.get(200) ?? 0;
  const other = [...statuses].filter(([status]) => status !== 200);
  console.log(`fiscal years in the mix: ${years[0]}..${years.at(-1)} (every active stock has data)`);
  console.log(
    `answers: ${ok} x 200; other statuses: ${other.length ? JSON.stringify(Object.fromEntries(other)) : "none"}; ` +
      `network errors: ${networkErrors}; errors in total (not 200): ${latencies.length - ok}`,
  );
  console.log(`RSS: process start ${mb(rssStart)}, before load ${mb(rssBefore)}, after ${mb(rssAfter)}`);
  console.log(
    `heap after GC: before load, then after each quarter of the requests: ${heaps.map(mb).join(", ")}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
