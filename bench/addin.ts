// `npm run bench:addin [-- --page DIR] [--pairs 3] [--batch 1000] [--latency-ms 80] [--max-concurrent 6]`: W1
// through the add-in's own path: `npm run build`'s production bundle in headless Chromium, with the Office test
// double in place of office.js (test/browser/harness.ts) and the custom functions called as Excel calls them.
//
// - Cold: a new browser context (empty IndexedDB) opens the pane connected to the sandbox at 80 ms a request and
//   6 at a time, billed per request as `npm run bench`'s timed runs are; W1's 22,500 cells are invoked and timed
//   until every one has settled.
// - Warm: the page is closed and a new page opened in the same context (the same origin's IndexedDB and
//   OfficeRuntime.storage: the workbook reopened on the same refresh day, then fully recalculated, since Excel does
//   not re-run custom functions at open), and the same cells invoked again: timed the same way, with the requests
//   the sandbox counted (0 is the target).
// - The page's JS heap (CDP Runtime.getHeapUsage, sampled every 100 ms: the peak of each run, and after a forced
//   collection once it settled).
// - Beside it, in the same run: the CLI's warm run of the same 22,500 cells (bench/evaluate-child.ts, as
//   `npm run bench` measures it), one after each warm reopen, so that both see the same load.
//
// How the calls are made: Excel's calculation engine hands the shared runtime its custom-function calls in
// batches, each batch one task of the page's event loop. The bench calls the function Excel would (the one the
// page registered with CustomFunctions.associate, found in the double's registry) with the arguments Excel passes
// for `=FDQ.DATAPOINT("T","dataset","NAME",2023)`: the declared parameters (an omitted one null, as functions.json
// declares them) and the invocation object last, `--batch` calls per task (default 1,000; a new task by
// setTimeout 0 between batches). The double's own grid is not used for W1: it recalculates every formula's
// dependents on every change (fine for tests of a few hundred cells, quadratic at 22,500).
//
// `--page DIR` uses a page built before (`node test/support/build-page.js DIR`) instead of building one (a build
// costs 20-60 s of CPU). `--smoke`: 300 cells of W1, one pair, no CLI run: checks that the bench runs end to end.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { Browser, CDPSession, Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../src/sandbox";
import {
  launchBrowser,
  openPane,
  openWorkbook,
  serveFolder,
  todayLabel,
  waitForConsole,
  type OpenPane,
  type StaticSite,
} from "../test/browser/harness";
import { CALCULATED_DAY_SETTING } from "../src/taskpane/office/document-settings";
import { buildPage } from "../test/support/browser-page";
import type { ChildConfig } from "./child-protocol";
import { runEvaluator } from "./measure";
import { describeMachine } from "./results-format";
import { sandboxUniverse } from "./universe";
import { median } from "./warm-workloads";
import { buildWorkload, formulaText, type Formula } from "./workloads";

const SANDBOX_SEED = 1;
const KEY = "fdq-bench-addin";

/** One cell's call as Excel makes it: the function's id and its arguments before the invocation object. */
interface Call {
  readonly fn: string;
  readonly args: readonly (string | number)[];
}

/** What the page measured for one recalculation. */
interface PageRun {
  /** From the first batch handed to the runtime to the last call settled. */
  readonly seconds: number;
  readonly cells: number;
  readonly errors: number;
  readonly errorSamples: readonly string[];
}

interface Heap {
  /** The largest used JS heap sampled while the calls ran. */
  readonly peakMb: number;
  /** After the run settled and a forced collection. */
  readonly afterGcMb: number;
}

function callOf(formula: Formula): Call {
  if (formula.fn !== "DATAPOINT") throw new Error(`bench:addin calls FDQ.DATAPOINT only, not ${formula.fn}`);
  if (formula.period.quarter !== undefined || formula.period.ttm !== undefined)
    throw new Error("bench:addin calls fiscal years only");
  return { fn: "DATAPOINT", args: [formula.ticker, formula.dataset, formula.name, formula.period.year] };
}

