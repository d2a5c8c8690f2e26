// What the previous refresh day's values take in the store (src/api/previous-day.ts): examples/model.txt and W1
// are asked on one refresh day against the in-process sandbox, the clock turns a day, and the stored record is
// measured: its characters, the requests and datapoint values it holds, beside the day cache's own record size,
// in a plain key-value store (bound 1 M characters: OfficeRuntime.storage where IndexedDB cannot be opened) and
// in a store of records (bound DEFAULTS.maxPersistChars: IndexedDB, the CLI's file), under both billings.
// The turn's own time (the first call of the new day, which hands the dropped answers over) is printed too.
// Run: npx tsx bench/day-before.ts
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DEFAULTS,
  FdqClient,
  MemoryStorage,
  accountTag,
  type BillingModel,
  type KeyValueStore,
} from "../src/api";
import { FileRecordStore } from "../src/api/node";
import { evaluateAll } from "../src/functions/evaluate";
import { readFdqCall, type FdqCall } from "../src/functions/formula";
import { startSandbox } from "../src/sandbox";
import { sandboxUniverse } from "./universe";
import { modelWorkload, workloadCells } from "./workloads";

const DAY_MS = 86_400_000;
const dir = mkdtempSync(path.join(tmpdir(), "fdq-day-before-"));

interface Store {
  readonly kind: string;
  readonly storage: KeyValueStore;
  readonly maxPersistChars: number;
  /** The day cache's stored characters. */
  cacheChars(): number;
}

function plainStore(): Store {
  const memory = new MemoryStorage();
  return {
    kind: "plain store",
    storage: memory,
    maxPersistChars: DEFAULTS.maxPersistChars,
    cacheChars: () =>
      [...memory.items]
        .filter(([k]) => k.startsWith(DEFAULTS.storageKey))
        .reduce((n, [, v]) => n + v.length, 0),
  };
}

let files = 0;
function recordStore(): Store {
  const file = path.join(dir, `cache-${++files}.json`);
  return {
    kind: "store of records",
    storage: new FileRecordStore(file, 1e9),
    maxPersistChars: DEFAULTS.maxPersistChars,
    cacheChars: () =>
      Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)
        .filter(([k]) => k.startsWith(DEFAULTS.storageKey))
        .reduce((n, [, v]) => n + v.length, 0),
  };
}

async function measure(
  label: string,
  ask: (client: FdqClient) => Promise<unknown>,
  billing: BillingModel,
  store: Store,
): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  let now = Date.parse("2026-11-27T15:00:00Z");
  const client = new FdqClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.demoKey,
    storage: store.storage,
    maxPersistChars: store.maxPersistChars,
    billing,
    now: () => now,
  });
  await ask(client);
  await client.flush();
  const cacheChars = store.cacheChars();
  now += DAY_MS;
  const start = performance.now();
  await client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 });
  const turnMs = performance.now() - start;
  await client.close();
  const text = (await store.storage.get(`${DEFAULTS.previousDayKey}.${accountTag(sandbox.demoKey)}`)) ?? "";
  const groups = (JSON.parse(text) as { e: [string, string[]][] }).e;
  const values = groups.reduce((n, g) => n + g[1].length, 0);
  console.log(
    `${label}, ${billing}, ${store.kind}: day cache ${cacheChars.toLocaleString("en")} chars; day before ` +
      `${text.length.toLocaleString("en")} chars (${Buffer.byteLength(text).toLocaleString("en")} bytes UTF-8), ` +
      `${groups.length} requests, ${values.toLocaleString("en")} values; the turn's call ${turnMs.toFixed(0)} ms`,
  );
  await sandbox.close();
}

async function main(): Promise<void> {
  const model = readFileSync(path.join(__dirname, "../examples/model.txt"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("="))
    .flatMap((line): FdqCall[] => {
      try {
        return [readFdqCall(line)];
      } catch {
        return [];
      }
    });
  const w1 = workloadCells(modelWorkload(sandboxUniverse(1, new Date())));
  const askW1 = (client: FdqClient) =>
    Promise.all(
      w1.map((cell) =>
        cell.kind === "datapoint"
          ? client
              .datapoint({ ticker: cell.ticker, dataset: cell.dataset.path, name: cell.name, ...cell.period })
              .catch(() => undefined)
          : undefined,
      ),
    );
  for (const billing of ["per-datapoint", "per-request"] as const) {
    await measure("examples/model.txt", (c) => evaluateAll(c, model), billing, plainStore());
    for (const store of [plainStore, recordStore])
      await measure(`W1 (${w1.length.toLocaleString("en")} cells)`, askW1, billing, store());
  }
}

void main();
