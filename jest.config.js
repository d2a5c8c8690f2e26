// Three tiers, each a jest project (docs/testing.md): `unit` (modules alone: no server, browser, bundler or
// child process worth the name; `npm run test:unit`, under a minute), `integration` (real components on 127.0.0.1:
// the sandbox, the gateway, Redis, LibreOffice, `fdq` as a process (bundled once per run by
// test/support/fdq-bundle.ts), webpack's production build) and `browser`
// (the task pane in headless Chromium, against one development build of the page made once per run by
// test/support/browser-page.ts). `npm test` runs all three through scripts/test-all.js.

/** What every tier shares: TypeScript through swc, and one temporary folder per test file (see the environment). */
const shared = {
  testEnvironment: "<rootDir>/test/support/temp-dir-environment.js",
  transform: {
    "^.+\\.(t|j)sx?$": [
      "@swc/jest",
      {
        jsc: {
          target: "es2022",
          parser: { syntax: "typescript", tsx: true },
          transform: { react: { runtime: "automatic" } },
        },
      },
    ],
  },
  // p-queue and its dependencies ship ES modules only; jest's CommonJS runtime needs them transformed.
  transformIgnorePatterns: ["/node_modules/(?!(p-queue|p-timeout|eventemitter3)/)"],
  // The sources are roots too, so `jest -o` and --findRelatedTests see which tests a change reaches.
  roots: ["<rootDir>/src", "<rootDir>/test"],
};

/** The test files of one tier (a folder of test/). */
const tier = (folder) => [`<rootDir>/test/${folder}/**/*.test.ts`, `<rootDir>/test/${folder}/**/*.test.tsx`];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...shared, displayName: "unit", testMatch: tier("unit") },
    {
      ...shared,
      displayName: "integration",
      testMatch: tier("integration"),
      globalSetup: "<rootDir>/test/support/fdq-bundle.ts",
      globalTeardown: "<rootDir>/test/support/fdq-bundle-teardown.ts",
    },
    {
      ...shared,
      displayName: "browser",
      testMatch: tier("browser"),
      globalSetup: "<rootDir>/test/support/browser-page.ts",
      globalTeardown: "<rootDir>/test/support/browser-page-teardown.ts",
    },
  ],
  // Two workers on the 2-core machine: much of the integration and browser time is spent waiting on other
  // processes (the sandbox, Chromium, LibreOffice, `fdq`), but a third worker, measured on a busy machine, pushed
  // tests that time a burst (hostile-client, redis, sandbox/http) past their timeouts; the idle machine's cores are
  // busy at two (idle 0-15% in 10 s samples of a full run). A worker whose heap outgrows the limit after a file is
  // replaced, which keeps the run's peak memory bounded (scripts/test-all.js prints it). At 800 MB a fresh clone's
  // run peaked at 1.94 GB (1.6 in a used checkout) with no time gained beyond the runs' noise: 400 MB keeps the
  // 2 GB target clear.
  maxWorkers: 2,
  testTimeout: 30_000,
  workerIdleMemoryLimit: "400MB",
  // A worker ends when its last file has closed what it opened; on a loaded machine that can take seconds.
  workerGracefulExitTimeout: 5_000,
  testSequencer: "<rootDir>/test/support/tier-sequencer.js",
  reporters: ["default", "<rootDir>/test/support/plain-summary-reporter.js"],
};
