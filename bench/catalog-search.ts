// Keystroke latency of the task pane's datapoint search over the whole catalog: every prefix of
// typical queries (as typed, typos included), with and without filters. The budget is 50 ms.
import { CatalogSearchIndex } from "../src/catalog/search";

const QUERIES = [
  "return on invested capital",
  "retrun on invsted captial",
  "core earnings distortion",
  "accounts payable",
  "deprecation and amortisation",
  "weighted average diluted shares",
  "ebitda",
  "nopat",
];
const BUDGET_MS = 50;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const buildStart = performance.now();
const index = CatalogSearchIndex.fromCatalog();
const buildMs = performance.now() - buildStart;

const times: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const query of QUERIES) {
    for (let i = 1; i <= query.length; i++) {
      for (const filters of [{}, { dataset: "fundamentals/adjusted" }]) {
        const t = performance.now();
        index.search(query.slice(0, i), filters);
        times.push(performance.now() - t);
      }
    }
  }
}
times.sort((a, b) => a - b);
const result = {
  entries: index.entries.length,
  buildMs: Number(buildMs.toFixed(2)),
  searches: times.length,
  p50Ms: Number(percentile(times, 50).toFixed(3)),
  p95Ms: Number(percentile(times, 95).toFixed(3)),
  maxMs: Number((times[times.length - 1] ?? 0).toFixed(3)),
  budgetMs: BUDGET_MS,
};
console.log(JSON.stringify(result, null, 2));
if (result.maxMs > BUDGET_MS) {
  console.error(`catalog search exceeded the ${BUDGET_MS} ms keystroke budget`);
  process.exitCode = 1;
}
