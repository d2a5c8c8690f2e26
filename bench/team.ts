// T1, a team opening the same model through one gateway (`npm run bench:team`): 10 analysts open the same
// 2,000-cell model within the first minute through one `fdq serve` gateway, in front of a sandbox at a
// production-like 80 ms a request and 6 at a time. Each analyst is an in-process FdqClient under
// per-request billing (the model is 200 whole-dataset requests) evaluating every cell; the analysts start at
// seeded random offsets within the first 5 s (the minute compressed, so that they overlap as the minute's
// would at production latency). Measures the upstream requests of the team and each cell's latency (from
// its analyst's start to its answer), against one analyst alone on a fresh gateway and sandbox: the team
// must cost exactly the single analyst's requests, and its p95 cell latency be within 1.3x of the single
// analyst's. One JSON line. `npm run bench:team -- --redis`: the team goes through two gateway instances on
// one redis-server (started here on a free port of 127.0.0.1, stopped by its PID), the analysts alternating
// between them; the single analyst stays on one instance without Redis.
import { DEFAULTS, FdqClient, sleep } from "../src/api";
import { startGateway, type RunningGateway } from "../src/gateway";
import { seededRandom } from "../src/sandbox/prng";
import { startSandbox } from "../src/sandbox";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { twoDatasetModel, type ModelCell } from "./universe";

const ANALYSTS = 10;
const LATENCY_MS = 80;
const START_WINDOW_MS = 5_000;
const SEED = 7;
const NOW = Date.parse("2026-03-02T15:00:00Z");

type Cell = ModelCell;

/** 10 tickers covered for all 10 years x 10 fiscal years x 20 names of two datasets = 2,000 cells. */
const model = (): Cell[] => twoDatasetModel(1, new Date(NOW));

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

/** The analysts (at their start offsets) through one fresh gateway and sandbox. */
async function run(
  cells: Cell[],
  offsets: number[],
  redis?: string,
): Promise<{ requests: number; units: number; latencies: number[]; failed: number }> {
  const sandbox = await startSandbox({
    latencyMs: LATENCY_MS,
    maxConcurrent: DEFAULTS.concurrency,
    now: () => new Date(NOW),
  });
  const gateways: RunningGateway[] = [];
  for (let i = 0; i < (redis === undefined ? 1 : 2); i++) {
    gateways.push(
      await startGateway({
        upstream: sandbox.baseUrl,
        port: 0,
        store: mkdtempSync(path.join(os.tmpdir(), "fdq-bench-team-")),
        redis,
        now: () => NOW,
        log: () => {},
        onWarning: () => {},
      }),
    );
  }
  const latencies: number[] = [];
  let failed = 0;
  const analyst = async (offset: number, index: number): Promise<void> => {
    await sleep(offset);
    const gateway = gateways[index % gateways.length]!;
    const client = new FdqClient({
      baseUrl: `${gateway.url}/v1`,
      apiKey: sandbox.demoKey,
      billing: "per-request",
      now: () => NOW,
    });
    const start = performance.now();
    await Promise.all(
      cells.map((cell) =>
        client.datapoint(cell).then(
          () => latencies.push((performance.now() - start) / 1000),
          () => failed++,
        ),
      ),
    );
    await client.close();
  };
  await Promise.all(offsets.map(analyst));
  const result = { requests: sandbox.stats().requests, units: sandbox.usage(), latencies, failed };
  for (const gateway of gateways) await gateway.close();
  await sandbox.close();
  return result;
}

/** redis-server on a free port of 127.0.0.1, nothing saved; answers its URL and how to stop it by PID. */
async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  // Ready when it accepts a connection.
  for (let i = 0; ; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) break;
    if (i > 200 || child.exitCode !== null) throw new Error("redis-server did not start (is it installed?)");
    await sleep(25);
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => process.kill(child.pid as number, "SIGKILL") };
}

async function main(): Promise<void> {
  const cells = model();
  const random = seededRandom(SEED);
  const offsets = Array.from({ length: ANALYSTS }, () => Math.round(random() * START_WINDOW_MS));
  const withRedis = process.argv.includes("--redis");
  const single = await run(cells, [0]);
  const redis = withRedis ? await startRedis() : undefined;
  const team = await run(cells, offsets, redis?.url);
  redis?.stop();
  const line = {
    workload: "T1",
    ...(withRedis ? { gateway_instances: 2, redis: true } : {}),
    analysts: ANALYSTS,
    cells: cells.length,
    upstream_requests: team.requests,
    single_user_requests: single.requests,
    units: team.units,
    p95_cell_s: Number(p95(team.latencies).toFixed(3)),
    single_user_p95_cell_s: Number(p95(single.latencies).toFixed(3)),
    failed_cells: team.failed + single.failed,
  };
  console.log(JSON.stringify(line));
  const sameRequests = line.upstream_requests === line.single_user_requests;
  const ratio = line.p95_cell_s / line.single_user_p95_cell_s;
  console.log(
    `upstream requests ${line.upstream_requests} (= ${line.single_user_requests} of one analyst alone): ${sameRequests ? "met" : "MISSED"}; ` +
      `p95 cell latency ${line.p95_cell_s} s, ${ratio.toFixed(2)}x the single analyst's ${line.single_user_p95_cell_s} s (<= 1.3x): ${ratio <= 1.3 ? "met" : "MISSED"}`,
  );
}

void main();
