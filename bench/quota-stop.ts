// Q1, the quota running out mid-refresh (`npm run bench:quota`): a 2,000-cell model refreshed against a
// sandbox whose quota runs out part-way, at a production-like 80 ms a request and 6 at a time. Measures
// what the target names: the requests sent after the first "Limit Exceeded" (at most the
// concurrency limit: those already in flight) and the seconds from that refusal until every remaining cell
// has its answer (#N/A with the quota message), which must be under 2 s. One JSON line.
import { DEFAULTS, FdqClient, QuotaExhaustedError } from "../src/api";
import { startSandbox } from "../src/sandbox";
import { twoDatasetModel } from "./universe";

const QUOTA = 600;
const LATENCY_MS = 80;
const NOW = Date.parse("2026-03-02T15:00:00Z");

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    quota: QUOTA,
    latencyMs: LATENCY_MS,
    maxConcurrent: DEFAULTS.concurrency,
    now: () => new Date(NOW),
  });
  const client = new FdqClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey, now: () => NOW });
  // 2,000 cells, every one a single-datapoint request under per-datapoint billing.
  const model = twoDatasetModel(1, new Date(NOW));
  let firstRefusal: number | undefined;
  let requestsAtRefusal = 0;
  let lastSettled = 0;
  let refused = 0;
  const cells = model.map(({ ticker, dataset, name, year }) =>
    client.datapoint({ ticker, dataset, name, year }).then(
      () => (lastSettled = performance.now()),
      (err: unknown) => {
        lastSettled = performance.now();
        if (!(err instanceof QuotaExhaustedError)) return;
        refused++;
        if (firstRefusal === undefined) {
          firstRefusal = lastSettled;
          requestsAtRefusal = sandbox.stats().requests;
        }
      },
    ),
  );
  await Promise.all(cells);
  const line = {
    workload: "Q1",
    cells: cells.length,
    quota: QUOTA,
    latency_ms: LATENCY_MS,
    concurrency: DEFAULTS.concurrency,
    units_spent: sandbox.usage(),
    cells_refused: refused,
    requests_after_first_refusal: sandbox.stats().requests - requestsAtRefusal,
    remaining_cells_s:
      firstRefusal === undefined ? null : Number(((lastSettled - firstRefusal) / 1000).toFixed(3)),
  };
  console.log(JSON.stringify(line));
  const met = line.requests_after_first_refusal <= DEFAULTS.concurrency && (line.remaining_cells_s ?? 99) < 2;
  console.log(
    `requests after the first refusal ${line.requests_after_first_refusal} (<= ${DEFAULTS.concurrency}), remaining cells answered in ${line.remaining_cells_s} s (< 2 s): ${met ? "met" : "MISSED"}`,
  );
  await client.close();
  await sandbox.close();
}

void main();
