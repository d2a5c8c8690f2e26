/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/src", "<rootDir>/test"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
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
  testTimeout: 30000,
  reporters: ["default", "<rootDir>/test/support/plain-summary-reporter.js"],
};
