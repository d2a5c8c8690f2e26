// How long the longer test files take (seconds of one jest worker, from a full `npm test` of a fresh clone on the
// project's 2-core machine, idle, 2026-11-25: only their order matters), for test/support/tier-sequencer.js: a run
// starts the longest files first, so that no long file starts near the end while the other worker idles. jest orders
// by its own cache of the last run's times, but a fresh clone (CI) has none and falls back to file size, which once
// put taskpane-desktop.test.ts (6 lines, 2 minutes then) last. A file missing here takes jest's cached time, else
// counts as short. Update the figures when a file's time changes much (jest prints each file's time in a full run).
const DURATIONS = {
  "test/browser/taskpane.test.ts": 63,
  "test/browser/workflow.test.ts": 34,
  "test/integration/gateway/redis.test.ts": 28,
  "test/integration/cli/cache-dir.test.ts": 25,
  "test/integration/cli/fdq-eval.test.ts": 22,
  "test/browser/storage.test.ts": 22,
  "test/browser/excel-grid.test.ts": 21,
  "test/integration/gateway/hostile-client.test.ts": 15,
  "test/integration/gateway/many-clients.test.ts": 13,
  "test/integration/cli/fdq-quota.test.ts": 13,
  "test/integration/cli/stop.test.ts": 12,
  "test/integration/sandbox/memory.test.ts": 11,
  "test/integration/sandbox/http.test.ts": 11,
  "test/integration/docs/commands.test.ts": 9,
  "test/integration/cli/fdq-refresh.test.ts": 9,
  "test/integration/gateway/hostile-upstream.test.ts": 8,
  "test/browser/taskpane-desktop.test.ts": 8,
  "test/unit/taskpane/batched-read.test.ts": 6,
  "test/integration/workbook/bad-input.test.ts": 6,
  "test/integration/hostile/cli.test.ts": 6,
  "test/integration/cli/fdq-refresh-scope.test.ts": 6,
  "test/integration/cli/fdq-refresh-changes.test.ts": 6,
  "test/browser/page-load.test.ts": 6,
  "test/integration/cli/fdq-freeze.test.ts": 5,
};

/**
 * Files started late, once about LATE_TAIL_SECONDS of short files are left for the other worker: the production
 * build's test reads the run's one production build (test/support/browser-page.ts builds it beside the first
 * tests), which is done by then; started early it would hold a worker idle while the build runs.
 */
const LATE = ["test/integration/manifest/build.test.ts"];
const LATE_TAIL_SECONDS = 90;

module.exports = { DURATIONS, LATE, LATE_TAIL_SECONDS };
