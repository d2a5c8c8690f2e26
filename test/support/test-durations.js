// How long the longer test files take (seconds of one jest worker, measured in a full `npm test` on the project's
// 2-core machine), for test/support/tier-sequencer.js: a run starts the longest files first, so that no long file
// starts near the end while the other worker idles. jest orders by its own cache of the last run's times, but a
// fresh clone (CI) has none and falls back to file size, which put taskpane-desktop.test.ts (6 lines, 2 minutes)
// last. A file missing here takes jest's cached time, else counts as short. Update the figures when a file's time
// changes much (jest prints each file's time in a full run).
module.exports = {
  "test/browser/taskpane.test.ts": 140,
  "test/browser/workflow.test.ts": 130,
  "test/browser/taskpane-desktop.test.ts": 125,
  "test/browser/excel-grid.test.ts": 90,
  "test/browser/storage.test.ts": 29,
  "test/browser/page-load.test.ts": 12,
  "test/browser/lifting.test.ts": 8,
  "test/integration/cli/cache-dir.test.ts": 106,
  "test/integration/cli/fdq-eval.test.ts": 68,
  "test/integration/gateway/hostile-client.test.ts": 40,
  "test/integration/manifest/build.test.ts": 34,
  "test/integration/gateway/redis.test.ts": 30,
  "test/integration/cli/fdq-quota.test.ts": 29,
  "test/integration/docs/commands.test.ts": 20,
  "test/integration/gateway/hostile-upstream.test.ts": 19,
  "test/integration/cli/fdq-refresh.test.ts": 18,
  "test/integration/workbook/bad-input.test.ts": 16,
  "test/integration/cli/stop.test.ts": 15,
  "test/integration/sandbox/memory.test.ts": 14,
  "test/integration/gateway/many-clients.test.ts": 12,
  "test/integration/sandbox/http.test.ts": 11,
  "test/integration/cli/fdq-freeze-share.test.ts": 10,
  "test/integration/sandbox/production.test.ts": 10,
  "test/integration/hostile/cli.test.ts": 9,
  "test/integration/sandbox/sector.test.ts": 9,
  "test/integration/workbook/libreoffice-oracle.test.ts": 8,
  "test/integration/cli/fdq-refresh-changes.test.ts": 8,
  "test/integration/cli/fdq-freeze.test.ts": 8,
  "test/integration/cli/fdq-refresh-scope.test.ts": 7,
  "test/integration/cli/fdq-search.test.ts": 7,
  "test/integration/cli/fdq-refresh-lifting.test.ts": 6,
};
