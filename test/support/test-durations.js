// How long the longer test files take (seconds of one jest worker, from a full `npm test` on the project's 2-core
// machine while other work kept it busy: only their order matters), for test/support/tier-sequencer.js: a run starts
// the longest files first, so that no long file starts near the end while the other worker idles. jest orders by its own cache of the last run's times, but a
// fresh clone (CI) has none and falls back to file size, which put taskpane-desktop.test.ts (6 lines, 2 minutes)
// last. A file missing here takes jest's cached time, else counts as short. Update the figures when a file's time
// changes much (jest prints each file's time in a full run).
const DURATIONS = {
  "test/browser/taskpane.test.ts": 184,
  "test/browser/taskpane-desktop.test.ts": 166,
  "test/integration/cli/cache-dir.test.ts": 161,
  "test/browser/workflow.test.ts": 124,
  "test/browser/excel-grid.test.ts": 122,
  "test/integration/manifest/build.test.ts": 117,
  "test/integration/cli/fdq-eval.test.ts": 113,
  "test/integration/gateway/hostile-client.test.ts": 99,
  "test/integration/sandbox/memory.test.ts": 53,
  "test/integration/cli/fdq-quota.test.ts": 43,
  "test/integration/gateway/redis.test.ts": 43,
  "test/integration/docs/commands.test.ts": 40,
  "test/browser/storage.test.ts": 31,
  "test/integration/gateway/hostile-upstream.test.ts": 25,
  "test/integration/cli/fdq-refresh.test.ts": 24,
  "test/integration/sandbox/http.test.ts": 23,
  "test/integration/cli/fdq-freeze-share.test.ts": 23,
  "test/integration/gateway/many-clients.test.ts": 21,
  "test/integration/sandbox/sector.test.ts": 20,
  "test/integration/workbook/libreoffice-oracle.test.ts": 20,
  "test/integration/cli/stop.test.ts": 20,
  "test/integration/workbook/bad-input.test.ts": 19,
  "test/integration/cli/fdq-refresh-changes.test.ts": 16,
  "test/integration/cli/fdq-search.test.ts": 16,
  "test/integration/hostile/cli.test.ts": 15,
  "test/unit/taskpane/batched-read.test.ts": 15,
  "test/integration/cli/fdq-refresh-scope.test.ts": 15,
  "test/browser/page-load.test.ts": 13,
  "test/integration/sandbox/production.test.ts": 12,
  "test/integration/cli/fdq-freeze.test.ts": 12,
  "test/integration/cli/fdq-refresh-lifting.test.ts": 11,
  "test/unit/docs/function-docs.test.ts": 8,
};

/**
 * Files that take much memory of their own (webpack's production build and its minifier: about 0.8 GB), started late,
 * once the browser files (a Chromium and a worker each, about 0.6 GB) are done, so that the two never add up past the
 * 2 GB the run's peak must stay under; about LATE_TAIL_SECONDS of short files still follow, for the other worker.
 */
const LATE = ["test/integration/manifest/build.test.ts"];
const LATE_TAIL_SECONDS = 90;

module.exports = { DURATIONS, LATE, LATE_TAIL_SECONDS };