/**
 * Calls every cell's function in the page as Excel's calculation engine does, `batch` calls per task, and
 * answers when every call has settled.
 */
function recalculate(page: Page, calls: readonly Call[], batch: number): Promise<PageRun> {
  return page.evaluate(
    async ({ calls, batch }) => {
      interface Grid {
        functions: Map<string, (...args: unknown[]) => unknown>;
        metadata: Map<string, { params: unknown[] }>;
      }
      const grid = (window as unknown as { __officeDoubleParts: { grid: { state: Grid } } })
        .__officeDoubleParts.grid.state;
      let errors = 0;
      const errorSamples: string[] = [];
      const settled: Promise<void>[] = [];
      const start = performance.now();
      for (let from = 0; from < calls.length; from += batch) {
        if (from > 0) await new Promise((next) => setTimeout(next, 0));
        for (let i = from; i < Math.min(from + batch, calls.length); i++) {
          const { fn, args } = calls[i]!;
          const declared = grid.metadata.get(fn)?.params.length ?? args.length;
          const padded: unknown[] = args.slice();
          while (padded.length < declared) padded.push(null);
          padded.push({ functionName: fn, isInValuePreview: false });
          const f = grid.functions.get(fn);
          if (!f) throw new Error(`the page registered no function ${fn}`);
          settled.push(
            Promise.resolve(f(...padded)).then(
              () => undefined,
              (err: { code?: string; message?: string }) => {
                errors++;
                if (errorSamples.length < 3) errorSamples.push(`${err?.code}: ${err?.message}`);
              },
            ),
          );
        }
      }
      await Promise.all(settled);
      return { seconds: (performance.now() - start) / 1000, cells: calls.length, errors, errorSamples };
    },
    { calls, batch },
  );
}

/** Samples the page's used JS heap every 100 ms until stopped; then forces a collection and reads it again. */
function watchHeap(session: CDPSession): { stop(): Promise<Heap> } {
  let peak = 0;
  let sampling = true;
  const sample = async (): Promise<void> => {
    const { usedSize } = await session.send("Runtime.getHeapUsage");
    peak = Math.max(peak, usedSize);
  };
  const loop = (async () => {
    while (sampling) {
      await sample().catch(() => undefined);
      await new Promise((next) => setTimeout(next, 100));
    }
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      await sample();
      await session.send("HeapProfiler.collectGarbage");
      const { usedSize } = await session.send("Runtime.getHeapUsage");
      return { peakMb: peak / 2 ** 20, afterGcMb: usedSize / 2 ** 20 };
    },
  };
}

/** The pane connected to `sandbox` (billed per request), in a workbook already calculated today. */
const workbookOptions = {
  platform: "desktop",
  workbook: { documentSettings: { [CALCULATED_DAY_SETTING]: todayLabel() } },
} as const;

/** Runs one recalculation of `calls` in `pane`, with the requests the sandbox counted and the heap. */
async function measured(
  pane: OpenPane,
  sandbox: RunningSandbox,
  calls: readonly Call[],
  batch: number,
): Promise<PageRun & Heap & { requests: number }> {
  await waitForConsole(pane, "FDQ new-day check: current", 30_000);
  const session = await pane.context.newCDPSession(pane.page);
  await session.send("HeapProfiler.enable");
  const before = sandbox.stats().requests;
  const heap = watchHeap(session);
  const run = await recalculate(pane.page, calls, batch);
  const requests = sandbox.stats().requests - before;
  const memory = await heap.stop();
  await session.detach();
  if (pane.problems.length > 0) console.log(`page problems: ${pane.problems.slice(0, 3).join(" | ")}`);
  return { ...run, ...memory, requests };
}

/**
 * Waits until the page has written its cache: the day cache's debounced save, then the same origin's IndexedDB
 * holds as many records as a minute ago. A workbook is closed some time after its values settle; closing the
 * page before the save would measure a reopen that finds a partial cache.
 */
