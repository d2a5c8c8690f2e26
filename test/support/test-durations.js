// How long the longer test files take (seconds of one jest worker, from a full `npm test` on the project's 2-core
// machine, idle, 2026-11-24: only their order matters), for test/support/tier-sequencer.js: a run starts
// the longest files first, so that no long file starts near the end while the other worker idles. jest orders by its own cache of the last run's times, but a
// fresh clone (CI) has none and falls back to file size, which once put taskpane-desktop.test.ts (6 lines, 2 minutes then)
// last. A file missing here takes jest's cached time, else counts as short. Update the figures when a file's time
// changes much (jest prints each file's time in a full run).
const DURATIONS = {
  "test/browser/taskpane.test.ts": 101,
  "test/browser/workflow.test.ts": 49,
  "test/integration/gateway/hostile-client.test.ts": 34,
  "test/integration/gateway/redis.test.ts": 33,
  "test/integration/cli/cache-dir.test.ts": 33,
  "test/browser/excel-grid.test.ts": 31,
  "test/integration/cli/fdq-eval.test.ts": 27,
  "test/integration/sandbox/memory.test.ts": 23,
  "test/browser/storage.test.ts": 20,
  "test/integration/cli/fdq-quota.test.ts": 18,
  "test/integration/sandbox/http.test.ts": 17,
  "test/browser/taskpane-desktop.test.ts": 16,
  "test/integration/docs/commands.test.ts": 12,
  "test/integration/cli/fdq-freeze-share.test.ts": 11,
  "test/integration/cli/stop.test.ts": 10,
  "test/integration/cli/fdq-refresh.test.ts": 10,
  "test/integration/gateway/many-clients.test.ts": 10,
  "test/integration/sandbox/sector.test.ts": 10,
  "test/integration/workbook/libreoffice-oracle.test.ts": 9,
  "test/browser/page-load.test.ts": 8,
  "test/integration/hostile/cli.test.ts": 8,
  "test/integration/gateway/hostile-upstream.test.ts": 8,
  "test/integration/workbook/bad-input.test.ts": 8,
  "test/browser/lifting.test.ts": 8,
  "test/integration/cli/fdq-refresh-changes.test.ts": 7,
  "test/integration/cli/fdq-refresh-scope.test.ts": 7,
  "test/integration/cli/fdq-freeze.test.ts": 6,
  "test/integration/workbook/fidelity.test.ts": 6,
  "test/unit/taskpane/batched-read.test.ts": 5,
};

/**
 * Files started late, once about LATE_TAIL_SECONDS of short files are left for the other worker: the production
 * build's test reads the run's one production build (test/support/browser-page.ts builds it beside the first
 * tests), which is done by then; started early it would hold a worker idle while the build runs.
 */
const LATE = ["test/integration/manifest/build.test.ts"];
const LATE_TAIL_SECONDS = 90;

module.exports = { DURATIONS, LATE, LATE_TAIL_SECONDS };
