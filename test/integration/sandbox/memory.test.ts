// Memory stays flat under sustained load: the sandbox computes values per request and keeps only bounded
// caches, so thousands of varied requests must not leave a growing heap behind.
import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import { DATASETS } from "../../../src/catalog";
import { pool, start, type Client } from "./helpers";

/** A full collection before each reading, so that the figures show retained memory, not garbage. */
function collect(): void {
  // jest does not expose global.gc; the flag takes effect for contexts created after it is set.
  v8.setFlagsFromString("--expose_gc");
  (vm.runInNewContext("gc") as () => void)();
}

const retainedHeap = (): number => {
  collect();
  return process.memoryUsage().heapUsed;
};

const ROUND = 1000;
/** Rounds after the warm-up round. */
const ROUNDS = 4;
/**
 * Bounds the test's time whatever the machine: a slow run fails on the request count instead of hanging. About
 * 20 s alone; the run's two workers and its Chromiums can hold the cores for minutes.
 */
const DEADLINE_MS = 150_000;

let client: Client;
let tickers: string[];
// node:http with keep-alive: several times faster than fetch, so the rounds fit a short test.
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
beforeAll(async () => {
  client = await start();
  tickers = (await client.results<Array<{ ticker: string }>>("/coverage/stock")).map((s) => s.ticker);
});
afterAll(async () => {
  agent.destroy();
  await client.sandbox.close();
});

/** Status of a GET whose body is read and dropped. */
function status(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${client.sandbox.baseUrl}${path}`,
      { agent, headers: { "x-api-key": client.key } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

/** Industry aggregates cost a pass over the members on first use: a few keep the warm-up short. */
const SECTOR_GROUPS = ["BEVERAGESI", "SOFTWAREI", "AIRLINESI", "BANKSI"];
const SECTOR_NAMES = ["NOPAT", "REVENUE", "ROIC_MEDIAN", "FCF_YIELD_WAVG", "COUNT_COMPANY"];

/** Request i of a varied mix (tickers, datasets, periods, sector datapoints) that always has data. */
function pathFor(i: number): string {
  const ticker = encodeURIComponent(tickers[(i * 7919) % tickers.length]!);
  const year = 2021 + (i % 4);
  const all = DATASETS.filter((d) => d.allDatapointsMode);
  switch (i % 5) {
    case 0:
    case 1:
      return `/${all[i % all.length]!.path}/${ticker}?year=${year}&quarter=${(i % 4) + 1}`;
    case 2:
      return `/fundamentals/adjusted/${ticker}?year=${year}&ttm=${(i % 4) + 1}&datapoint=ASSETS`;
    case 3:
      return `/sector/${SECTOR_GROUPS[i % 4]}?datapoint=${SECTOR_NAMES[Math.floor(i / 5) % 5]}`;
    default:
      return `/ratings/component/${ticker}`;
  }
}

it("the retained heap grows by less than 30 MB over 4,000 varied requests after a warm-up round of 1,000", async () => {
  const started = Date.now();
  const statuses = new Map<number, number>();
  let sent = 0;
  const round = async (): Promise<void> => {
    const first = sent;
    await pool(
      Array.from({ length: ROUND }, (_, k) => first + k),
      32,
      async (i) => {
        if (Date.now() - started > DEADLINE_MS) return;
        sent++;
        const code = await status(pathFor(i));
        statuses.set(code, (statuses.get(code) ?? 0) + 1);
      },
    );
  };
  await round();
  const warm = retainedHeap();
  for (let r = 0; r < ROUNDS; r++) await round();
  const growth = retainedHeap() - warm;
  expect(sent).toBe(ROUND * (ROUNDS + 1));
  expect([...statuses]).toEqual([[200, ROUND * (ROUNDS + 1)]]);
  expect(growth).toBeLessThan(30 * 1024 * 1024);
}, 180_000);