async function cacheSaved(page: Page): Promise<number> {
  const count = (): Promise<number> =>
    page.evaluate(async () => {
      const dbs = await indexedDB.databases();
      let records = 0;
      for (const { name } of dbs) {
        if (!name) continue;
        const db = await new Promise<IDBDatabase>((done, fail) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => done(open.result);
          open.onerror = () => fail(open.error);
        });
        for (const store of Array.from(db.objectStoreNames)) {
          records += await new Promise<number>((done, fail) => {
            const req = db.transaction(store, "readonly").objectStore(store).count();
            req.onsuccess = () => done(req.result);
            req.onerror = () => fail(req.error);
          });
        }
        db.close();
      }
      return records;
    });
  let last = -1;
  for (;;) {
    await new Promise((next) => setTimeout(next, 3_000));
    const now = await count();
    if (now === last && now > 0) return now;
    last = now;
  }
}

const mb = (v: number): string => v.toFixed(0);
const s = (v: number): string => v.toFixed(2);
const load = (): string => loadavg()[0]!.toFixed(1);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      page: { type: "string" },
      pairs: { type: "string" },
      batch: { type: "string" },
      "latency-ms": { type: "string" },
      "max-concurrent": { type: "string" },
      smoke: { type: "boolean" },
    },
    strict: true,
  });
  const smoke = values.smoke === true;
  const pairs = smoke ? 1 : Math.max(1, Number(values.pairs ?? "3"));
  const batch = Math.max(1, Number(values.batch ?? "1000"));
  const latencyMs = Number(values["latency-ms"] ?? "80");
  const maxConcurrent = Number(values["max-concurrent"] ?? "6");
  const started = Date.now();
  console.log(`bench:addin ${describeMachine().date}, load average ${load()} at the start`);

  const workDir = mkdtempSync(path.join(tmpdir(), "fdq-bench-addin-"));
  let browser: Browser | undefined;
  let site: StaticSite | undefined;
  const sandboxes: RunningSandbox[] = [];
  let builtDir: string | undefined;
  try {
    const built = Date.now();
    const [dist, sandbox, cliSandbox] = await Promise.all([
      values.page ? Promise.resolve(values.page) : buildPage(),
      startSandbox({ port: 0, seed: SANDBOX_SEED, latencyMs, maxConcurrent, apiKeys: [KEY] }),
      // The CLI's own sandbox, alike: its cold run is timed too, for comparison with the add-in's.
      startSandbox({ port: 0, seed: SANDBOX_SEED, latencyMs, maxConcurrent, apiKeys: [KEY] }),
    ]);
    sandboxes.push(sandbox, cliSandbox);
    if (!values.page) builtDir = dist;
    if (!values.page) console.log(`production bundle built in ${((Date.now() - built) / 1000).toFixed(0)} s`);
    site = await serveFolder(dist);
    browser = await launchBrowser();

    const workload = buildWorkload("W1", sandboxUniverse(SANDBOX_SEED, new Date()));
    const formulas = smoke ? workload.formulas.slice(0, 300) : workload.formulas;
    const calls = formulas.map(callOf);
    console.log(
      `W1: ${calls.length} cells, ${batch} calls per task; sandbox ${latencyMs} ms, cap ${maxConcurrent}`,
    );

    // The CLI's side: its own cache of the same cells, filled once.
    const formulasFile = path.join(workDir, "W1.txt");
    writeFileSync(formulasFile, formulas.map(formulaText).join("\n") + "\n");
    const cacheDir = path.join(workDir, "W1-cache");
    mkdirSync(cacheDir);
    const cli: ChildConfig = {
      formulasFile,
      baseUrl: cliSandbox.baseUrl,
      cacheDir,
      concurrency: maxConcurrent,
      billing: "per-request",
      passes: 1,
    };
    let cliCold: number | undefined;
    if (!smoke) {
      const { report } = await runEvaluator(cli, KEY);
      cliCold = report.passes[0]!.seconds;
      console.log(
        `CLI cold: ${s(cliCold)} s evaluating, ${cliSandbox.stats().requests} requests; load average ${load()}`,
      );
    }

    const storage = {
      "fdq.settings": JSON.stringify({ baseUrl: sandbox.baseUrl, apiKey: KEY, billing: "per-request" }),
    };
    const first = await openPane(browser, site, { ...workbookOptions, storage });
    const cold = await measured(first, sandbox, calls, batch);
    console.log(
      `cold: ${s(cold.seconds)} s until every cell settled, ${cold.requests} requests, ${cold.errors} errors` +
        `${cold.errors ? ` (${cold.errorSamples.join("; ")})` : ""}; JS heap peak ${mb(cold.peakMb)} MB, ` +
        `${mb(cold.afterGcMb)} MB after GC; load average ${load()}`,
    );
    const records = await cacheSaved(first.page);
    console.log(`IndexedDB holds ${records} records after the cold run's saves`);
    let page = first;
    const warm: number[] = [];
    /** The page's opening (the bundle loaded, the pane shown, its new-day check done) and the recalculation. */
    const warmWithOpen: number[] = [];
    const cliProcess: number[] = [];
    const cliWarm: number[] = [];
    const heaps: number[] = [];
    for (let i = 0; i < pairs; i++) {
      await page.page.close();
      const opened = Date.now();
      page = await openWorkbook(first, site, workbookOptions);
      const openS = (Date.now() - opened) / 1000;
      const run = await measured(page, sandbox, calls, batch);
      warm.push(run.seconds);
      warmWithOpen.push(run.seconds + openS);
      heaps.push(run.peakMb);
      console.log(
        `warm reopen ${i + 1}: ${s(run.seconds)} s until every cell settled (page opened in ${s(openS)} s), ` +
          `${run.requests} requests, ${run.errors} errors; JS heap peak ${mb(run.peakMb)} MB, ` +
          `${mb(run.afterGcMb)} MB after GC; load average ${load()}`,
      );
      if (run.errors > 0 || run.requests > 0) console.log(`  not a warm run: ${run.errorSamples.join("; ")}`);
      if (smoke) continue;
      const { report, processSeconds } = await runEvaluator(cli, KEY);
      const pass = report.passes[0]!;
      if (pass.errors > 0) throw new Error(`the CLI's warm run failed: ${pass.errorSamples.join("; ")}`);
      cliWarm.push(pass.seconds);
      cliProcess.push(processSeconds);
      console.log(
        `CLI warm ${i + 1}: ${s(pass.seconds)} s evaluating (${s(processSeconds)} s the whole process), ` +
          `${((pass.cpuUs / pass.cells) | 0).toString()} µs CPU per cell, peak RSS ${report.maxRssMb} MB`,
      );
    }
    const warmS = median(warm);
    console.log(
      `summary: cold ${s(cold.seconds)} s` +
        (cliCold === undefined ? "" : ` (CLI cold ${s(cliCold)} s)`) +
        `; warm reopen median ${s(warmS)} s (${warm.map(s).join(", ")}), with the page's opening ` +
        `${s(median(warmWithOpen))} s; JS heap peak ${mb(Math.max(cold.peakMb, ...heaps))} MB` +
        (cliWarm.length
          ? `; CLI warm median ${s(median(cliWarm))} s (${cliWarm.map(s).join(", ")}), whole process ` +
            `${s(median(cliProcess))} s; add-in warm / CLI warm ${(warmS / median(cliWarm)).toFixed(2)}, ` +
            `with the page's opening / the CLI's whole process ${(median(warmWithOpen) / median(cliProcess)).toFixed(2)}`
          : "") +
        `; ${((Date.now() - started) / 1000).toFixed(0)} s in all, load average ${load()} at the end`,
    );
  } finally {
    await browser?.close();
    await site?.close();
    for (const sb of sandboxes) await sb.close();
    rmSync(workDir, { recursive: true, force: true });
    if (builtDir) rmSync(builtDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
